// The public bounds of the linesearch releases (spec/privacy_bounds.md, linesearch section):
// property tests that each released statistic moves by at most the ledger's sensitivity over
// random neighbouring pairs in which one record violates the declared constant by a large
// factor (up to 1e300, where margins overflow to ±∞ or NaN), that the ledger's sensitivities
// are the clips the run actually applies (DP-BLSGD-AC's decay included), and the release rules
// of a private linesearch result (PRIV.RELEASE, PRIV.BOUNDS). RapidCheck with the fixed
// RC_PARAMS seed of the test registration; no statistical assertions. Each property has a
// negative control (the same statistic with the enforcement off exceeds the bound).
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "dpref/accounting/accounting.hpp"
#include "dpref/accounting/snapped.hpp"
#include "dpref/linesearch/json.hpp"
#include "dpref/linesearch/linesearch.hpp"
#include "dpref/linesearch/mlp_study.hpp"
#include "dpref/random/secure/lattice.hpp"
#include "support/generators.hpp"
#include "support/messages.hpp"
#include "synthetic_erm.hpp"

namespace {

using namespace dpref;
namespace ls = dpref::linesearch;
namespace acc = dpref::accounting;
using dpref::test::message_of;
using dpref::test::positive_log_uniform;
using dpref::test::real_in;
using problems::linear_erm;
using problems::margin_loss;
using problems::mlp_classifier;

constexpr double kNoClip = std::numeric_limits<double>::max();

margin_loss<double> loss_of(int k) {
  return k == 0   ? margin_loss<double>::logistic()
         : k == 1 ? margin_loss<double>::hinge()
                  : margin_loss<double>::huberized_hinge();
}

/// n random records in [−5, 5]^d with ±1 labels, then one record x_bad (the last column).
linear_erm<double> with_bad_record(int n, int d, const vector<double>& x_bad, double y_bad,
                                   const margin_loss<double>& loss, double mu) {
  matrix<double> X(d, n + 1);
  vector<double> y(n + 1);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < d; ++j) X(j, i) = *real_in<double>(-5, 5);
    y[i] = *rc::gen::arbitrary<bool>() ? 1.0 : -1.0;
  }
  X.col(n) = x_bad;
  y[n] = y_bad;
  return linear_erm<double>(X, y, loss, mu);
}

/// A record of norm about `factor` (up to 1e300: finite, but its margins overflow), or, one time
/// in four, entries of magnitude near the largest double with mixed signs, whose margins are
/// ±∞ or NaN (∞ − ∞) for a moderate w.
vector<double> big_record(int d, double factor) {
  vector<double> x(d);
  const bool extreme = *rc::gen::inRange(0, 4) == 0;
  for (int j = 0; j < d; ++j)
    x[j] = extreme ? (j % 2 ? -1 : 1) * *real_in<double>(0.5, 1.0) * 1.7e308
                   : *real_in<double>(-1, 1) * factor;
  return x;
}

vector<double> random_vector(int d, double scale) {
  vector<double> w(d);
  for (int j = 0; j < d; ++j) w[j] = *real_in<double>(-1, 1) * scale;
  return w;
}

std::vector<Eigen::Index> first(Eigen::Index n) {
  std::vector<Eigen::Index> b(static_cast<std::size_t>(n));
  std::iota(b.begin(), b.end(), Eigen::Index(0));
  return b;
}

/// A drawn §5.7 MLP case (3 classes, hidden width h in 1..4): the constant C (C_grad or C_obj),
/// μ, and the MLP of n random records in [−1, 1]^d, then a big_record (the last column).
struct mlp_case {
  int n;
  double C, mu;
  mlp_classifier<double> P;
};

mlp_case draw_mlp_case() {
  const int d = *rc::gen::inRange(1, 5), n = *rc::gen::inRange(0, 8);
  const int h = *rc::gen::inRange(1, 5);
  const double C = *positive_log_uniform<double>(1e-3, 10.0);
  const double mu = *rc::gen::arbitrary<bool>() ? 0.0 : *positive_log_uniform<double>(1e-6, 1.0);
  matrix<double> X(d, n + 1);
  std::vector<int> y(static_cast<std::size_t>(n + 1));
  for (int i = 0; i <= n; ++i) {
    for (int j = 0; j < d; ++j) X(j, i) = *real_in<double>(-1, 1);
    y[static_cast<std::size_t>(i)] = *rc::gen::inRange(0, 3);
  }
  X.col(n) = big_record(d, *positive_log_uniform<double>(1.0, 1e300));
  return {n, C, mu, mlp_classifier<double>(X, y, h, 3, mu)};
}

/// The clipped gradient sums of D = the first n records and D' = D plus record n differ by at
/// most C in l2 (to the rounding of sums of terms of size <= C + μ‖w‖).
template <class Problem>
void check_sum_moves_by_at_most_c(const Problem& P, const vector<double>& w, int n, double C,
                                  double mu) {
  vector<double> a, b;
  P.clipped_gradient_sum(w, first(n), C, a);
  P.clipped_gradient_sum(w, first(n + 1), C, b);
  RC_ASSERT(b.allFinite());
  const double tol = 1e-12 * (n + 1) * (C + mu * w.norm());
  RC_ASSERT((b - a).norm() <= C * (1 + 1e-12) + tol);
}

