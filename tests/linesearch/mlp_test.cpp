// Unit tests of the §5.7 MLP (spec/linesearch.md, section "MLP (§5.7)"): the one-hidden-layer
// network's values and per-example gradients against an independent loop implementation and
// central differences at 50 digits, the clipped gradient sum (norm identity + GEMM) against
// explicit per-example clipping, the line evaluator, the IDX loader, and DP-BLSGD / DP-SGD on
// the MLP in the §5.7 configuration. Deterministic (fixed seeds); no statistical assertions.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "dpref/accounting/accounting.hpp"
#include "dpref/linesearch/linesearch.hpp"
#include "dpref/problems/clipping.hpp"
#include "dpref/problems/mlp.hpp"
#include "dpref/random/uniform.hpp"

namespace {

// The statement throws std::domain_error (invalid_parameter) whose message contains `text`.
#define EXPECT_THAT_MESSAGE(stmt, text)                    \
  do {                                                     \
    std::string msg_ = "(no exception)";                   \
    try {                                                  \
      (void)(stmt);                                        \
    } catch (const std::domain_error& e_) {                \
      msg_ = e_.what();                                    \
    }                                                      \
    EXPECT_NE(msg_.find(text), std::string::npos) << msg_; \
  } while (0)

using namespace dpref;
namespace ls = dpref::linesearch;
using problems::mlp_classifier;

constexpr int kD = 3, kH = 4, kK = 3, kN = 7;

// Tiny data set (d = 3, K = 3), inputs in [−1, 1].
template <real_scalar Real>
mlp_classifier<Real> tiny(Real mu = Real(1) / 1000) {
  philox_stream s(11, 1);
  matrix<Real> X(kD, kN);
  std::vector<int> y(kN);
  for (int i = 0; i < kN; ++i) {
    for (int j = 0; j < kD; ++j) X(j, i) = Real(2) * uniform01<Real>(s) - Real(1);
    y[static_cast<std::size_t>(i)] = i % kK;
  }
  return mlp_classifier<Real>(X, y, kH, kK, mu);
}

// A parameter vector with weights of size ~scale (random signs), in Real.
template <real_scalar Real>
vector<Real> params_of(Eigen::Index p, std::uint64_t seed, double scale) {
  philox_stream s(seed, 2);
  vector<Real> w(p);
  for (Eigen::Index j = 0; j < p; ++j)
    w[j] = Real(scale) * (Real(2) * uniform01<Real>(s) - Real(1));
  return w;
}

// Independent per-example value and gradient by explicit loops over the documented layout
// [W1 (h×d col-major) | b1 | W2 (K×h col-major) | b2] (no Eigen products, no norm identity).
template <real_scalar Real>
struct explicit_net {
  int d, h, K;
  Real mu;
  Real W1(const vector<Real>& w, int r, int c) const { return w[c * h + r]; }
  Real b1(const vector<Real>& w, int r) const { return w[h * d + r]; }
  Real W2(const vector<Real>& w, int k, int r) const { return w[h * d + h + r * K + k]; }
  Real b2(const vector<Real>& w, int k) const { return w[h * d + h + K * h + k]; }

