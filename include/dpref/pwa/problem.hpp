// Piecewise-affine objective of pwa (3): f(x) = max_{i≤m} (a_iᵀx + b_i) over a polytope
// P = {x : −c ≤ x_j ≤ c} ∩ {x : Gx ≤ h}. The private data are b ∈ R^m; two data sets are
// neighbours when max_i |b_i − b′_i| ≤ bmax (pwa (4)). A (m×d), c, G, h and bmax are public.
// Also the public description of a run's instance (spec/pwa.md PWA.RUN, ARCH.PUBLIC): the
// generated Gaussian instance of pwa §5.1 or an instance file, and make_problem, which builds
// problem (3) from it.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "dpref/error.hpp"
#include "dpref/io/json.hpp"
#include "dpref/params.hpp"
#include "dpref/random/gaussian.hpp"
#include "dpref/random/philox_stream.hpp"
#include "dpref/scalar.hpp"

namespace dpref::pwa {

/// The polytope P of pwa §3: the box [−c, c]^d intersected with optional rows Gx ≤ h.
/// @spec PWA.PROBLEM
template <real_scalar Real>
struct polytope {
  int dimension = 0;
  Real box = Real(1);  ///< c > 0: −c ≤ x_j ≤ c
  matrix<Real> G;      ///< k×d extra inequalities (k may be 0)
  vector<Real> h;      ///< size k

  /// The box only.
  static polytope box_only(int d, const Real& c) {
    polytope p;
    p.dimension = d;
    p.box = c;
    p.G = matrix<Real>(0, d);
    p.h = vector<Real>(0);
    p.validate();
    return p;
  }

  [[nodiscard]] bool has_extra_rows() const { return G.rows() > 0; }

  void validate() const {
    constexpr const char* fn = "dpref::pwa::polytope";
    if (dimension < 1) fail_argument(fn, "dimension", ">= 1", dimension);
    require_positive(fn, "box (c)", box);
    if (G.cols() != dimension) fail_argument(fn, "G.cols()", "== dimension", G.cols());
    if (h.size() != G.rows()) fail_argument(fn, "h.size()", "== G.rows()", h.size());
    for (Eigen::Index i = 0; i < G.size(); ++i) require_finite(fn, "G", G.data()[i]);
    for (Eigen::Index i = 0; i < h.size(); ++i) require_finite(fn, "h", h[i]);
  }

  /// x ∈ P up to an absolute slack `tol` (tol = 0: exact membership).
  [[nodiscard]] bool contains(const vector<Real>& x, const Real& tol = Real(0)) const {
    if (x.size() != dimension) return false;
    for (int j = 0; j < dimension; ++j)
      if (x[j] < -box - tol || x[j] > box + tol) return false;
    if (has_extra_rows()) {
      const vector<Real> r = G * x - h;
      for (Eigen::Index i = 0; i < r.size(); ++i)
        if (r[i] > tol) return false;
    }
    return true;
  }
};

/// f(x) = max_i (a_iᵀx + b_i) (pwa (3)); rows of A are the a_iᵀ. @spec PWA.PROBLEM
template <real_scalar Real>
class piecewise_affine {
 public:
  /// @throws std::invalid_argument on size mismatch, non-finite entries or bmax ≤ 0
  piecewise_affine(matrix<Real> A, vector<Real> b, pwa::polytope<Real> P, const Real& bmax)
      : A_(std::move(A)), b_(std::move(b)), P_(std::move(P)), bmax_(bmax) {
    constexpr const char* fn = "piecewise_affine";
    P_.validate();
    if (A_.rows() < 1) fail_argument(fn, "A.rows() (m)", ">= 1", A_.rows());
    if (A_.cols() != P_.dimension) fail_argument(fn, "A.cols()", "== P.dimension", A_.cols());
    if (b_.size() != A_.rows()) fail_argument(fn, "b.size()", "== A.rows()", b_.size());
    for (Eigen::Index i = 0; i < A_.size(); ++i) require_finite(fn, "A", A_.data()[i]);
    for (Eigen::Index i = 0; i < b_.size(); ++i) require_finite(fn, "b", b_[i]);
    require_positive(fn, "bmax", bmax_);
  }

  [[nodiscard]] int pieces() const { return static_cast<int>(A_.rows()); }     ///< m
  [[nodiscard]] int dimension() const { return static_cast<int>(A_.cols()); }  ///< d
  [[nodiscard]] const matrix<Real>& A() const { return A_; }
  [[nodiscard]] const vector<Real>& b() const { return b_; }
  [[nodiscard]] const pwa::polytope<Real>& polytope() const { return P_; }
  [[nodiscard]] const Real& bmax() const { return bmax_; }

  /// The same public structure with other private data b′ (a neighbour or a noisy b).
  [[nodiscard]] piecewise_affine with_b(vector<Real> b_new) const {
    return piecewise_affine(A_, std::move(b_new), P_, bmax_);
  }

  /// u_i(x) = a_iᵀx + b_i for every i (pwa Algorithm 2's utilities).
  [[nodiscard]] vector<Real> utilities(const vector<Real>& x) const {
    check_x("piecewise_affine::utilities", x);
    return A_ * x + b_;
  }
  /// f(x) = max_i u_i(x).
  [[nodiscard]] Real value(const vector<Real>& x) const { return utilities(x).maxCoeff(); }
  /// Index of a maximising piece (smallest index at ties); a_i is a subgradient at x.
  [[nodiscard]] int active_piece(const vector<Real>& x) const {
    const vector<Real> u = utilities(x);
    Eigen::Index i = 0;
    u.maxCoeff(&i);
    return static_cast<int>(i);
  }

 private:
  void check_x(const char* fn, const vector<Real>& x) const {
    if (x.size() != A_.cols()) fail_argument(fn, "x.size()", "== d", x.size());
  }

  matrix<Real> A_;
  vector<Real> b_;
  pwa::polytope<Real> P_;
  Real bmax_;
};

/// m × d i.i.d. N(0, 1) pieces (pwa §5.1). Rows are drawn in order, so the pieces for m are the
/// first m rows of those for any larger m (nested, as in pwa Figure 3).
/// @spec PWA.STUDY
template <real_scalar Real>
piecewise_affine<Real> gaussian_instance(std::uint64_t seed, int m, int d, const Real& c,
                                         const Real& bmax = Real(1)) {
  if (m < 1) fail_domain("dpref::pwa::gaussian_instance", "m", ">= 1", m);
  if (d < 1) fail_domain("dpref::pwa::gaussian_instance", "d", ">= 1", d);
  matrix<Real> A(m, d);
  vector<Real> b(m);
  for (int i = 0; i < m; ++i) {
    philox_stream s(seed, 0x9a0000u, static_cast<std::uint64_t>(i));  // row i: its own substream
    // not privacy noise: the generated instance of pwa §5.1 (public description, data seed)
    for (int j = 0; j < d; ++j) A(i, j) = gaussian<Real>(s, Real(1));
    b[i] = gaussian<Real>(s, Real(1));  // not privacy noise: (the same instance)
  }
  return piecewise_affine<Real>(A, b, polytope<Real>::box_only(d, c), bmax);
}

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