// ------------------------------------------------------------------ PRIV.LINESEARCH.C_GRAD

// The clipped gradient sum of every gradient event (linear ERM): D = the first n records,
// D' = D plus a record whose gradient norm exceeds C_grad by up to 1e300; the sum moves by at
// most C_grad in l2 (to the rounding of sums of terms of size <= C + μ‖w‖).
RC_GTEST_PROP(PRIV_LINESEARCH_C_GRAD, LinearErmSumMovesByAtMostCGrad, ()) {
  const int d = *rc::gen::inRange(1, 8), n = *rc::gen::inRange(0, 15);
  const double C = *positive_log_uniform<double>(1e-3, 10.0);
  const double mu = *rc::gen::arbitrary<bool>() ? 0.0 : *positive_log_uniform<double>(1e-6, 1.0);
  const double factor = *positive_log_uniform<double>(1.0, 1e300);
  const auto P = with_bad_record(n, d, big_record(d, factor), *rc::gen::arbitrary<bool>() ? 1 : -1,
                                 loss_of(*rc::gen::inRange(0, 3)), mu);
  const vector<double> w = random_vector(d, *positive_log_uniform<double>(1e-3, 1e3));
  check_sum_moves_by_at_most_c(P, w, n, C, mu);
  const double z = P.margin(w, n);
  RC_TAG(std::isnan(z)                               ? "margin NaN"
         : std::isinf(z)                             ? "margin infinite"
         : P.example_gradient(w, n).norm() > 100 * C ? "gradient > 100 C_grad"
                                                     : "gradient <= 100 C_grad");
}

// The same for the §5.7 MLP (softmax cross-entropy, 3 classes, hidden width 1..4).
RC_GTEST_PROP(PRIV_LINESEARCH_C_GRAD, MlpSumMovesByAtMostCGrad, ()) {
  const auto [n, C, mu, P] = draw_mlp_case();
  const vector<double> w =
      random_vector(static_cast<int>(P.dimension()), *positive_log_uniform<double>(1e-2, 1e2));
  check_sum_moves_by_at_most_c(P, w, n, C, mu);
}

// Negative control: the same statistic with the clip off (the engine's own C = max) moves by
// the violating record's gradient, far more than C_grad.
TEST(PRIV_LINESEARCH_C_GRAD, WithoutTheClipTheSumMovesByTheRecord) {
  matrix<double> X(2, 2);
  X << 1, 1000, 0, -1000;
  vector<double> y(2);
  y << 1, 1;
  const linear_erm<double> P(X, y, margin_loss<double>::logistic(), 1e-3);
  const vector<double> w = vector<double>::Zero(2);
  vector<double> a, b, a0, b0;
  P.clipped_gradient_sum(w, first(1), 1.0, a);
  P.clipped_gradient_sum(w, first(2), 1.0, b);
  P.clipped_gradient_sum(w, first(1), kNoClip, a0);
  P.clipped_gradient_sum(w, first(2), kNoClip, b0);
  EXPECT_LE((b - a).norm(), 1.0 + 1e-15);
  EXPECT_GT((b0 - a0).norm(), 700.0);  // ‖−(1/2)(1000, −1000)‖ = 707
}

// A record whose margin is NaN (∞ − ∞ in xᵀw) used to be kept with factor 1 (NaN > C is false);
// it now contributes 0, and one whose margin is +∞ (φ′ = 0, a NaN norm from 0·∞) no longer adds
// μw of norm > C_grad.
TEST(PRIV_LINESEARCH_C_GRAD, NonFiniteNormsContributeNothing) {
  matrix<double> X(4, 1);
  X << 1e308, 1e308, -1e308, -1e308;
  const vector<double> y = vector<double>::Ones(1);
  const linear_erm<double> P(X, y, margin_loss<double>::logistic(), 1.0);
  vector<double> w(4);
  w << 10, 10, 10, 10;  // xᵀw: NaN or ±∞ depending on the summation order
  vector<double> g;
  P.clipped_gradient_sum(w, first(1), 1.0, g);
  EXPECT_TRUE(g.allFinite());
  EXPECT_LE(g.norm(), 1.0);
  matrix<double> X2(2, 1);
  X2 << 1e308, 1e308;
  const linear_erm<double> Q(X2, y, margin_loss<double>::logistic(), 1.0);
  vector<double> w2(2);
  w2 << 1e3, 1e3;  // margin +∞, φ′ = −0, μ‖w‖ = 1414 > C = 1
  Q.clipped_gradient_sum(w2, first(1), 1.0, g);
  EXPECT_LE(g.norm(), 1.0);
}

// The ledger's gradient and search events carry exactly the clips the run applies: a problem
// that records the C of every clipped gradient sum and the C_obj of every NOISYBTLS line, run by
// DP-BLSGD, DP-BLSGD-AC (the decay (9) must change C), DP-BLGD and DP-SGD.
struct clip_log {
  std::map<double, long long> gradient, objective;
  bool mixed = false;  // one line queried at two different C_obj
};

