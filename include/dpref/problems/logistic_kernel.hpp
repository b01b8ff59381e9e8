// Fused one-pass kernels of the double logistic gradient and loss (issue 6 performance target):
// features stored d×n column-major (example i = the contiguous column u_i), processed in blocks
// of `block` examples held in L1:
//   1. margins r_k = u_kᵀx (per example: `width`-lane partial sums over the column, two
//      alternating accumulators, lanes added in order, then the d mod width tail coordinates);
//   2. the block's weights w_k = −z_k/(1 + e^{z_k r_k}) (or losses) by the caller's function;
//   3. g += Σ_k w_k u_k in `width`-lane accumulators, examples in index order.
// With d fixed at compile time (D > 0, `fixed_dims`) x and g live in registers; D = 0 is the
// runtime-d fallback with g in memory. Both evaluate the same operations in the same order, so
// they agree bit for bit, and every result is reproducible for a given build. Each coordinate of
// g is a recursive sum over the n examples in index order (the error bound of Higham Thm 4.4,
// as Eigen's blocked products had), each margin a sum of d products in a fixed order.
// Multiprecision scalars never come here (logistic.hpp uses it for double only).
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstring>
#include <type_traits>

#include "dpref/problems/fast_exp.hpp"

namespace dpref::problems::logistic_kernel {

/// Lanes of the kernel's vectors: 2 with SSE2, 4 with AVX or wider (a column of d = 20 is five
/// 4-lane vectors; 8 lanes would leave half a vector per column).
inline constexpr std::size_t width = fastmath::lanes >= 4 ? 4 : 2;
using kvec = double __attribute__((vector_size(width * sizeof(double))));
/// Examples per block (a multiple of fastmath::lanes so the weights are full vectors).
inline constexpr std::size_t block = 32;
static_assert(block % fastmath::lanes == 0);

/// Dimensions with a compile-time kernel; every other d runs the D = 0 kernel.
inline constexpr std::array<int, 12> fixed_dims = {1, 2, 3, 4, 5, 6, 8, 10, 12, 16, 20, 32};

namespace detail {
inline kvec load(const double* p) noexcept {
  kvec v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

/// x (or g) as width-lane chunks plus the tail: in registers for D > 0, in memory for D = 0.
template <int D>
struct chunks {
  static constexpr std::size_t C = static_cast<std::size_t>(D) / width;
  static constexpr std::size_t R = static_cast<std::size_t>(D) % width;
  std::array<kvec, C> v{};
  std::array<double, R> t{};
  chunks(const double* p, std::size_t) noexcept {
#pragma GCC unroll 16
    for (std::size_t c = 0; c < C; ++c) v[c] = load(p + c * width);
#pragma GCC unroll 8
    for (std::size_t j = 0; j < R; ++j) t[j] = p[C * width + j];
  }
  static constexpr std::size_t count() noexcept { return C; }
  static constexpr std::size_t dim() noexcept { return static_cast<std::size_t>(D); }
  [[nodiscard]] kvec vec(std::size_t c) const noexcept { return v[c]; }
  [[nodiscard]] double tail(std::size_t j) const noexcept { return t[j]; }
};
template <>
struct chunks<0> {
  const double* p;
  std::size_t d;
  chunks(const double* q, std::size_t dd) noexcept : p(q), d(dd) {}
  [[nodiscard]] std::size_t count() const noexcept { return d / width; }
  [[nodiscard]] std::size_t dim() const noexcept { return d; }
  [[nodiscard]] kvec vec(std::size_t c) const noexcept { return load(p + c * width); }
  [[nodiscard]] double tail(std::size_t j) const noexcept { return p[count() * width + j]; }
};

/// r[k] = u_kᵀx for the b columns of UB (stride xs.dim()).
template <int D>
inline void margins(const double* UB, std::size_t b, const chunks<D>& xs, double* r) noexcept {
  const std::size_t d = xs.dim(), C = xs.count();
  for (std::size_t k = 0; k < b; ++k) {
    const double* u = UB + k * d;
    // a0 takes the even chunks, a1 the odd ones (C >= 2), starting from the first products.
    kvec a0{}, a1{};
    std::size_t c = 0;
    if (C >= 2) {
      a0 = load(u) * xs.vec(0);
      a1 = load(u + width) * xs.vec(1);
      c = 2;
    }
#pragma GCC unroll 16
    for (; c + 1 < C; c += 2) {
      a0 += load(u + c * width) * xs.vec(c);
      a1 += load(u + (c + 1) * width) * xs.vec(c + 1);
    }
    if (c < C) a0 += load(u + c * width) * xs.vec(c);
    a0 += a1;
    double s = a0[0];
#pragma GCC unroll 8
    for (std::size_t l = 1; l < width; ++l) s += a0[l];
#pragma GCC unroll 8
    for (std::size_t j = C * width; j < d; ++j) s += u[j] * xs.tail(j - C * width);
    r[k] = s;
  }
}

}  // namespace detail

/// Calls f(i, r, b) for consecutive blocks of b <= `block` examples starting at i, r[k] = the
/// margin u_{i+k}ᵀx. U: d×n column-major; x: d values.
template <int D, class F>
inline void for_each_margin_block(const double* U, std::size_t n, std::size_t d, const double* x,
                                  F&& f) {
  const detail::chunks<D> xs(x, d);
  alignas(64) double r[block];
  for (std::size_t i = 0; i < n; i += block) {
    const std::size_t b = std::min(block, n - i);
    detail::margins<D>(U + i * d, b, xs, r);
    f(i, static_cast<const double*>(r), b);
  }
}

/// g = Σ_i w_i u_i over the n columns of U (g: d values, overwritten), with the weights of each
/// block computed by weights(i, r, w, b): w[k] from the margins r[k] of examples i + k.
template <int D, class W>
inline void gradient_sum(const double* U, std::size_t n, std::size_t d, const double* x, double* g,
                         W&& weights) {
  const detail::chunks<D> xs(x, d);
  alignas(64) double r[block], w[block];
  if constexpr (D > 0) {
    constexpr std::size_t C = detail::chunks<D>::C, R = detail::chunks<D>::R;
    std::array<kvec, C> gv{};
    std::array<double, R> gt{};
    for (std::size_t i = 0; i < n; i += block) {
      const std::size_t b = std::min(block, n - i);
      const double* UB = U + i * static_cast<std::size_t>(D);
      detail::margins<D>(UB, b, xs, r);
      weights(i, static_cast<const double*>(r), static_cast<double*>(w), b);
      for (std::size_t k = 0; k < b; ++k) {
        const double* u = UB + k * static_cast<std::size_t>(D);
        const double wk = w[k];
#pragma GCC unroll 16
        for (std::size_t c = 0; c < C; ++c) gv[c] += wk * detail::load(u + c * width);
#pragma GCC unroll 8
        for (std::size_t j = 0; j < R; ++j) gt[j] += wk * u[C * width + j];
      }
    }
    for (std::size_t c = 0; c < C; ++c) std::memcpy(g + c * width, &gv[c], sizeof(kvec));
    for (std::size_t j = 0; j < R; ++j) g[C * width + j] = gt[j];
  } else {
    const std::size_t C = d / width;
    std::fill(g, g + d, 0.0);
    for (std::size_t i = 0; i < n; i += block) {
      const std::size_t b = std::min(block, n - i);
      const double* UB = U + i * d;
      detail::margins<0>(UB, b, xs, r);
      weights(i, static_cast<const double*>(r), static_cast<double*>(w), b);
      // Chunk-outer order: each chunk of g stays in a register over the block; every
      // coordinate still sums the examples in index order (the D > 0 result, bit for bit).
      for (std::size_t c = 0; c < C; ++c) {
        kvec acc = detail::load(g + c * width);
        for (std::size_t k = 0; k < b; ++k) acc += w[k] * detail::load(UB + k * d + c * width);
        std::memcpy(g + c * width, &acc, sizeof acc);
      }
      for (std::size_t j = C * width; j < d; ++j) {
        double acc = g[j];
        for (std::size_t k = 0; k < b; ++k) acc += w[k] * UB[k * d + j];
        g[j] = acc;
      }
    }
  }
}

/// f(std::integral_constant<int, D>{}) with D = d if d is in fixed_dims, else D = 0.
template <class F>
inline decltype(auto) dispatch(std::size_t d, F&& f) {
  switch (d) {
    case 1:
      return f(std::integral_constant<int, 1>{});
    case 2:
      return f(std::integral_constant<int, 2>{});
    case 3:
      return f(std::integral_constant<int, 3>{});
    case 4:
      return f(std::integral_constant<int, 4>{});
    case 5:
      return f(std::integral_constant<int, 5>{});
    case 6:
      return f(std::integral_constant<int, 6>{});
    case 8:
      return f(std::integral_constant<int, 8>{});
    case 10:
      return f(std::integral_constant<int, 10>{});
    case 12:
      return f(std::integral_constant<int, 12>{});
    case 16:
      return f(std::integral_constant<int, 16>{});
    case 20:
      return f(std::integral_constant<int, 20>{});
    case 32:
      return f(std::integral_constant<int, 32>{});
    default:
      return f(std::integral_constant<int, 0>{});
  }
}

}  // namespace dpref::problems::logistic_kernel