  void forward(const vector<Real>& w, const vector<Real>& x, std::vector<Real>& z1,
               std::vector<Real>& a1, std::vector<Real>& z2) const {
    z1.assign(static_cast<std::size_t>(h), Real(0));
    a1.assign(static_cast<std::size_t>(h), Real(0));
    z2.assign(static_cast<std::size_t>(K), Real(0));
    for (int r = 0; r < h; ++r) {
      Real t = b1(w, r);
      for (int c = 0; c < d; ++c) t += W1(w, r, c) * x[c];
      z1[static_cast<std::size_t>(r)] = t;
      a1[static_cast<std::size_t>(r)] = t > Real(0) ? t : Real(0);
    }
    for (int k = 0; k < K; ++k) {
      Real t = b2(w, k);
      for (int r = 0; r < h; ++r) t += W2(w, k, r) * a1[static_cast<std::size_t>(r)];
      z2[static_cast<std::size_t>(k)] = t;
    }
  }
  Real value(const vector<Real>& w, const vector<Real>& x, int y) const {
    using std::exp;
    using std::log;
    std::vector<Real> z1, a1, z2;
    forward(w, x, z1, a1, z2);
    Real s(0);
    for (const Real& z : z2) s += exp(z);
    return log(s) - z2[static_cast<std::size_t>(y)] + mu * w.squaredNorm() / 2;
  }
  vector<Real> gradient(const vector<Real>& w, const vector<Real>& x, int y) const {
    using std::exp;
    std::vector<Real> z1, a1, z2;
    forward(w, x, z1, a1, z2);
    Real s(0);
    for (const Real& z : z2) s += exp(z);
    std::vector<Real> d2(static_cast<std::size_t>(K)), d1(static_cast<std::size_t>(h));
    for (int k = 0; k < K; ++k)
      d2[static_cast<std::size_t>(k)] =
          exp(z2[static_cast<std::size_t>(k)]) / s - (k == y ? Real(1) : Real(0));
    for (int r = 0; r < h; ++r) {
      Real t(0);
      for (int k = 0; k < K; ++k) t += W2(w, k, r) * d2[static_cast<std::size_t>(k)];
      d1[static_cast<std::size_t>(r)] = z1[static_cast<std::size_t>(r)] > Real(0) ? t : Real(0);
    }
    vector<Real> g(w.size());
    for (int c = 0; c < d; ++c)
      for (int r = 0; r < h; ++r) g[c * h + r] = d1[static_cast<std::size_t>(r)] * x[c];
    for (int r = 0; r < h; ++r) g[h * d + r] = d1[static_cast<std::size_t>(r)];
    for (int r = 0; r < h; ++r)
      for (int k = 0; k < K; ++k)
        g[h * d + h + r * K + k] =
            d2[static_cast<std::size_t>(k)] * a1[static_cast<std::size_t>(r)];
    for (int k = 0; k < K; ++k) g[h * d + h + K * h + k] = d2[static_cast<std::size_t>(k)];
    return g + mu * w;
  }
};

template <real_scalar Real>
explicit_net<Real> reference(const mlp_classifier<Real>& P) {
  return {static_cast<int>(P.input_dimension()), static_cast<int>(P.hidden()), P.classes(), P.mu()};
}

std::vector<Eigen::Index> mlp_all_indices(Eigen::Index n) {
  std::vector<Eigen::Index> v(static_cast<std::size_t>(n));
  std::iota(v.begin(), v.end(), Eigen::Index(0));
  return v;
}

template <real_scalar Real>
Real rel_err(const vector<Real>& a, const vector<Real>& b) {
  return Real((a - b).norm() / (Real(1) + b.norm()));
}

// ------------------------------------------------------------------------------ LS.MLP

TEST(LS_MLP, ShapesAndLayout) {
  const auto P = tiny<double>();
  EXPECT_EQ(P.dimension(), kH * kD + kH + kK * kH + kK);
  EXPECT_EQ(P.size(), kN);
  vector<double> w = vector<double>::LinSpaced(P.dimension(), 0, double(P.dimension() - 1));
  EXPECT_EQ(P.W1(w)(1, 2), w[2 * kH + 1]);
  EXPECT_EQ(P.b1(w)[3], w[kH * kD + 3]);
  EXPECT_EQ(P.W2(w)(2, 1), w[kH * kD + kH + 1 * kK + 2]);
  EXPECT_EQ(P.b2(w)[0], w[kH * kD + kH + kK * kH]);
}

// The explicit loop gradient equals central differences of the class's f_i at 50 digits
// (h = 1e-15: truncation ~1e-30, rounding ~1e-35), and the class's f_i equals the loop value.
TEST(LS_MLP, GradientMatchesCentralDifferencesMp50) {
  const auto P = tiny<mp50>();
  const auto R = reference(P);
  const vector<mp50> w = params_of<mp50>(P.dimension(), 3, 0.8);
  const mp50 h("1e-15");
  for (Eigen::Index i = 0; i < P.size(); ++i) {
    const vector<mp50> x = P.features().col(i);
    const int y = P.labels()[static_cast<std::size_t>(i)];
    EXPECT_LT(abs(P.example_value(w, i) - R.value(w, x, y)), mp50("1e-45"));
    const vector<mp50> g = R.gradient(w, x, y);
    for (Eigen::Index j = 0; j < w.size(); ++j) {
      vector<mp50> wp = w, wm = w;
      wp[j] += h;
      wm[j] -= h;
      const mp50 fd = (P.example_value(wp, i) - P.example_value(wm, i)) / (2 * h);
      EXPECT_LT(abs(fd - g[j]), mp50("1e-25")) << "i=" << i << " j=" << j;
    }
  }
}

TEST(LS_MLP, ValueAndAccuracy) {
  const auto P = tiny<double>();
  const auto R = reference(P);
  const vector<double> w = params_of<double>(P.dimension(), 4, 1.0);
  double s = 0;
  long long ok = 0;
  for (Eigen::Index i = 0; i < P.size(); ++i) {
    const int y = P.labels()[static_cast<std::size_t>(i)];
    s += R.value(w, P.features().col(i), y);
    std::vector<double> z1, a1, z2;
    R.forward(w, P.features().col(i), z1, a1, z2);
    int arg = 0;
    for (int k = 1; k < kK; ++k)
      if (z2[static_cast<std::size_t>(k)] > z2[static_cast<std::size_t>(arg)]) arg = k;
    ok += arg == y;
  }
  EXPECT_NEAR(P.value(w), s / kN, 1e-14);
  EXPECT_DOUBLE_EQ(P.accuracy(w), double(ok) / kN);
  EXPECT_GT(P.value(w), 0.0);  // f >= 0 (LS-E2)
}

// mlp_line_evaluator(η) = clipped_value_sum(w − ηg) (the NOISYBTLS query path).
TEST(LS_MLP, LineEvaluatorMatchesDirect) {
  const auto P = tiny<double>();
  const vector<double> w = params_of<double>(P.dimension(), 5, 1.0);
  const vector<double> g = params_of<double>(P.dimension(), 6, 0.5);
  const std::vector<Eigen::Index> batch = {0, 2, 3, 6};
  const auto line = problems::make_line(P, batch, w, g);
  EXPECT_NEAR(line.g_squared(), g.squaredNorm(), 1e-15);
  int clipped = 0;
  for (const double eta : {0.0, 0.1, 0.7, 2.0, 5.0})
    for (const double C_obj : {0.8, 1.5, 100.0}) {
      const vector<double> we = w - eta * g;
      const double direct = P.clipped_value_sum(we, batch, C_obj);
      EXPECT_NEAR(line.clipped_sum(eta, C_obj), direct, 1e-12 * (1 + direct));
      for (const auto i : batch) clipped += P.example_value(we, i) > C_obj;
    }
  EXPECT_GT(clipped, 0);  // the objective clipping was exercised
}

TEST(LS_MLP, InitialPointIsDeterministicAndBounded) {
  const auto P = tiny<double>();
  philox_stream a(1, 2), b(1, 2), c(2, 2);
  const vector<double> wa = P.initial_point(a), wb = P.initial_point(b), wc = P.initial_point(c);
  EXPECT_EQ(wa, wb);
  EXPECT_NE(wa, wc);
  for (Eigen::Index j = 0; j < wa.size(); ++j)
    EXPECT_LE(std::abs(wa[j]),
              j < P.off_W2() ? 1 / std::sqrt(double(kD)) : 1 / std::sqrt(double(kH)));
}

TEST(LS_MLP, RejectsInvalidInput) {
  matrix<double> X = matrix<double>::Zero(2, 3);
  EXPECT_THROW(mlp_classifier<double>(X, {0, 1}, 4, 3), std::invalid_argument);
  EXPECT_THROW(mlp_classifier<double>(X, {0, 1, 3}, 4, 3), std::invalid_argument);
  EXPECT_THROW(mlp_classifier<double>(X, {0, 1, -1}, 4, 3), std::invalid_argument);
  EXPECT_THROW(mlp_classifier<double>(X, {0, 1, 2}, 0, 3), std::domain_error);
  EXPECT_THROW(mlp_classifier<double>(X, {0, 0, 0}, 4, 1), std::domain_error);
  EXPECT_THROW(mlp_classifier<double>(X, {0, 1, 2}, 4, 3, -1.0), std::domain_error);
  X(0, 0) = std::nan("");
  EXPECT_THROW(mlp_classifier<double>(X, {0, 1, 2}, 4, 3), std::domain_error);
  const auto P = tiny<double>();
  vector<double> w = vector<double>::Zero(P.dimension()), out;
  const std::vector<Eigen::Index> b = {0};
  EXPECT_THROW(P.clipped_gradient_sum(w, b, 0.0, out), std::domain_error);
  EXPECT_THROW((void)P.clipped_value_sum(w, b, 0.0), std::domain_error);
}

// ------------------------------------------------------------------------------ LS.MLP.CLIP

// Σ_B clip(∇f_i, C) by the norm identity + GEMMs = Σ of explicitly clipped loop gradients, in
// double (1e-12) and at 50 digits (1e-40), for thresholds below, between and above the norms.
template <real_scalar Real>
void check_clipped_sum(const Real& tol) {
  for (const double mu : {0.0, 0.001, 0.3}) {
    const auto P = tiny<Real>(Real(mu));
    const auto R = reference(P);
    const vector<Real> w = params_of<Real>(P.dimension(), 7, 1.5);
    const auto batch = mlp_all_indices(P.size());
    std::vector<Real> norms;
    for (const auto i : batch)
      norms.push_back(
          R.gradient(w, P.features().col(i), P.labels()[static_cast<std::size_t>(i)]).norm());
    const auto [mn, mx] = std::minmax_element(norms.begin(), norms.end());
    for (const Real& C : {Real(*mn / 2), Real((*mn + *mx) / 2), Real(*mx * 2)}) {
      vector<Real> got, want = vector<Real>::Zero(P.dimension());
      P.clipped_gradient_sum(w, batch, C, got);
      for (const auto i : batch) {
        vector<Real> g =
            R.gradient(w, P.features().col(i), P.labels()[static_cast<std::size_t>(i)]);
        problems::clip_in_place(g, C);
        want += g;
      }
      EXPECT_LT(rel_err(got, want), tol) << "mu=" << mu << " C=" << C;
    }
  }
}

TEST(LS_MLP_CLIP, ClippedSumEqualsExplicitClippingDouble) { check_clipped_sum<double>(1e-12); }
TEST(LS_MLP_CLIP, ClippedSumEqualsExplicitClippingMp50) { check_clipped_sum<mp50>(mp50("1e-40")); }

// Every per-example gradient scaled by the factor the sum uses has norm <= C (to rounding), and
// the factor is 1 exactly when the norm is <= C.
TEST(LS_MLP_CLIP, FactorsBoundNormsByC) {
  const auto P = tiny<double>();
  const auto R = reference(P);
  const auto batch = mlp_all_indices(P.size());
  int clipped = 0, kept = 0;
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    const vector<double> w = params_of<double>(P.dimension(), seed, 0.2 * double(seed));
    for (const double C : {0.05, 0.5, 3.0}) {
      const auto s = P.clip_factors(w, batch, C);
      for (std::size_t k = 0; k < batch.size(); ++k) {
        const double n = R.gradient(w, P.features().col(batch[k]), P.labels()[k]).norm();
        EXPECT_LE(s[k] * n, C * (1 + 1e-12));
        if (n <= C * (1 - 1e-12)) {
          EXPECT_EQ(s[k], 1.0);
          ++kept;
        } else if (n > C * (1 + 1e-12)) {
          EXPECT_NEAR(s[k] * n, C, 1e-12 * C);
          ++clipped;
        }
      }
    }
  }
  EXPECT_GT(clipped, 0);
  EXPECT_GT(kept, 0);
}