struct recording_problem {
  const linear_erm<double>* P;
  clip_log* log;
  [[nodiscard]] Eigen::Index size() const { return P->size(); }
  [[nodiscard]] Eigen::Index dimension() const { return P->dimension(); }
  void clipped_gradient_sum(const vector<double>& w, std::span<const Eigen::Index> batch,
                            const double& C, vector<double>& out) const {
    ++log->gradient[C];
    P->clipped_gradient_sum(w, batch, C, out);
  }
  [[nodiscard]] double value(const vector<double>& w) const { return P->value(w); }
  [[nodiscard]] double accuracy(const vector<double>& w) const { return P->accuracy(w); }
};

struct recording_line {
  problems::line_evaluator<double> line;
  clip_log* log;
  mutable std::optional<double> C;
  [[nodiscard]] const double& g_squared() const { return line.g_squared(); }
  [[nodiscard]] double clipped_sum(const double& eta, const double& C_obj) const {
    if (!C) {
      C = C_obj;
      ++log->objective[C_obj];
    } else if (*C != C_obj) {
      log->mixed = true;
    }
    return line.clipped_sum(eta, C_obj);
  }
  template <class Each>
  void for_each_clipped(const double& eta, const double& C_obj, Each&& each) const {
    if (!C) {
      C = C_obj;
      ++log->objective[C_obj];
    } else if (*C != C_obj) {
      log->mixed = true;
    }
    line.for_each_clipped(eta, C_obj, std::forward<Each>(each));
  }
};

recording_line make_line(const recording_problem& R, std::span<const Eigen::Index> batch,
                         const vector<double>& w, const vector<double>& g) {
  return {problems::line_evaluator<double>(*R.P, batch, w, g), R.log, std::nullopt};
}

static_assert(ls::linesearch_problem<recording_problem, double>);

/// Calls per sensitivity in a ledger: gaussian events and parts, sparse-vector parts.
clip_log charged(const acc::ledger<double>& l) {
  clip_log out;
  const auto add = [&](const acc::event<double>& e, long long times) {
    if (const auto* g = std::get_if<acc::gaussian_mechanism<double>>(&e.what))
      out.gradient[g->sensitivity] += times;
    if (const auto* v = std::get_if<acc::sparse_vector_mechanism<double>>(&e.what))
      out.objective[v->sensitivity] += times;
  };
  for (const auto& e : l.events()) {
    add(e, e.count);
    for (const auto& part : e.joint) add(part, e.count * part.count);
  }
  return out;
}

TEST(PRIV_LINESEARCH_C_GRAD, LedgerSensitivitiesAreTheClipsApplied) {
  const auto P = test::synthetic_erm<double>(2000, 3, 5);
  for (const auto a :
       {ls::algorithm::blsgd, ls::algorithm::blsgd_ac, ls::algorithm::blgd, ls::algorithm::dpsgd}) {
    clip_log log;
    const recording_problem R{&P, &log};
    ls::params<double> p;
    p.algorithm = a;
    p.epsilon = 1;
    p.max_order = 64;
    p.iterations = 20;
    p.strategy = ls::budget_strategy::must;  // CHEB raises ρ_grad: the decay (9) triggers
    const auto r = ls::run(R, p, philox_stream(11));
    const clip_log led = charged(r.privacy.ledger);
    EXPECT_EQ(log.gradient, led.gradient) << io::enum_to_string(a);
    EXPECT_EQ(log.objective, led.objective) << io::enum_to_string(a);
    EXPECT_FALSE(log.mixed);
    EXPECT_FALSE(log.gradient.empty());
    if (a == ls::algorithm::blsgd_ac) {
      EXPECT_GE(log.gradient.size(), 2u);  // the decayed clips were applied and charged
      EXPECT_GE(log.objective.size(), 2u);
      EXPECT_LT(*r.final_C_grad, p.C_grad);
    }
  }
}

// ------------------------------------------------------------------- PRIV.LINESEARCH.C_OBJ

