// The public description of a pwa instance (spec/pwa.md PWA.RUN, ARCH.PUBLIC): a generated
// Gaussian instance of pwa §5.1 or an instance file, and make_problem, which builds problem (3)
// from it.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "dpref/error.hpp"
#include "dpref/io/json.hpp"
#include "dpref/params.hpp"
#include "dpref/pwa/problem.hpp"
#include "dpref/pwa/study.hpp"
#include "dpref/scalar.hpp"

namespace dpref::pwa {

/// The problem of pwa (3).
template <real_scalar Real>
using problem = piecewise_affine<Real>;

/// An instance file: {"A": [[a_1ᵀ], …], "b": [...], "G": [[...]], "h": [...]} (numbers or
/// decimal strings, read at the target precision; G, h optional).
template <real_scalar Real>
struct instance_file {
  std::vector<std::vector<Real>> A;
  std::vector<Real> b;
  std::vector<std::vector<Real>> G;
  std::vector<Real> h;
  template <class V>
  void fields(V&& v) {
    v("A", A, "m rows a_iᵀ of d entries");
    v("b", b, "the private data b ∈ R^m");
    v("G", G, "rows of Gx <= h (optional)");
    v("h", h, "right-hand sides of Gx <= h (optional)");
  }
};

/// Public description of the instance. The public constants c (the box) and bmax (the
/// neighbouring distance of pwa (4)) are always given here, by the caller (ARCH.PUBLIC).
/// @spec PWA.RUN ARCH.PUBLIC
template <real_scalar Real>
struct problem_spec {
  static constexpr int max_pieces = 100000, max_dimension = 1000;
  static constexpr long long max_entries = 10000000;
  static constexpr double max_box = 1e6, max_bmax = 1e6;

  std::string instance;
  int m = 20;
  int d = 2;
  Real c = Real(1);
  Real bmax = Real(1);
  std::uint64_t data_seed = 1;

  template <class V>
  void fields(V&& v) {
    v("instance", instance,
      "instance file {A, b, G?, h?} (JSON); empty: A, b i.i.d. N(0, 1) (pwa §5.1, data_seed)");
    v("m", m, "pieces m in [1, 1e5] (must match the instance file's A)");
    v("d", d, "dimension d in [1, 1000] (must match the instance file's A)");
    v("c", c, "box half-width c in (0, 1e6]: P = [−c, c]^d ∩ {Gx <= h}");
    v("bmax", bmax, "neighbouring distance bmax in (0, 1e6] of pwa (4): max_i |b_i − b′_i|");
    v("data_seed", data_seed, "seed of the generated instance");
  }
  /// data_seed applies to the generated instance only (HARD.APPLIES).
  template <class A>
  void applicability(A&& a) const {
    a("data_seed", instance.empty(), "applies only to the generated instance (instance is a file)");
  }
  /// @throws invalid_parameter "pwa::problem.<field> must be …"
  void validate() const {
    const param_checker ch("pwa::problem");
    ch.at_least<int>("m", m, 1, max_pieces);
    ch.at_least<int>("d", d, 1, max_dimension);
    ch.require(static_cast<long long>(m) * d <= max_entries, "m", "such that m·d <= 1e7", m);
    ch.positive("c", c);
    ch.require(c <= Real(max_box), "c", "finite and in (0, 1e6]", c);
    ch.positive("bmax", bmax);
    ch.require(bmax <= Real(max_bmax), "bmax", "finite and in (0, 1e6]", bmax);
  }
};

/// Builds the problem: the instance file (A, b, G, h; its sizes must match m, d) or the Gaussian
/// instance of pwa §5.1. @throws invalid_parameter / std::invalid_argument naming the field
/// @spec PWA.RUN
template <real_scalar Real>
problem<Real> make_problem(const problem_spec<Real>& s) {
  s.validate();
  if (s.instance.empty()) return gaussian_instance<Real>(s.data_seed, s.m, s.d, s.c, s.bmax);
  const io::document doc = io::document::from_file(s.instance);
  instance_file<Real> f;
  io::read_fields(io::node(doc), f);
  const param_checker ch("pwa::problem");
  ch.require(static_cast<long long>(f.A.size()) == s.m, "m",
             "the number of rows of A in " + s.instance, s.m);
  ch.require(f.b.size() == f.A.size(), "instance", "a file whose b has m entries", s.instance);
  ch.require(f.h.size() == f.G.size(), "instance", "a file whose h has one entry per row of G",
             s.instance);
  matrix<Real> A(s.m, s.d), G(static_cast<Eigen::Index>(f.G.size()), s.d);
  for (int i = 0; i < s.m; ++i) {
    ch.require(static_cast<int>(f.A[static_cast<std::size_t>(i)].size()) == s.d, "d",
               "the length of every row of A in " + s.instance, s.d);
    for (int j = 0; j < s.d; ++j)
      A(i, j) = f.A[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)];
  }
  for (std::size_t i = 0; i < f.G.size(); ++i) {
    ch.require(static_cast<int>(f.G[i].size()) == s.d, "d",
               "the length of every row of G in " + s.instance, s.d);
    for (int j = 0; j < s.d; ++j)
      G(static_cast<Eigen::Index>(i), j) = f.G[i][static_cast<std::size_t>(j)];
  }
  polytope<Real> P;
  P.dimension = s.d;
  P.box = s.c;
  P.G = std::move(G);
  P.h = Eigen::Map<const vector<Real>>(f.h.data(), static_cast<Eigen::Index>(f.h.size()));
  return piecewise_affine<Real>(
      std::move(A),
      Eigen::Map<const vector<Real>>(f.b.data(), static_cast<Eigen::Index>(f.b.size())),
      std::move(P), s.bmax);
}

}  // namespace dpref::pwa