// The double and 50-digit clipped sums, values and line queries agree (same data and w).
TEST(LS_MLP_CLIP, DoubleAgreesWithMp50) {
  const auto Pd = tiny<double>();
  const mlp_classifier<mp50> Pm(Pd.features().cast<mp50>(), Pd.labels(), kH, kK, mp50("0.001"));
  const vector<double> wd = params_of<double>(Pd.dimension(), 8, 1.0);
  const vector<mp50> wm = wd.cast<mp50>();
  const auto batch = mlp_all_indices(Pd.size());
  vector<double> gd;
  vector<mp50> gm;
  Pd.clipped_gradient_sum(wd, batch, 0.7, gd);
  Pm.clipped_gradient_sum(wm, batch, mp50("0.7"), gm);
  EXPECT_LT(rel_err<double>(gd, gm.cast<double>()), 1e-13);
  EXPECT_NEAR(Pd.value(wd), static_cast<double>(Pm.value(wm)), 1e-14);
  const auto ld = problems::make_line(Pd, batch, wd, gd);
  const auto lm = problems::make_line(Pm, batch, wm, gm);
  EXPECT_NEAR(ld.clipped_sum(0.3, 1.0), static_cast<double>(lm.clipped_sum(mp50("0.3"), mp50(1))),
              1e-12);
}