// Every NOISYBTLS query (armijo_query on the line evaluator) moves by at most C_obj when a
// record whose loss exceeds C_obj by a large factor (or overflows) is added; every DP-AGD
// NoisyMin score and the clipped value sum move by a value in [0, C_obj] (monotone).
RC_GTEST_PROP(PRIV_LINESEARCH_C_OBJ, QueriesAndScoresMoveByAtMostCObj, ()) {
  const int d = *rc::gen::inRange(1, 8), n = *rc::gen::inRange(0, 15);
  const double C_obj = *positive_log_uniform<double>(1e-3, 10.0);
  const double mu = *rc::gen::arbitrary<bool>() ? 0.0 : *positive_log_uniform<double>(1e-6, 1.0);
  const auto P =
      with_bad_record(n, d, big_record(d, *positive_log_uniform<double>(1.0, 1e300)),
                      *rc::gen::arbitrary<bool>() ? 1 : -1, loss_of(*rc::gen::inRange(0, 3)), mu);
  const vector<double> w = random_vector(d, *positive_log_uniform<double>(1e-3, 1e2));
  const vector<double> g = random_vector(d, *positive_log_uniform<double>(1e-3, 1e2));
  const auto a = first(n), b = first(n + 1);
  const auto la = ls::make_line(P, std::span<const Eigen::Index>(a), w, g);
  const auto lb = ls::make_line(P, std::span<const Eigen::Index>(b), w, g);
  const double armijo = 0.5 * la.g_squared();
  const ls::armijo_query qa(la, armijo, C_obj), qb(lb, armijo, C_obj);
  const double tol = 1e-13 * (n + 2) * C_obj * (1 + armijo);
  for (double eta = 1; eta > 1e-3; eta *= 0.8) {
    const double diff = qb(eta) - qa(eta);
    RC_ASSERT(std::abs(diff) <= C_obj + tol);
  }
  std::vector<double> sa, sb;
  ls::noisy_min_scores(la, 2.0, 20, C_obj, sa);
  ls::noisy_min_scores(lb, 2.0, 20, C_obj, sb);
  for (std::size_t k = 0; k < sa.size(); ++k) {
    RC_ASSERT(sb[k] - sa[k] >= -tol);
    RC_ASSERT(sb[k] - sa[k] <= C_obj + tol);
  }
  const double va = P.clipped_value_sum(w, a, C_obj), vb = P.clipped_value_sum(w, b, C_obj);
  RC_ASSERT(vb - va >= -tol);
  RC_ASSERT(vb - va <= C_obj + tol);
}

// The same for the MLP's line evaluator (the §5.7 NOISYBTLS queries).
RC_GTEST_PROP(PRIV_LINESEARCH_C_OBJ, MlpQueriesMoveByAtMostCObj, ()) {
  const auto [n, C_obj, mu, P] = draw_mlp_case();
  const int p = static_cast<int>(P.dimension());
  const vector<double> w = random_vector(p, *positive_log_uniform<double>(1e-2, 1e2));
  const vector<double> g = random_vector(p, *positive_log_uniform<double>(1e-2, 1e2));
  const auto a = first(n), b = first(n + 1);
  const auto la = make_line(P, std::span<const Eigen::Index>(a), w, g);
  const auto lb = make_line(P, std::span<const Eigen::Index>(b), w, g);
  const double armijo = 0.001 * la.g_squared();
  const ls::armijo_query qa(la, armijo, C_obj), qb(lb, armijo, C_obj);
  const double tol = 1e-13 * (n + 2) * C_obj * (1 + armijo);
  for (double eta = 1; eta > 1e-3; eta *= 0.8)
    RC_ASSERT(std::abs(qb(eta) - qa(eta)) <= C_obj + tol);
  const double va = P.clipped_value_sum(w, a, C_obj), vb = P.clipped_value_sum(w, b, C_obj);
  RC_ASSERT(vb - va >= -tol);
  RC_ASSERT(vb - va <= C_obj + tol);
}

// Negative control: without the objective clip the query moves by the record's loss.
TEST(PRIV_LINESEARCH_C_OBJ, WithoutTheClipTheQueryMovesByTheLoss) {
  matrix<double> X(2, 2);
  X << 0.5, -999, 0.3, -5000;
  const vector<double> y = vector<double>::Ones(2);
  const linear_erm<double> P(X, y, margin_loss<double>::hinge(), 0.0);
  vector<double> w(2), g(2);
  w << 1, 0;
  g << 0, 1;
  const auto a = first(1), b = first(2);
  const auto la = ls::make_line(P, std::span<const Eigen::Index>(a), w, g);
  const auto lb = ls::make_line(P, std::span<const Eigen::Index>(b), w, g);
  const ls::armijo_query qa(la, 0.5, 1.0), qb(lb, 0.5, 1.0);
  const ls::armijo_query na(la, 0.5, kNoClip), nb(lb, 0.5, kNoClip);
  EXPECT_LE(std::abs(qb(1.0) - qa(1.0)), 1.0);
  EXPECT_GT(std::abs(nb(1.0) - na(1.0)), 999.0);  // f(w) = 1000, f(w − g) = 0
}

// ------------------------------------------------------------------------ PRIV.LINESEARCH.R

// rows_within: every row ends within R (relative 1e-15), rows within R are unchanged bit for bit.
RC_GTEST_PROP(PRIV_LINESEARCH_R, RowsEndWithinTheBall, ()) {
  const int d = *rc::gen::inRange(1, 8), n = *rc::gen::inRange(0, 10);
  const double R = *positive_log_uniform<double>(1e-2, 1e2);
  const auto P = with_bad_record(n, d, big_record(d, *positive_log_uniform<double>(1.0, 1e300)), 1,
                                 margin_loss<double>::logistic(), 1e-3);
  const auto Q = ls::detail::rows_within(P, R);
  for (Eigen::Index i = 0; i < P.size(); ++i) {
    RC_ASSERT(Q.features().col(i).norm() <= R * (1 + 1e-15));
    if (P.features().col(i).norm() <= R) RC_ASSERT(Q.features().col(i) == P.features().col(i));
  }
}

