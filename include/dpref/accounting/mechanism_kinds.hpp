// The mechanism kinds of the event vocabulary (spec/accounting.md ACC.EVENT): the typed
// parameters of each kind and the variant `mechanism` that holds one. The list with the
// guarantee of each kind is the file comment of accounting/event.hpp.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "dpref/accounting/svt.hpp"
#include "dpref/accounting/types.hpp"
#include "dpref/enum_names.hpp"
#include "dpref/error.hpp"
#include "dpref/io/fields.hpp"
#include "dpref/params.hpp"
#include "dpref/scalar.hpp"

namespace dpref::accounting {

// ------------------------------------------------------------------------------- mechanisms --

template <real_scalar Real>
struct pure_mechanism {
  static constexpr std::string_view name = "pure";
  Real epsilon{};
  template <class V>
  void fields(V&& v) {
    v("epsilon", epsilon, "declared ε >= 0");
  }
};

template <real_scalar Real>
struct approx_mechanism {
  static constexpr std::string_view name = "approx";
  Real epsilon{};
  Real delta{};
  template <class V>
  void fields(V&& v) {
    v("epsilon", epsilon, "declared ε >= 0");
    v("delta", delta, "declared δ in [0, 1)");
  }
};

template <real_scalar Real>
struct rdp_mechanism {
  static constexpr std::string_view name = "rdp";
  std::vector<Real> orders;
  std::vector<Real> epsilon;
  template <class V>
  void fields(V&& v) {
    v("orders", orders, "orders α > 1, strictly increasing");
    v("epsilon", epsilon, "ε(α) >= 0 at each order");
  }
};

template <real_scalar Real>
struct laplace_mechanism {
  static constexpr std::string_view name = "laplace";
  Real sensitivity{};
  Real scale{};
  template <class V>
  void fields(V&& v) {
    v("sensitivity", sensitivity, "ℓ1 sensitivity Δ1 > 0");
    v("scale", scale, "Laplace scale b > 0");
  }
};

template <real_scalar Real>
struct vector_laplace_mechanism {
  static constexpr std::string_view name = "vector_laplace";
  Real sensitivity{};
  Real scale{};
  template <class V>
  void fields(V&& v) {
    v("sensitivity", sensitivity, "ℓ2 sensitivity Δ2 >= 0");
    v("scale", scale, "scale b > 0 of the density ∝ exp(−‖w‖₂/b)");
  }
};

template <real_scalar Real>
struct gaussian_mechanism {
  static constexpr std::string_view name = "gaussian";
  Real sensitivity{};
  Real sigma{};
  template <class V>
  void fields(V&& v) {
    v("sensitivity", sensitivity, "ℓ2 sensitivity Δ2 > 0");
    v("sigma", sigma, "noise standard deviation σ > 0");
  }
};

template <real_scalar Real>
struct exponential_mechanism {
  static constexpr std::string_view name = "exponential";
  Real utility_sensitivity{};
  Real scale{};
  bool monotone = false;
  template <class V>
  void fields(V&& v) {
    v("utility_sensitivity", utility_sensitivity, "utility sensitivity Δu > 0");
    v("scale", scale, "scale s > 0 of P ∝ exp(u/s)");
    v("monotone", monotone, "whether the utility is monotone in the data set");
  }
};

template <real_scalar Real>
struct randomized_response_mechanism {
  static constexpr std::string_view name = "randomized_response";
  Real epsilon{};
  template <class V>
  void fields(V&& v) {
    v("epsilon", epsilon, "ε > 0 of k-ary randomized response");
  }
};

template <real_scalar Real>
struct discrete_laplace_mechanism {
  static constexpr std::string_view name = "discrete_laplace";
  std::int64_t sensitivity = 1;
  std::int64_t scale_num = 1;
  std::int64_t scale_den = 1;
  template <class V>
  void fields(V&& v) {
    v("sensitivity", sensitivity, "integer sensitivity Δ >= 1");
    v("scale_num", scale_num, "numerator of the scale t = num/den (P(z) ∝ exp(−|z|/t))");
    v("scale_den", scale_den, "denominator of the scale t");
  }
};

template <real_scalar Real>
struct discrete_gaussian_mechanism {
  static constexpr std::string_view name = "discrete_gaussian";
  std::int64_t sensitivity = 1;
  std::int64_t variance_num = 1;
  std::int64_t variance_den = 1;
  template <class V>
  void fields(V&& v) {
    v("sensitivity", sensitivity, "integer sensitivity Δ >= 1");
    v("variance_num", variance_num, "numerator of σ² = num/den");
    v("variance_den", variance_den, "denominator of σ²");
  }
};

/// Lattice release 2^k (round(clamp(x)/2^k) + Z) of a real d-vector of l1 sensitivity Δ1, Z
/// coordinate-wise discrete Laplace of integer scale t (mechanisms/secure/snapped_laplace.hpp).
template <real_scalar Real>
struct snapped_laplace_mechanism {
  static constexpr std::string_view name = "snapped_laplace";
  Real sensitivity{};
  int grid_exponent = 0;
  std::int64_t grid_scale = 1;
  long long dimension = 1;
  template <class V>
  void fields(V&& v) {
    v("sensitivity", sensitivity, "ℓ1 sensitivity Δ1 > 0 of the clamped real query");
    v("grid_exponent", grid_exponent, "k in [-1022, 970]: release and noise on the grid 2^k Z");
    v("grid_scale", grid_scale, "integer scale t >= 1 of the noise (P(z) ∝ exp(−|z|/t))");
    v("dimension", dimension, "coordinates d >= 1 (rounding adds d 2^k to Δ1)");
  }
};

/// Lattice release of a real d-vector of l2 sensitivity Δ2 with coordinate-wise discrete
/// Gaussian noise N_Z(0, σ_g²), σ_g² = num/den in grid steps (mechanisms/secure/).
template <real_scalar Real>
struct snapped_gaussian_mechanism {
  static constexpr std::string_view name = "snapped_gaussian";
  Real sensitivity{};
  int grid_exponent = 0;
  std::int64_t variance_num = 1;
  std::int64_t variance_den = 1;
  long long dimension = 1;
  template <class V>
  void fields(V&& v) {
    v("sensitivity", sensitivity, "ℓ2 sensitivity Δ2 > 0 of the clamped real query");
    v("grid_exponent", grid_exponent, "k in [-1022, 970]: release and noise on the grid 2^k Z");
    v("variance_num", variance_num, "numerator of σ_g² (variance in grid steps)");
    v("variance_den", variance_den, "denominator of σ_g²");
    v("dimension", dimension, "coordinates d >= 1 (rounding adds √d 2^k to Δ2)");
  }
};

/// Lattice l2-Laplace release of a real d-vector of l2 sensitivity Δ2: noise round(W) with W of
/// density ∝ exp(−‖W‖₂/t) in grid steps (mechanisms/secure/snapped_vector_laplace.hpp).
template <real_scalar Real>
struct snapped_vector_laplace_mechanism {
  static constexpr std::string_view name = "snapped_vector_laplace";
  Real sensitivity{};
  int grid_exponent = 0;
  std::int64_t grid_scale = 1;
  long long dimension = 1;
  template <class V>
  void fields(V&& v) {
    v("sensitivity", sensitivity, "ℓ2 sensitivity Δ2 > 0 of the clamped real query");
    v("grid_exponent", grid_exponent, "k in [-1022, 970]: release and noise on the grid 2^k Z");
    v("grid_scale", grid_scale, "integer scale t >= 1 (density ∝ exp(−‖w‖₂/t) in grid steps)");
    v("dimension", dimension, "coordinates d >= 1 (rounding adds √d 2^k to Δ2)");
  }
};

/// Noise of the sparse-vector (AboveThreshold) mechanism.
enum class svt_noise { laplace, gaussian };
DPREF_ENUM_NAMES(svt_noise, laplace, gaussian)
constexpr auto enum_names(svt_bound) {
  return std::array{std::pair{svt_bound::proven, std::string_view("proven")},
                    std::pair{svt_bound::paper_eq4_5, std::string_view("unproven_eq4_5")}};
}

template <real_scalar Real>
struct sparse_vector_mechanism {
  static constexpr std::string_view name = "sparse_vector";
  svt_noise noise = svt_noise::laplace;
  Real sensitivity{};
  Real threshold_scale{};  ///< b1 (Laplace) or σ1 (Gaussian)
  Real query_scale{};      ///< b2 (Laplace) or σ2 (Gaussian)
  long long max_queries = 1;
  svt_bound bound = svt_bound::proven;
  template <class V>
  void fields(V&& v) {
    v("noise", noise, "laplace or gaussian");
    v("sensitivity", sensitivity, "query sensitivity Δ > 0");
    v("threshold_scale", threshold_scale, "threshold noise scale (b1 or σ1) > 0");
    v("query_scale", query_scale, "query noise scale (b2 or σ2) > 0");
    v("max_queries", max_queries, "at most k queries (k >= 1; used by the Gaussian bound)");
    v("bound", bound, "proven, or unproven_eq4_5 (reproduces a paper; not a guarantee)");
  }
};

template <real_scalar Real>
using mechanism =
    std::variant<pure_mechanism<Real>, approx_mechanism<Real>, rdp_mechanism<Real>,
                 laplace_mechanism<Real>, vector_laplace_mechanism<Real>, gaussian_mechanism<Real>,
                 exponential_mechanism<Real>, randomized_response_mechanism<Real>,
                 discrete_laplace_mechanism<Real>, discrete_gaussian_mechanism<Real>,
                 sparse_vector_mechanism<Real>, snapped_laplace_mechanism<Real>,
                 snapped_gaussian_mechanism<Real>, snapped_vector_laplace_mechanism<Real>>;

/// Name of the mechanism held by m (the JSON "mechanism" value).
template <real_scalar Real>
std::string_view mechanism_name(const mechanism<Real>& m) {
  return std::visit([](const auto& x) { return std::decay_t<decltype(x)>::name; }, m);
}

}  // namespace dpref::accounting