// ------------------------------------------------------------------------------ LS.MLP.DATA

void write_be32(std::ofstream& f, std::uint32_t v) {
  const unsigned char b[4] = {static_cast<unsigned char>(v >> 24),
                              static_cast<unsigned char>(v >> 16),
                              static_cast<unsigned char>(v >> 8), static_cast<unsigned char>(v)};
  f.write(reinterpret_cast<const char*>(b), 4);
}

/// An IDX label file (magic 0x801) of `labels`.
void write_idx_labels(const std::string& path, std::span<const unsigned char> labels) {
  std::ofstream l(path, std::ios::binary);
  write_be32(l, 0x801);
  write_be32(l, static_cast<std::uint32_t>(labels.size()));
  l.write(reinterpret_cast<const char*>(labels.data()),
          static_cast<std::streamsize>(labels.size()));
}

// A generated 3-image 2×2 IDX pair: pixels p → 2p/255 − 1, labels kept, max_rows truncates,
// mismatched counts and out-of-range labels are refused.
TEST(LS_MLP_DATA, ReadsIdxAndRescales) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("dpref_ls_mlp_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const auto images = (dir / "img").string(), labels = (dir / "lab").string(),
             labels2 = (dir / "lab2").string(), labels3 = (dir / "lab3").string();
  {
    std::ofstream f(images, std::ios::binary);
    write_be32(f, 0x803);
    write_be32(f, 3);
    write_be32(f, 2);
    write_be32(f, 2);
    const unsigned char px[12] = {0, 255, 51, 102, 1, 2, 3, 4, 200, 100, 50, 25};
    f.write(reinterpret_cast<const char*>(px), 12);
    const unsigned char lb[3] = {9, 0, 4}, lb3[3] = {1, 10, 2};
    write_idx_labels(labels, lb);
    write_idx_labels(labels2, std::span(lb, 2));
    write_idx_labels(labels3, lb3);
  }
  const auto P = problems::mlp_from_idx<double>(images, labels, 5);
  ASSERT_EQ(P.size(), 3);
  ASSERT_EQ(P.input_dimension(), 4);
  EXPECT_EQ(P.features()(0, 0), -1.0);
  EXPECT_EQ(P.features()(1, 0), 1.0);
  EXPECT_NEAR(P.features()(2, 0), -0.6, 1e-15);
  EXPECT_NEAR(P.features()(0, 2), 2 * 200 / 255.0 - 1, 1e-15);
  EXPECT_EQ(P.labels(), (std::vector<int>{9, 0, 4}));
  const auto Q = problems::mlp_from_idx<double>(images, labels, 5, 2);
  EXPECT_EQ(Q.size(), 2);
  EXPECT_EQ(Q.features(), P.features().leftCols(2));
  EXPECT_THROW(problems::mlp_from_idx<double>(images, labels2, 5), std::invalid_argument);
  EXPECT_THROW(problems::mlp_from_idx<double>(images, labels3, 5), std::invalid_argument);
  EXPECT_THROW(problems::mlp_from_idx<double>((dir / "none").string(), labels, 5),
               std::invalid_argument);
  fs::remove_all(dir);
}