// The statistic OUTPERT releases: the minimiser of the R-scaled problem moves by at most
// 2R/(nμ) when one record (replace-one) is replaced by one of norm up to 1e300 (solver
// tolerance 1e-9).
RC_GTEST_PROP(PRIV_LINESEARCH_R, MinimiserMovesByAtMostTwoROverNMu, ()) {
  const int d = *rc::gen::inRange(1, 4), n = *rc::gen::inRange(2, 12);
  const double R = *positive_log_uniform<double>(0.2, 5.0);
  const double mu = *positive_log_uniform<double>(0.05, 1.0);
  const auto loss = *rc::gen::arbitrary<bool>() ? margin_loss<double>::logistic()
                                                : margin_loss<double>::huberized_hinge();
  matrix<double> X(d, n);
  vector<double> y(n);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < d; ++j) X(j, i) = *real_in<double>(-3, 3);
    y[i] = *rc::gen::arbitrary<bool>() ? 1.0 : -1.0;
  }
  matrix<double> X2 = X;
  vector<double> y2 = y;
  X2.col(0) = big_record(d, *positive_log_uniform<double>(1.0, 1e300));
  y2[0] = *rc::gen::arbitrary<bool>() ? 1.0 : -1.0;
  const auto solve = [&](const matrix<double>& A, const vector<double>& b) {
    const auto Q = ls::detail::rows_within(linear_erm<double>(A, b, loss, mu), R);
    const auto m = ls::minimize_smooth(Q, vector<double>(vector<double>::Zero(d)), 0.0);
    RC_ASSERT(m.converged);
    return m.w;
  };
  const double bound = ls::output_perturbation_sensitivity(R, n, mu);
  RC_ASSERT((solve(X2, y2) - solve(X, y)).norm() <= bound * (1 + 1e-9) + 1e-9);
}

// Negative control: without the row scaling the minimiser moves by about 6.6 times 2R/(nμ)
// (the pair of the OUTPERT audit).
TEST(PRIV_LINESEARCH_R, WithoutTheScalingTheMinimiserMovesMore) {
  const auto data = [](double x) {
    matrix<double> X = matrix<double>::Constant(1, 41, -1.0);
    X(0, 40) = x;
    return linear_erm<double>(X, vector<double>::Ones(41), margin_loss<double>::logistic(), 0.5);
  };
  const auto w = [](const linear_erm<double>& P) {
    return ls::minimize_smooth(P, vector<double>(vector<double>::Zero(1)), 0.0).w[0];
  };
  const double bound = ls::output_perturbation_sensitivity(1.0, 41, 0.5);
  EXPECT_LE(std::abs(w(ls::detail::rows_within(data(1000), 1.0)) -
                     w(ls::detail::rows_within(data(0), 1.0))),
            bound);
  EXPECT_GT(std::abs(w(data(1000)) - w(data(0))), 5 * bound);
}

// ----------------------------------------------------------------- PRIV.LINESEARCH.MINIMISER

// ‖∇F(w)‖ in 50 digits, independently: the problem rebuilt at mp50 from the same doubles.
double gradient_norm_mp50(const linear_erm<double>& P, const vector<double>& w) {
  const linear_erm<mp50> Q(P.features().cast<mp50>(), P.labels().cast<mp50>(),
                           margin_loss<mp50>::logistic(), mp50(P.mu()));
  return static_cast<double>(Q.gradient(w.cast<mp50>()).norm());
}

TEST(PRIV_LINESEARCH_MINIMISER, TheReleasedMinimiserIsCertifiedWithinTheBound) {
  // The minimiser OUTPERT releases has ‖∇F(ŵ)‖ <= γ = 2^-20 R/n, certified by an upper bound that
  // is above the 50-digit gradient norm and close to it; at w = 0 (not a minimiser) the bound is
  // far above γ: the check can fail (negative control).
  for (const long long n : {60LL, 400LL, 5000LL}) {
    const auto P = test::synthetic_erm<double>(n, 4, 23);
    const double R = 2.0;
    const auto Q = ls::detail::rows_within(P, R);
    const double gamma = ls::minimiser_gradient_bound(R, n);
    EXPECT_GT(gamma, 0.0);
    EXPECT_LE(gamma, std::ldexp(R, -20) / static_cast<double>(n));  // rounded down
    EXPECT_GE(gamma, std::ldexp(R, -20) / static_cast<double>(n) * (1 - 1e-15));
    const vector<double> w = ls::output_perturbation_minimiser(P, R);
    const double cert = ls::certified_gradient_norm(Q, w, gamma), exact = gradient_norm_mp50(Q, w);
    std::printf("[PRIV.LINESEARCH.MINIMISER] n=%lld gamma=%.3g certified=%.3g mp50=%.3g\n", n,
                gamma, cert, exact);
    EXPECT_LE(cert, gamma) << n;
    EXPECT_GE(cert, exact) << n;
    EXPECT_LE(cert, exact + 1e-13) << n;
    const vector<double> zero = vector<double>::Zero(4);
    const double at0 = ls::certified_gradient_norm(Q, zero, gamma);
    EXPECT_GE(at0, gradient_norm_mp50(Q, zero));
    EXPECT_GT(at0, 1e3 * gamma) << n;  // negative control
  }
  // the sensitivity carries the margin 2γ/μ: 2R(1 + 2^-20)/(nμ), rounded up
  const double s = ls::output_perturbation_sensitivity(2.0, 400, 0.01);
  const long double expect = 2 * 2.0L * (1 + 0x1p-20L) / (400 * 0.01L);
  EXPECT_GE(static_cast<long double>(s), expect);
  EXPECT_LE(static_cast<long double>(s), expect * (1 + 1e-15L));
}

