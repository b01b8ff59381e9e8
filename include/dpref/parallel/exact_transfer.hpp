// Exact transfer of real scalars through the communicator's double-valued collectives
// (spec/distributed.md DIST.COMM): a double travels as its bit pattern; a wider binary scalar
// (long double, mp50, mpfr) as a non-overlapping double expansion x = d_1 + d_2 + … + d_k
// (d_1 = round(x), d_{i+1} = round(x − d_1 − … − d_i), each subtraction exact), prefixed by k.
// Unpacking adds the pieces back in order, which is exact; a value the expansion cannot carry
// (outside the double exponent range) is refused rather than rounded.
#pragma once

#include <Eigen/Core>
#include <cmath>
#include <cstddef>
#include <span>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "dpref/parallel/communicator.hpp"

namespace dpref::parallel {

/// Appends the exact encoding of `x` to `out`.
/// @throws std::range_error if x is finite but not a finite sum of doubles
template <class Real>
void pack(const Real& x, std::vector<double>& out) {
  if constexpr (std::is_same_v<Real, double>) {
    out.push_back(x);
  } else {
    using std::isfinite;
    const std::size_t at = out.size();
    out.push_back(0.0);  // the count, set below
    Real rem = x;
    double k = 0;
    for (;;) {
      const auto d = static_cast<double>(rem);
      out.push_back(d);
      k += 1;
      if (!std::isfinite(d)) {
        if (isfinite(x))
          throw std::range_error("parallel::pack: a finite value outside the double range");
        break;
      }
      rem -= Real(d);
      if (rem == Real(0)) break;
      if (k >= 64) throw std::range_error("parallel::pack: value is not a short double expansion");
    }
    out[at] = k;
  }
}

/// Reads one value written by `pack` at `pos` (advanced past it).
template <class Real>
Real unpack(std::span<const double> in, std::size_t& pos) {
  if (pos >= in.size()) throw std::logic_error("parallel::unpack: buffer too short");
  if constexpr (std::is_same_v<Real, double>) {
    return in[pos++];
  } else {
    const auto k = static_cast<std::size_t>(in[pos++]);
    if (k < 1 || pos + k > in.size()) throw std::logic_error("parallel::unpack: bad count");
    Real x = Real(in[pos++]);
    for (std::size_t i = 1; i < k; ++i) x += Real(in[pos++]);
    return x;
  }
}

/// Packs every element of a contiguous range (Eigen column, vector).
template <class Range>
void pack_all(const Range& values, std::vector<double>& out) {
  for (Eigen::Index i = 0; i < static_cast<Eigen::Index>(values.size()); ++i) pack(values[i], out);
}
/// Fills every element of `values` from `in` at `pos`.
template <class Range>
void unpack_all(Range&& values, std::span<const double> in, std::size_t& pos) {
  using Real = std::decay_t<decltype(values[0])>;
  for (Eigen::Index i = 0; i < static_cast<Eigen::Index>(values.size()); ++i)
    values[i] = unpack<Real>(in, pos);
}

/// Copies rank `root`'s `values` to every rank, exactly (any Real, sizes equal everywhere).
template <class Vec>
void share_from(const communicator& comm, Vec& values, int root = 0) {
  if (comm.size() == 1) return;
  std::vector<double> buf;
  if (comm.rank() == root) pack_all(values, buf);
  const std::vector<double> all = comm.allgather(buf);  // only root contributes
  std::size_t pos = 0;
  unpack_all(values, all, pos);
}

}  // namespace dpref::parallel