// ------------------------------------------------------------------------------ LS.MLP.RUN

// Three Gaussian-free clusters in [−1, 1]^4 (learnable), n = 400.
mlp_classifier<double> clusters(Eigen::Index n = 400, Eigen::Index hidden = 8) {
  philox_stream s(21, 3);
  matrix<double> X(4, n);
  std::vector<int> y(static_cast<std::size_t>(n));
  const double centre[3][4] = {
      {0.6, -0.5, 0.2, 0.0}, {-0.6, 0.4, -0.3, 0.2}, {0.0, 0.1, 0.6, -0.6}};
  for (Eigen::Index i = 0; i < n; ++i) {
    const int c = static_cast<int>(i % 3);
    y[static_cast<std::size_t>(i)] = c;
    for (int j = 0; j < 4; ++j) X(j, i) = centre[c][j] + 0.6 * (uniform01<double>(s) - 0.5);
  }
  return mlp_classifier<double>(X, y, hidden, 3);
}

/// T iterations at a generous ε (1e6, orders up to 64) and sampling rate q = 0.1.
ls::params<double> generous_mlp_params(long long T) {
  ls::params<double> p;
  p.epsilon = 1e6;
  p.max_order = 64;
  p.q = 0.1;
  p.iterations = T;
  return p;
}