// ----------------------------------------------------------------------- PRIV.LINESEARCH.LOSS

// The derived constants: |φ′| <= 1 (the Lipschitz constant 1 of OUTPERT / OBJPERT), φ >= 0 (the
// clipped objectives lie in [0, C_obj]), and φ″ <= c = margin_curvature_bound for the smooth
// losses (checked by central differences of φ′), at margins up to ±1e300.
RC_GTEST_PROP(PRIV_LINESEARCH_LOSS, LossClassConstantsHold, ()) {
  const auto loss = loss_of(*rc::gen::inRange(0, 3));
  const double z = (*rc::gen::arbitrary<bool>() ? 1 : -1) *
                   (*rc::gen::arbitrary<bool>() ? *real_in<double>(0, 4)
                                                : *positive_log_uniform<double>(1e-3, 1e300));
  RC_ASSERT(std::abs(loss.derivative(z)) <= 1.0);
  RC_ASSERT(loss.value(z) >= 0.0);
  if (loss.kind != problems::margin_loss_kind::hinge && std::abs(z) < 1e6) {
    const double c = problems::margin_curvature_bound(loss), h = 1e-6;
    const double fd = (loss.derivative(z + h) - loss.derivative(z - h)) / (2 * h);
    RC_ASSERT(fd <= c * (1 + 1e-6) + 1e-9);
    RC_ASSERT(problems::margin_second_derivative(loss, z) <= c);
  }
}

// Labels are refused unless ±1, naming the record and its value (the 'refuse' enforcement of
// |y| = 1 that OUTPERT's and OBJPERT's sensitivities assume); an MLP label likewise.
TEST(PRIV_LINESEARCH_LOSS, LabelsOtherThanPlusMinusOneAreRefused) {
  matrix<double> X = matrix<double>::Ones(2, 4);
  vector<double> y(4);
  y << 1, -1, 1, 2;
  EXPECT_EQ(message_of([&] { (void)linear_erm<double>(X, y, margin_loss<double>::logistic()); }),
            "dpref::problems::linear_erm: y[3] must be -1 or +1, got 2");
  EXPECT_EQ(message_of([&] {
              (void)mlp_classifier<double>(X, {0, 1, 7, 2}, 2, 3);
            }),
            "dpref::problems::mlp_classifier: labels[2] must be in {0, ..., classes-1}, got 7");
}

// ---------------------------------------------------------------------- PRIV.LINESEARCH.CLAMP

// Secure DP-SGD releases the examples' clipped gradients as a sum of l2 balls (SEC.GAUSS.SUM):
// two batches that differ by ONE example — any vector, clipped or not, beside any others —
// released with the same noise integers differ by at most the inflated sensitivity
// C_grad + √d 2^k of the ledger's snapped_gaussian event, with any clamp C of the sum (also one
// far below n·C_grad: a contraction). Parameters from dp_sgd_snapped, as the run uses them.
RC_GTEST_PROP(PRIV_LINESEARCH_CLAMP, ClampedLatticeQueryWithinTheLedgersSensitivity, ()) {
  const int d = *rc::gen::inRange(1, 17);
  ls::params<double> p;
  p.algorithm = ls::algorithm::dpsgd;
  p.release = noise_mode::secure;
  p.C_grad = *positive_log_uniform<double>(1e-2, 10.0);
  const long long n = *rc::gen::inRange(1, 1000);
  if (*rc::gen::arbitrary<bool>()) p.clamp = *positive_log_uniform<double>(1e-3, 1e3);
  const double sigma = p.C_grad * *positive_log_uniform<double>(0.5, 50.0);
  const auto sp = ls::dp_sgd_snapped(p, sigma, n, d);
  RC_ASSERT(sp.sensitivity == p.C_grad);
  RC_ASSERT(sp.shape == mechanisms::clamp_set::sum_of_l2_balls);
  RC_ASSERT(sp.record_radius == p.C_grad);
  RC_ASSERT(sp.clamp == (p.clamp ? *p.clamp : static_cast<double>(n) * p.C_grad));
  const auto ev = sp.event<double>();
  const auto& sg = std::get<acc::snapped_gaussian_mechanism<double>>(ev.what);
  RC_ASSERT(sg.sensitivity == p.C_grad);
  const double inflated = acc::snapped_inflated_sensitivity(p.C_grad, sp.grid_exponent, d, true);
  const int m = *rc::gen::inRange(0, 6);
  std::vector<vector<double>> examples;
  for (int r = 0; r <= m; ++r)  // the last one is the neighbour's extra example
    examples.push_back(random_vector(d, p.C_grad * *positive_log_uniform<double>(1e-3, 1e3)));
  const auto release = [&](std::size_t count) {
    philox_stream s(5);
    return mechanisms::snapped_gaussian_sum(
        s, count, [&](std::size_t r, vector<double>& x) { x = examples[r]; }, sp);
  };
  const vector<double> with = release(static_cast<std::size_t>(m) + 1);
  const vector<double> without = release(static_cast<std::size_t>(m));
  RC_ASSERT((with - without).norm() <= inflated);
}