/// DP-SGD in the generous setting from the start point of `p`.
ls::params<double> dpsgd_from(const ls::params<double>& p, long long T) {
  auto sp = generous_mlp_params(T);
  sp.algorithm = ls::algorithm::dpsgd;
  sp.w0 = p.w0;
  return sp;
}

// §5.7 configuration: Gaussian NOISYBTLS with the β^max_it·η0 fallback, 90% / 10% of ρ_iter,
// a fixed plan of T iterations (a generous ε so that the plan fits).
ls::params<double> section57(const mlp_classifier<double>& P, double rho_iter, long long T) {
  auto p = generous_mlp_params(T);
  p.C_grad = 3;
  p.C_obj = 3;
  p.alpha = 0.001;
  p.beta = 0.8;
  p.noise = ls::btls_noise::gaussian;
  p.fallback_min_step = true;
  p.strategy = ls::budget_strategy::none;
  p.rho_grad0 = 0.9 * rho_iter;
  p.ls_budget0 = 0.1 * rho_iter;
  philox_stream init(5, 9);
  p.w0 = P.initial_point(init);
  return p;
}

// The composed RDP curve of a ledger (the accountant's own per-event curves).
accounting::rdp_curve<double> ledger_curve(const accounting::ledger<double>& l) {
  const auto orders =
      accounting::integer_orders<double>(2, static_cast<int>(l.options().max_order));
  std::optional<accounting::rdp_curve<double>> total;
  for (const auto& e : l.events()) {
    const auto c = *accounting::detail::part_of(e, orders).curve;
    total = total ? accounting::compose_rdp(*total, c) : c;
  }
  return *total;
}

TEST(LS_MLP_RUN, Section57RunIsFixedLengthWithoutBudgetIncrease) {
  const auto P = clusters();
  auto p = section57(P, 0.5, 40);
  std::vector<long long> seen;
  p.observer = [&](long long t, const vector<double>& w) {
    seen.push_back(t);
    EXPECT_EQ(w.size(), P.dimension());
  };
  const auto r = ls::run(P, p, philox_stream(3));
  EXPECT_EQ(r.status, status::completed);  // the planned T iterations ran
  EXPECT_EQ(r.calls.iterations, 40);
  EXPECT_EQ(r.calls.updates, 40);  // the fallback never returns 0 ...
  EXPECT_EQ(r.calls.line_searches, 40);
  EXPECT_EQ(r.calls.cheb, 0);  // ... so CHEB never runs
  EXPECT_EQ(r.calls.gradients, 40);
  EXPECT_EQ(*r.final_rho_grad, 0.45);
  EXPECT_EQ(*r.final_ls_budget, 0.05);
  ASSERT_EQ(seen.size(), 40u);
  for (std::size_t k = 0; k < seen.size(); ++k) EXPECT_EQ(seen[k], static_cast<long long>(k + 1));
  ASSERT_EQ(r.steps.size(), 40u);
  for (const double e : r.steps) {
    EXPECT_GT(e, 0.0);
    EXPECT_LE(e, 1.0);
  }
  EXPECT_GT(r.privacy.guarantee.epsilon, 0.0);
  EXPECT_TRUE(std::isfinite(r.privacy.guarantee.epsilon));
  // the plan: one event, T samples of gradient + one NOISYBTLS
  ASSERT_EQ(r.privacy.ledger.events().size(), 1u);
  EXPECT_EQ(r.privacy.ledger.events()[0].count, 40);
  EXPECT_EQ(r.privacy.ledger.events()[0].joint.size(), 1u);
  // The observer does not change the run; w0 is used (another w0 gives another result).
  auto q = section57(P, 0.5, 40);
  const auto r2 = ls::run(P, q, philox_stream(3));
  EXPECT_EQ(r2.w, r.w);
  *q.w0 *= 0.5;
  EXPECT_NE(ls::run(P, q, philox_stream(3)).w, r.w);
  // The plan is checked before the first draw: a request below it is refused (nothing
  // released, the observer never called).
  auto tight = section57(P, 0.5, 40);
  tight.epsilon = 1.0;
  bool called = false;
  tight.observer = [&](long long, const vector<double>&) { called = true; };
  EXPECT_THROW(ls::run(P, tight, philox_stream(3)), accounting::budget_exceeded);
  EXPECT_FALSE(called);
}

// Paper accounting (Theorem 3: ρ_BT gives (α, αρ_BT)): each DP-BLSGD iteration costs the Lemma 4
// amplification of α(0.9ρ + 0.1ρ) = αρ_iter, exactly DP-SGD's base cost; the proven SVT bound
// (LS-E1) costs strictly more at every order; DP-SGD's exact (MTZ) accounting is <= Lemma 4.
TEST(LS_MLP_RUN, SamePerIterationRdpAsDpSgd) {
  const auto P = clusters();
  const double rho = 0.5;
  const long long T = 25;
  auto p = section57(P, rho, T);
  p.svt_bound = accounting::svt_bound::paper_eq4_5;
  p.allow_over_budget = true;
  const auto paper = ls::run(P, p, philox_stream(4));
  p.svt_bound = accounting::svt_bound::proven;
  p.allow_over_budget = false;
  const auto proven = ls::run(P, p, philox_stream(4));
  EXPECT_EQ(paper.w, proven.w);  // accounting does not change the path (fixed plan)
  const auto orders = accounting::integer_orders<double>(2, 64);
  accounting::rdp_curve<double> base{orders, {}};
  for (const double a : orders) base.eps.push_back(a * rho);
  const auto want =
      accounting::compose_rdp_steps(accounting::poisson_subsampled_rdp_zw(base, 0.1), T);
  auto sp = dpsgd_from(p, T);
  sp.noise_multiplier = 1 / std::sqrt(2 * rho);
  const auto sgd = ls::run(P, sp, philox_stream(4));
  ASSERT_TRUE(paper.claim.has_value());
  const auto& paper_spent = paper.claim->rdp;
  const auto proven_spent = ledger_curve(proven.privacy.ledger);
  const auto sgd_spent = ledger_curve(sgd.privacy.ledger);
  ASSERT_EQ(paper_spent.eps.size(), want.eps.size());
  for (std::size_t k = 0; k < want.eps.size(); ++k) {
    EXPECT_NEAR(paper_spent.eps[k], want.eps[k], 1e-9 * want.eps[k]) << "order " << orders[k];
    EXPECT_GT(proven_spent.eps[k], paper_spent.eps[k]);
    EXPECT_LE(sgd_spent.eps[k], want.eps[k] * (1 + 1e-12));
  }
  // the paper mode's ledger is the sound one: the same as the proven run's
  EXPECT_EQ(paper.privacy.guarantee.epsilon, proven.privacy.guarantee.epsilon);
}