// Negative control: the clamp does not enforce C_grad. Two sums whose difference is one
// unclipped gradient (1000 per coordinate), clamped to [−1, 1] (n·C_grad) in d = 16
// coordinates, move by √16 = 4 > C_grad + √d 2^k.
TEST(PRIV_LINESEARCH_CLAMP, TheClampAloneDoesNotBoundTheL2Norm) {
  ls::params<double> p;
  p.algorithm = ls::algorithm::dpsgd;
  p.release = noise_mode::secure;
  p.C_grad = 1;
  const auto sp = ls::dp_sgd_snapped(p, 5.0, 1, 16);
  const double inflated = acc::snapped_inflated_sensitivity(1.0, sp.grid_exponent, 16, true);
  double sq = 0;
  for (int j = 0; j < 16; ++j) {
    const double step =
        static_cast<double>(secure::lattice_round(1000.0, sp.grid_exponent, sp.clamp) -
                            secure::lattice_round(0.0, sp.grid_exponent, sp.clamp));
    sq += step * step;
  }
  EXPECT_GT(std::ldexp(std::sqrt(sq), sp.grid_exponent), 3 * inflated);
}

// ------------------------------------------------------------- PRIV.RELEASE, PRIV.BOUNDS

ls::params<double> bounds_small(ls::algorithm a) {
  ls::params<double> p;
  p.algorithm = a;
  p.epsilon = 1;
  p.max_order = 64;
  p.iterations = 10;
  return p;
}

const std::vector<ls::algorithm> kPrivateAlgorithms = {
    ls::algorithm::blsgd, ls::algorithm::blsgd_ac, ls::algorithm::blgd,   ls::algorithm::dpsgd,
    ls::algorithm::dpagd, ls::algorithm::outpert,  ls::algorithm::objpert};

// A private run computes no non-private diagnostics unless asked, its document has no
// "non_private" key and its trace only the released steps; asked, the diagnostics appear under
// "non_private" with a note, and the released values are the same bits (diagnostics read no
// random draw).
TEST(PRIV_RELEASE, LinesearchPrivateRunsCarryNoDiagnosticsByDefault) {
  const auto P = test::synthetic_erm<double>(600, 3, 3);
  for (const auto a : kPrivateAlgorithms) {
    ls::config<double> cfg;
    cfg.params = bounds_small(a);
    cfg.params.trace = true;
    const auto r = ls::run(P, cfg.params, philox_stream(5));
    EXPECT_FALSE(r.diagnostics.objective || r.diagnostics.accuracy) << io::enum_to_string(a);
    EXPECT_TRUE(r.diagnostics.objective_trace.empty());
    const io::json j = ls::result_json(cfg, r);
    EXPECT_FALSE(j.contains("non_private")) << io::enum_to_string(a);
    if (!j["trace"].is_null()) {
      EXPECT_EQ(j["trace"].size(), 1u) << io::enum_to_string(a);  // {"steps"} only
    }
    cfg.params.diagnostics = true;
    const auto rd = ls::run(P, cfg.params, philox_stream(5));
    EXPECT_EQ(rd.w, r.w) << io::enum_to_string(a);
    const io::json jd = ls::result_json(cfg, rd);
    ASSERT_TRUE(jd.contains("non_private"));
    EXPECT_TRUE(jd["non_private"].contains("note"));
    EXPECT_TRUE(jd["non_private"].contains("objective"));
    EXPECT_TRUE(jd["non_private"].contains("training_accuracy"));
    EXPECT_EQ(jd["iterates"], j["iterates"]);
  }
  // the non-private baselines keep their section without the request
  for (const auto a : {ls::algorithm::nonprivate, ls::algorithm::majority}) {
    ls::config<double> cfg;
    cfg.params = bounds_small(a);
    EXPECT_TRUE(
        ls::result_json(cfg, ls::run(P, cfg.params, philox_stream(5))).contains("non_private"));
  }
  // negative control: a private result with diagnostics it was not asked for is refused
  ls::config<double> cfg;
  cfg.params = bounds_small(ls::algorithm::blsgd);
  auto r = ls::run(P, cfg.params, philox_stream(5));
  r.diagnostics.objective = 0.5;
  result_parts parts;
  parts.paper = "linesearch";
  parts.algorithm = "blsgd";
  parts.non_private = ls::non_private_value(r);
  EXPECT_THROW((void)result_value(r, parts), std::logic_error);
}