// With a generous budget both algorithms learn the clusters from the same w0 (objective below
// F(w0), accuracy well above 1/3); DP-SGD calls the observer after every step.
TEST(LS_MLP_RUN, BothAlgorithmsLearn) {
  const auto P = clusters();
  auto p = section57(P, 50.0, 60);
  const double f0 = P.value(*p.w0);
  const auto b = ls::run(P, p, philox_stream(6));
  auto sp = dpsgd_from(p, 60);
  sp.sgd_eta = 0.5;
  sp.noise_multiplier = 0.1;
  long long calls = 0;
  sp.observer = [&](long long t, const vector<double>&) { EXPECT_EQ(t, ++calls); };
  const auto s = ls::run(P, sp, philox_stream(6));
  EXPECT_EQ(calls, 60);
  EXPECT_LT(P.value(b.w), 0.8 * f0);
  EXPECT_LT(P.value(s.w), 0.8 * f0);
  EXPECT_GT(P.accuracy(b.w), 0.8);
  EXPECT_GT(P.accuracy(s.w), 0.8);
}

TEST(LS_MLP_RUN, RejectsBadStartAndBudgets) {
  const auto P = clusters(30, 2);
  auto p = section57(P, 0.5, 3);
  p.w0 = vector<double>::Zero(5);
  EXPECT_THAT_MESSAGE(ls::run(P, p, philox_stream(1)), "linesearch::params.w0 must be");
  ls::params<double> sp;
  sp.algorithm = ls::algorithm::dpsgd;
  sp.epsilon = 1e6;
  sp.w0 = p.w0;
  sp.noise_multiplier = 1;
  sp.iterations = 2;
  EXPECT_THAT_MESSAGE(ls::run(P, sp, philox_stream(1)), "linesearch::params.w0 must be");
  p = section57(P, 0.5, 3);
  p.rho_grad0 = -1;
  EXPECT_THROW(ls::run(P, p, philox_stream(1)), std::domain_error);
  p = section57(P, 0.5, 3);
  p.ls_budget0 = -1;
  EXPECT_THROW(ls::run(P, p, philox_stream(1)), std::domain_error);
  // Algorithms that need the linear problem are refused on the MLP, naming the field.
  p = section57(P, 0.5, 3);
  p.algorithm = ls::algorithm::dpagd;
  EXPECT_THAT_MESSAGE(ls::run(P, p, philox_stream(1)), "linesearch::params.algorithm must be");
}

}  // namespace

// The proven Gaussian SVT bound charges ln(max_it)/(α−1) per line search whatever the noise, so
// DP-BLSGD's §5.7 plan has an ε floor as ρ → 0 (3.096 at the defaults T = 1000, max_it = 20;
// computed independently below from the plan at ρ = 1e-200 and at ρ = 1e-12, which agree). A
// request below it is refused before the search, naming epsilon, its value and the floor (it
// used to say "epsilon must be attainable, got 1", the search's starting point); a request above
// it is calibrated to a plan within the request (negative control of the refusal).
TEST(LS_MLP_RUN, ARequestBelowTheSvtFloorIsRefusedNamingEpsilonAndTheFloor) {
  linesearch::mlp_config o;  // the defaults: T = 1000, max_it = 20, ε = 4
  const double floor = linesearch::detail::section57_plan_total(o, 1e-12).epsilon;
  EXPECT_GT(floor, 3.0);
  EXPECT_LT(floor, 3.2);
  EXPECT_NEAR(linesearch::detail::section57_plan_total(o, 1e-200).epsilon, floor, 1e-6);
  // the defaults are above the floor: calibrated, and the plan is within the request
  EXPECT_EQ(o.epsilon, 4.0);
  const double rho = linesearch::section57_blsgd_rho(o);
  EXPECT_GT(rho, 0.0);
  EXPECT_LE(linesearch::detail::section57_plan_total(o, rho).epsilon, 4.0);
  o.epsilon = 2;  // the paper's §5.7 request: below the floor, refused
  try {
    (void)linesearch::section57_blsgd_rho(o);
    ADD_FAILURE() << "epsilon = 2 below the floor was accepted";
  } catch (const invalid_parameter& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("linesearch::mlp.epsilon"), std::string::npos) << m;
    EXPECT_NE(m.find("above 3.09"), std::string::npos) << m;
    EXPECT_NE(m.find("got 2"), std::string::npos) << m;
  }
}