// The §5.7 study: no checkpoints (and no non_private) without diagnostics; the fields that only
// shape the checkpoints are refused without it, naming the field.
TEST(PRIV_RELEASE, LinesearchMlpStudyCheckpointsOnlyWithDiagnostics) {
  const std::string base =
      R"("synthetic_n": 60, "synthetic_d": 3, "hidden": 3, "iterations": 4, "eval_every": 2,
         "q": 0.2, "max_order": 32, "epsilon": 4)";
  const io::json j = ls::mlp_json(io::document::parse("{" + base + "}", "m.json"));
  for (const auto& run : j["runs"]) EXPECT_FALSE(run.contains("non_private"));
  EXPECT_FALSE(j.contains("objective_on"));
  const io::json jd =
      ls::mlp_json(io::document::parse("{" + base + R"(, "diagnostics": true})", "m.json"));
  ASSERT_EQ(jd["runs"].size(), j["runs"].size());
  for (std::size_t k = 0; k < jd["runs"].size(); ++k) {
    const auto& run = jd["runs"][k];
    ASSERT_TRUE(run.contains("non_private"));
    EXPECT_EQ(run["non_private"]["checkpoints"].size(), 3u);  // t = 0, 2, 4
    EXPECT_EQ(run["steps"], j["runs"][k]["steps"]);  // the observer does not change the run
    EXPECT_EQ(run["calls"], j["runs"][k]["calls"]);
  }
  EXPECT_EQ(message_of([&] {
              (void)ls::mlp_json(
                  io::document::parse("{" + base + R"(, "objective_rows": 10})", "m.json"));
            }),
            "m.json: /objective_rows: linesearch::mlp.objective_rows must be absent unless "
            "diagnostics is set (it only shapes the non-private checkpoints), got 10");
  EXPECT_NE(message_of([&] {
              (void)ls::mlp_json(io::document::parse("{" + base + R"(, "max_test": 5})", "m"));
            }).find("linesearch::mlp.max_test must be absent unless diagnostics is set"),
            std::string::npos);
}

// Every private run lists the constants its ledger relies on with their enforcement (JSON
// privacy.enforced), with the values of the run; result_value refuses a private result without.
TEST(PRIV_BOUNDS, LinesearchPrivateRunsListTheirConstants) {
  const auto P = test::synthetic_erm<double>(600, 3, 3);
  const std::map<ls::algorithm, std::vector<std::string>> expected = {
      {ls::algorithm::blsgd, {"C_grad", "C_obj"}},
      {ls::algorithm::blsgd_ac, {"C_grad", "C_obj"}},
      {ls::algorithm::blgd, {"C_grad", "C_obj"}},
      {ls::algorithm::dpsgd, {"C_grad"}},
      {ls::algorithm::dpagd, {"C_grad", "C_obj"}},
      {ls::algorithm::outpert, {"R", "lipschitz", "labels"}},
      {ls::algorithm::objpert, {"R", "lipschitz", "curvature", "labels"}}};
  for (const auto& [a, names] : expected) {
    ls::config<double> cfg;
    cfg.params = bounds_small(a);
    cfg.params.C_grad = 2.5;
    cfg.params.C_obj = 0.75;
    const auto r = ls::run(P, cfg.params, philox_stream(5));
    std::vector<std::string> got;
    for (const auto& b : r.privacy.enforced) {
      got.push_back(b.constant);
      EXPECT_FALSE(b.how.empty());
      const double want = b.constant == "C_grad"  ? 2.5
                          : b.constant == "C_obj" ? 0.75
                          : b.constant == "R"     ? std::sqrt(3.0)  // absent: √d
                                                  : b.value;
      EXPECT_EQ(b.value, want) << b.constant;
    }
    EXPECT_EQ(got, names) << io::enum_to_string(a);
    const io::json j = ls::result_json(cfg, r);
    ASSERT_EQ(j["privacy"]["enforced"].size(), names.size());
    EXPECT_EQ(j["privacy"]["enforced"][0]["constant"], names[0]);
    EXPECT_TRUE(j["privacy"]["enforced"][0].contains("enforcement"));
    auto bare = r;  // negative control
    bare.privacy.enforced.clear();
    EXPECT_THROW((void)ls::result_json(cfg, bare), std::logic_error);
  }
  // secure releases add their clamp (default n·C_grad, R/μ)
  for (const auto a : {ls::algorithm::dpsgd, ls::algorithm::outpert}) {
    auto p = bounds_small(a);
    p.release = noise_mode::secure;
    const auto r = ls::run(P, p, philox_stream(5));
    ASSERT_FALSE(r.privacy.enforced.empty());
    EXPECT_EQ(r.privacy.enforced.back().constant, "clamp");
    EXPECT_EQ(r.privacy.enforced.back().value, a == ls::algorithm::dpsgd
                                                   ? 600 * p.C_grad
                                                   : std::nextafter(std::sqrt(3.0) / 1e-3, 1e308));
  }
}

}  // namespace
