// Property tests of the public constants ev Algorithm 2's ledger relies on (spec/privacy_bounds.md
// ev section, PRIV.BOUNDS): the released statistic's sensitivity over random neighbouring pairs
// never exceeds the ledger's, whatever the magnitude of the changing user's record.
//
// The released statistic of step k is p^(k) = ∇U(Σ_i r_i^(k)) (idealised; secure: the integer
// query round(clamp(p^(k), −C, C)/2^g_k)). Lemma 13 couples the two databases through ONE released
// history p̂^(1..k−1): ev::replay_gradients drives step 3 of each database with the same random
// history and returns its p^(k). The ledger's bound is read from the run's own ledger (event k:
// Δ^(k) = (k−1)LΔ, secure: Δ^(k) and its grid), never recomputed here.
//
// Pairs: T ∈ [2, 8], 2–5 spec columns (the changing user has multiplicity 1, the others 1–3),
// random m and units, zero or public start; user 0's record is scaled by F ∈ {1, 10, 10³, 10⁴}
// times (δr + δE) — a record far beyond the adjacency constants in magnitude, as a neighbouring
// change of at most (δr, δE). Tolerance: 1e-9 relative plus the rounding of loads of that
// magnitude (1e-12 · L · load). RapidCheck (100 cases per property, RC_PARAMS seed in ctest).
// Negative controls (plain tests): the same checks fail for a change beyond the adjacency, for
// a ledger of another m, and for a coordinate clamp taken as an ℓ2 bound.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <variant>
#include <vector>

#include "dpref/accounting/accounting.hpp"
#include "dpref/ev/json.hpp"
#include "dpref/ev/run.hpp"
#include "dpref/random/secure/lattice.hpp"
#include "support/generators.hpp"
#include "support/messages.hpp"

namespace {

using namespace dpref;
using dpref::test::message_of;
using dpref::test::real_in;

/// Two databases that differ in user 0's spec only, the parameters of the run and a released
/// history shared by both (the coupling of Lemma 13).
struct neighbours {
  ev::problem<double> d, d_prime;
  ev::params<double> params;
  matrix<double> history;
  double load_scale = 0;  ///< magnitude of the loads (for the rounding tolerance)
};

/// Record scale F of user 0 (in units of δr + δE).
double gen_record_factor() { return *rc::gen::element<double>(1.0, 10.0, 1e3, 1e4); }

/// 1ᵀa summed in column order, as ev::problem's feasibility check does, times (1 − 2^−40): an
/// energy below it is feasible whatever the summation order (Eigen's sum() may differ by ulps).
double capacity(const vector<double>& a) {
  double c = 0;
  for (Eigen::Index i = 0; i < a.size(); ++i) c += a[i];
  return c * (1 - 0x1p-40);
}

/// Which constant a property changes at its full budget.
enum class changes { rate, energy, both };

/// Random neighbours whose user 0 changes by at most (δr, δE); `dr`, `de` the declared adjacency.
neighbours gen_neighbours(changes what, double dr, double de, double record_factor) {
  const auto t = *rc::gen::inRange<Eigen::Index>(2, 9);
  const auto cols = *rc::gen::inRange<Eigen::Index>(2, 6);
  ev::charging_specs<double> s;
  s.max_rate.resize(t, cols);
  s.energy.resize(cols);
  s.multiplicity.assign(static_cast<std::size_t>(cols), 1);
  const double big = record_factor * (dr + de);
  for (Eigen::Index j = 0; j < cols; ++j) {
    const double scale = j == 0 ? big : 3.3 * *real_in<double>(0.5, 2.0);
    for (Eigen::Index i = 0; i < t; ++i)
      s.max_rate(i, j) = *rc::gen::inRange(0, 5) == 0 ? 0.0 : scale * *real_in<double>(0, 1);
    s.energy[j] = capacity(s.max_rate.col(j)) * *real_in<double>(0, 1);
    if (j > 0) s.multiplicity[static_cast<std::size_t>(j)] = *rc::gen::inRange(1, 4);
  }
  ev::charging_specs<double> s2 = s;
  if (what != changes::energy) {  // ‖a − a′‖₁ <= δr (clipping at 0 only shortens the change)
    vector<double> dir(t);
    for (Eigen::Index i = 0; i < t; ++i) dir[i] = *real_in<double>(-1, 1);
    const double share = *rc::gen::element<double>(1.0, 1.0, 0.5, 0.1);
    if (dir.lpNorm<1>() > 0) dir *= share * dr / dir.lpNorm<1>();
    s2.max_rate.col(0) = (s.max_rate.col(0) + dir).cwiseMax(0.0);
  }
  const double cap2 = capacity(s2.max_rate.col(0));
  if (what != changes::rate) {  // |E − E′| <= δE, E′ feasible
    const double step = de * *rc::gen::element<double>(1.0, -1.0, 0.5, -0.3);
    s2.energy[0] = std::clamp(s.energy[0] + step, 0.0, cap2);
  } else {
    s2.energy[0] = std::min(s.energy[0], cap2);
  }
  RC_PRE(std::abs(s2.energy[0] - s.energy[0]) <= de);
  RC_PRE((s2.max_rate.col(0) - s.max_rate.col(0)).lpNorm<1>() <= dr);
  const double m = std::exp(*real_in<double>(0, std::log(1e3)));
  const double lambda = *rc::gen::arbitrary<bool>() ? 1.0 : m;  // paper or household units
  vector<double> base(t);
  for (Eigen::Index i = 0; i < t; ++i) base[i] = *real_in<double>(0, 2);
  ev::params<double> p;
  p.iterations = *rc::gen::inRange<long long>(2, 7);
  p.epsilon = 1;
  p.step = *real_in<double>(0.1, 2);
  p.delta_r = dr;
  p.delta_e = de;
  p.sensitivity_bound =
      *rc::gen::arbitrary<bool>() ? ev::sensitivity_bound::tight : ev::sensitivity_bound::paper;
  if (*rc::gen::arbitrary<bool>()) {
    p.start = ev::start_kind::public_vector;
    for (Eigen::Index i = 0; i < t; ++i) p.start_vector.push_back(*real_in<double>(-big, big));
  }
  // a released history on the scale of the records, so that step 3 moves the schedules
  matrix<double> h(t, p.iterations);
  for (Eigen::Index k = 0; k < h.cols(); ++k)
    for (Eigen::Index i = 0; i < t; ++i) h(i, k) = *real_in<double>(-1, 1) * big;
  double load = 0;
  for (Eigen::Index j = 0; j < cols; ++j)
    load += static_cast<double>(s.multiplicity[static_cast<std::size_t>(j)]) *
            (std::max(s.energy[j], s2.energy[j]) + big);
  return {ev::problem<double>(base, m, s, lambda), ev::problem<double>(base, m, s2, lambda), p, h,
          load};
}

/// Δ^(k) of the run's ledger (idealised: vector_laplace events k = 2..K).
std::vector<double> ledger_sensitivities(const ev::result<double>& res) {
  std::vector<double> out;
  for (const auto& e : res.privacy.ledger.events())
    if (const auto* v = std::get_if<accounting::vector_laplace_mechanism<double>>(&e.what))
      out.push_back(v->sensitivity);
    else if (const auto* l =
                 std::get_if<accounting::snapped_vector_laplace_mechanism<double>>(&e.what))
      out.push_back(l->sensitivity);
  return out;
}

/// max_k ‖p^(k)(D) − p^(k)(D′)‖ / (Δ^(k) + rounding tolerance) over k = 2..K under the shared
/// history, with `ledger` Δ^(2..K); p^(1) must be equal (public start). > 1 means the released
/// statistic moved more than the ledger says.
double worst_ratio(const neighbours& n, const std::vector<double>& ledger) {
  const matrix<double> g = ev::replay_gradients(n.d, n.params, n.history);
  const matrix<double> g2 = ev::replay_gradients(n.d_prime, n.params, n.history);
  if (g.col(0) != g2.col(0)) return HUGE_VAL;  // p^(1) leaks: the ledger's ε_1 = 0 is false
  const double lip = n.d.lipschitz();
  double worst = 0;
  for (Eigen::Index k = 1; k < g.cols(); ++k) {
    const double bound = ledger.at(static_cast<std::size_t>(k - 1));
    const double tol = 1e-9 * bound + 1e-12 * lip * n.load_scale;
    worst = std::max(worst, (g.col(k) - g2.col(k)).norm() / (bound + tol));
  }
  return worst;
}

/// The run's ledger (the shipped path) and the worst ratio of a pair.
double ratio_of_run(const neighbours& n) {
  const auto res = ev::run(n.d, n.params, philox_stream(1));
  const auto led = ledger_sensitivities(res);
  return worst_ratio(n, led);
}

/// The EV-E1 attaining pair scaled (T = 2, m = 1, zero start and d = 0, so p^(1) = 0 and step 3
/// projects x0 = 0): user 0 has a = (H, 5 + fr·δr), E = H/10 + 20 in D and a′ = (H, 5),
/// E′ = E + fe·δE in D′; user 1 = (3.3, 3.3), 5 in both. fr = fe = 1 is adjacent and attains
/// Δ* = √(δr² + (δr + δE)²) at k = 2 (needs E >= 10 + 2 fr δr); fr or fe = 10 is beyond it.
neighbours attaining_pair(double dr, double de, double fr, double fe, double h) {
  ev::charging_specs<double> s;
  s.max_rate.resize(2, 2);
  s.energy.resize(2);
  s.max_rate.col(0) << h, 5 + fr * dr;
  s.energy[0] = h / 10 + 20;
  s.max_rate.col(1) << 3.3, 3.3;
  s.energy[1] = 5;
  auto s2 = s;
  s2.max_rate(1, 0) = 5;
  s2.energy[0] = s.energy[0] + fe * de;
  ev::params<double> p;
  p.iterations = 2;
  p.epsilon = 1;
  p.step = 1;
  p.delta_r = dr;
  p.delta_e = de;
  const vector<double> zero = vector<double>::Zero(2);
  return {ev::problem<double>(zero, 1.0, s), ev::problem<double>(zero, 1.0, s2), p,
          matrix<double>::Zero(2, 2), 2 * h};
}

// ------------------------------------------------------------------------ PRIV.EV.DELTA_R ----

// A change of user 0's rates r̄ by ‖r̄ − r̄′‖₁ <= δr (E unchanged) moves no p^(k) by more than
// the ledger's Δ^(k), for records up to 10⁴ (δr + δE) in magnitude.
RC_GTEST_PROP(PRIV_EV_DELTA_R, RateChangeWithinDeltaRNeverExceedsTheLedger, ()) {
  const double dr = *real_in<double>(0.1, 20);
  const double de = *rc::gen::element<double>(0.0, 1.0, 12.0);
  const auto n = gen_neighbours(changes::rate, dr, de, gen_record_factor());
  RC_ASSERT(ratio_of_run(n) <= 1.0);
}

// Both constants at once (the adjacency of ev §V).
RC_GTEST_PROP(PRIV_EV_DELTA_R, RateAndEnergyChangeWithinTheAdjacencyNeverExceedsTheLedger, ()) {
  const double dr = *real_in<double>(0.1, 20), de = *real_in<double>(0.1, 20);
  const auto n = gen_neighbours(changes::both, dr, de, gen_record_factor());
  RC_ASSERT(ratio_of_run(n) <= 1.0);
}

// The worst case is reached (ratio → 1 at k = 2) by the scaled EV-E1 pair with a record of
// 10⁴·(δr + δE): the check has power; a rate change of 10 δr fails it (negative control).
TEST(PRIV_EV_DELTA_R, WorstCaseIsAttainedAndAChangeBeyondDeltaRExceedsTheLedger) {
  const double h = 1e4 * (13.2 + 12);
  const double adjacent = ratio_of_run(attaining_pair(13.2, 12, 1, 1, h));
  EXPECT_LE(adjacent, 1.0);
  EXPECT_GE(adjacent, 1 - 1e-6);
  const double r = ratio_of_run(attaining_pair(13.2, 12, 10, 1, h));
  std::printf("PRIV_EV_DELTA_R: worst case %.9f, 10 δr beyond the adjacency %.3f\n", adjacent, r);
  EXPECT_GT(r, 2.0);
}

// ------------------------------------------------------------------------ PRIV.EV.DELTA_E ----

// A change of user 0's energy by |E − E′| <= δE (r̄ unchanged) moves no p^(k) by more than Δ^(k).
RC_GTEST_PROP(PRIV_EV_DELTA_E, EnergyChangeWithinDeltaENeverExceedsTheLedger, ()) {
  const double de = *real_in<double>(0.1, 20);
  const double dr = *rc::gen::element<double>(0.0, 1.0, 13.2);
  const auto n = gen_neighbours(changes::energy, dr, de, gen_record_factor());
  RC_ASSERT(ratio_of_run(n) <= 1.0);
}

// Negative control: E changed by 10 δE (r̄ fixed) exceeds the ledger of (δr, δE).
TEST(PRIV_EV_DELTA_E, AChangeBeyondDeltaEExceedsTheLedger) {
  const double r = ratio_of_run(attaining_pair(13.2, 12, 0, 10, 1e4 * 25.2));
  std::printf("PRIV_EV_DELTA_E: 10 δE beyond the adjacency %.3f\n", r);
  EXPECT_GT(r, 2.0);
}

// ----------------------------------------------------------------------- PRIV.EV.HOUSEHOLDS ----

// L = λ/m² (derived from the public m and units): for ANY loads x, x′ (magnitudes up to 1e9,
// i.e. any data) ‖∇U(x) − ∇U(x′)‖ <= L_ledger ‖x − x′‖, with L_ledger = Δ^(2)/Δ read from the
// run's ledger (k = 2: Δ^(2) = 1·LΔ).
RC_GTEST_PROP(PRIV_EV_HOUSEHOLDS, GradientMovesAtMostTheLedgersLForAnyLoads, ()) {
  const auto t = *rc::gen::inRange<Eigen::Index>(1, 9);
  const double m = std::exp(*real_in<double>(0, std::log(1e6)));
  const double lambda = *rc::gen::arbitrary<bool>() ? 1.0 : m;
  ev::charging_specs<double> s;
  s.max_rate = matrix<double>::Constant(t, 1, 3.3);
  s.energy = vector<double>::Constant(1, 1.0);
  vector<double> base(t);
  for (Eigen::Index i = 0; i < t; ++i) base[i] = *real_in<double>(0, 100);
  const ev::problem<double> prob(base, m, s, lambda);
  ev::params<double> p;
  p.iterations = 2;
  p.delta_r = 1;
  p.delta_e = 1;
  const auto res = ev::run(prob, p, philox_stream(2));
  const double delta =
      ev::sensitivity_upper(1.0, 1.0, static_cast<std::size_t>(t), p.sensitivity_bound);
  const double l_ledger = ledger_sensitivities(res).at(0) / delta;
  const double mag = std::exp(*real_in<double>(0, std::log(1e9)));
  vector<double> x(t), x2(t), g(t), g2(t);
  for (Eigen::Index i = 0; i < t; ++i) {
    x[i] = *real_in<double>(-1, 1) * mag;
    x2[i] = x[i] + *real_in<double>(-1, 1) * mag * *rc::gen::element<double>(1.0, 1e-6);
  }
  prob.gradient(x, g);
  prob.gradient(x2, g2);
  const double tol = 1e-12 * l_ledger * (mag + m * base.lpNorm<Eigen::Infinity>());
  RC_ASSERT((g - g2).norm() <= l_ledger * (x - x2).norm() * (1 + 1e-12) + tol);
  // the run lists m as a derived constant
  RC_ASSERT(res.privacy.enforced.at(0).constant == "households");
  RC_ASSERT(res.privacy.enforced.at(0).value == m);
  RC_ASSERT(res.privacy.enforced.at(0).kind == enforcement::derived);
}

// Negative control: the ledger of a problem declared with 2m households (L/4) does not bound the
// gradient of the problem with m households.
TEST(PRIV_EV_HOUSEHOLDS, ALedgerForMoreHouseholdsIsExceeded) {
  auto n = attaining_pair(13.2, 12, 1, 1, 1e3);
  const auto understated = [](const ev::problem<double>& q) {
    return ev::problem<double>(q.base_load(), 2.0, q.specs(), 1.0);
  };
  const auto res = ev::run(understated(n.d), n.params, philox_stream(1));  // L = 1/4
  const double r = worst_ratio(n, ledger_sensitivities(res));
  std::printf("PRIV_EV_HOUSEHOLDS: gradient of m = 1 against the ledger of m = 2: %.3f\n", r);
  EXPECT_GT(r, 3.9);
}

// --------------------------------------------------------------------- PRIV.EV.RELEASE_CLAMP ----

// Secure mode: the integer query n_k = round(clamp(p^(k), −C, C)/2^g_k) of random neighbours
// moves by at most Δ^(k)/2^g_k + √T (the inflated sensitivity the ledger's
// snapped_vector_laplace event charges), its coordinates stay within C, and the ledger's Δ^(k)
// do not depend on C (the clamp is an ℓ∞ range, never the ℓ2 bound).
RC_GTEST_PROP(PRIV_EV_RELEASE_CLAMP, ClampedLatticeQueryNeverExceedsTheLedger, ()) {
  const double dr = *real_in<double>(0.1, 20), de = *real_in<double>(0.1, 20);
  auto n = gen_neighbours(changes::both, dr, de, gen_record_factor());
  n.params.release = noise_mode::secure;
  // a clamp below or above the gradients' magnitude (both are public choices)
  n.params.release_clamp = *rc::gen::element<double>(1e-3, 1.0, 1e6);
  const auto res = ev::run(n.d, n.params, philox_stream(3));
  auto wide = n.params;
  wide.release_clamp *= 8;
  const auto res_wide = ev::run(n.d, wide, philox_stream(3));
  RC_ASSERT(ledger_sensitivities(res) == ledger_sensitivities(res_wide));
  const matrix<double> g = ev::replay_gradients(n.d, n.params, n.history);
  const matrix<double> g2 = ev::replay_gradients(n.d_prime, n.params, n.history);
  RC_ASSERT(g.col(0) == g2.col(0));
  const auto& events = res.privacy.ledger.events();
  const double c = n.params.release_clamp;
  const auto t = static_cast<double>(g.rows());
  for (Eigen::Index k = 1; k < g.cols(); ++k) {
    const auto& e = std::get<accounting::snapped_vector_laplace_mechanism<double>>(
        events[static_cast<std::size_t>(k)].what);
    const int gk = e.grid_exponent;
    double sq = 0;
    for (Eigen::Index i = 0; i < g.rows(); ++i) {
      const auto a = secure::lattice_round(g(i, k), gk, c);
      const auto b = secure::lattice_round(g2(i, k), gk, c);
      RC_ASSERT(std::abs(std::ldexp(static_cast<double>(a), gk)) <= c + std::ldexp(1.0, gk));
      const double d = static_cast<double>(a - b);
      sq += d * d;
    }
    const double tol = 1e-9 * e.sensitivity + 1e-12 * n.d.lipschitz() * n.load_scale;
    RC_ASSERT(std::sqrt(sq) <= (e.sensitivity + tol) / std::ldexp(1.0, gk) + std::sqrt(t));
  }
  RC_ASSERT(res.privacy.enforced.back().constant == "release_clamp");
  RC_ASSERT(res.privacy.enforced.back().kind == enforcement::clip);
}

// Negative control: the clamp alone is no ℓ2 bound — two gradients inside [−C, C]^T at opposite
// corners are 2C√T apart, far above Δ^(k) of the ledger (so C could never replace Lemma 13), and
// a neighbour beyond the adjacency exceeds the charged sensitivity even after the clamp.
TEST(PRIV_EV_RELEASE_CLAMP, ACoordinateClampIsNoL2Bound) {
  auto n = attaining_pair(13.2, 12, 1, 1, 1e4);
  n.params.release = noise_mode::secure;
  n.params.release_clamp = 1e5;
  const auto res = ev::run(n.d, n.params, philox_stream(1));
  const auto& e = std::get<accounting::snapped_vector_laplace_mechanism<double>>(
      res.privacy.ledger.events().at(1).what);
  const double corners = 2 * n.params.release_clamp * std::sqrt(2.0);
  EXPECT_GT(corners, 50 * e.sensitivity);
  auto beyond = attaining_pair(13.2, 12, 10, 10, 1e4);
  beyond.params = n.params;
  const matrix<double> g = ev::replay_gradients(beyond.d, beyond.params, beyond.history);
  const matrix<double> g2 = ev::replay_gradients(beyond.d_prime, beyond.params, beyond.history);
  double sq = 0;
  for (Eigen::Index i = 0; i < 2; ++i) {
    const double d = static_cast<double>(secure::lattice_round(g(i, 1), e.grid_exponent, 1e5) -
                                         secure::lattice_round(g2(i, 1), e.grid_exponent, 1e5));
    sq += d * d;
  }
  const double charged = e.sensitivity / std::ldexp(1.0, e.grid_exponent) + std::sqrt(2.0);
  std::printf("PRIV_EV_RELEASE_CLAMP: beyond the adjacency %.3f x the charged sensitivity\n",
              std::sqrt(sq) / charged);
  EXPECT_GT(std::sqrt(sq), 5 * charged);
}

// ------------------------------------------------------------ PRIV.BOUNDS, PRIV.RELEASE (ev) ----

io::json ev_document(std::uint64_t data_seed, const std::string& extra_params) {
  const std::string text =
      R"({"problem": {"mode": "grouped", "groups": 6, "users": 600, "units": "household",
          "data_seed": )" +
      std::to_string(data_seed) + R"(}, "params": {"iterations": 5, "epsilon": 0.3)" +
      extra_params + R"(}, "seed": 7})";
  return ev::run_json<double>(io::document::parse(text, "priv.json"));
}

// A private ev document lists every public constant of its ledger with its enforcement (m, δr,
// δE derived; secure mode adds the clamp C as an ℓ∞ clip), with the run's values. Negative
// control: the envelope refuses to write a private result whose list is empty.
TEST(PRIV_BOUNDS, EvPrivateRunListsEveryConstantOfItsLedger) {
  const io::json a = ev_document(11, "");
  const io::json& enf = a["privacy"]["enforced"];
  ASSERT_EQ(enf.size(), 3u);
  EXPECT_EQ(enf[0]["constant"], "households");
  EXPECT_EQ(enf[0]["value"], a["config"]["problem"]["households"]);
  EXPECT_EQ(enf[1]["constant"], "delta_r");
  EXPECT_EQ(enf[1]["value"], a["config"]["params"]["delta_r"]);
  EXPECT_EQ(enf[2]["constant"], "delta_e");
  EXPECT_EQ(enf[2]["value"], a["config"]["params"]["delta_e"]);
  for (const auto& e : enf) EXPECT_EQ(e["enforcement"], "derived");
  const io::json sec = ev_document(11, R"(, "release": "secure", "release_clamp": 250)");
  ASSERT_EQ(sec["privacy"]["enforced"].size(), 4u);
  EXPECT_EQ(sec["privacy"]["enforced"][3]["constant"], "release_clamp");
  EXPECT_EQ(sec["privacy"]["enforced"][3]["value"], 250.0);
  EXPECT_EQ(sec["privacy"]["enforced"][3]["enforcement"], "clip");
  EXPECT_NE(sec["privacy"]["enforced"][3]["how"].get<std::string>().find("ℓ∞"), std::string::npos);
  // negative control: without the list the envelope refuses the private result
  ev::result<double> r;
  r.privacy.is_private = true;
  result_parts parts;
  parts.paper = "ev";
  parts.algorithm = "private_projected_gradient";
  EXPECT_THROW((void)result_value(r, parts), std::logic_error);
}

// A private ev document carries no data-dependent value besides the released p̂^(k): two
// databases (different private specs, same public configuration otherwise) give documents that
// differ only in "iterates" (and the echoed data_seed); no "non_private" key. With the
// diagnostics requested they differ in "non_private" too (negative control: the comparison sees
// data-dependent values), and trace / optimum without the request are refused.
TEST(PRIV_RELEASE, EvPrivateDocumentCarriesOnlyTheReleases) {
  for (const std::string mode : {"", R"(, "release": "secure")"}) {
    io::json a = ev_document(11, mode), b = ev_document(12, mode);
    EXPECT_FALSE(a.contains("non_private"));
    EXPECT_NE(a["iterates"], b["iterates"]);
    for (io::json* d : {&a, &b}) {
      d->erase("iterates");
      (*d)["config"]["problem"].erase("data_seed");
    }
    EXPECT_EQ(a.dump(), b.dump()) << mode;
  }
  const std::string diag = R"(, "diagnostics": true, "trace": true, "optimum": true)";
  const io::json a = ev_document(11, diag), b = ev_document(12, diag);
  ASSERT_TRUE(a.contains("non_private"));
  EXPECT_EQ(a["non_private"]["note"], ev::non_private_note);
  EXPECT_NE(a["non_private"]["averaged_load"], b["non_private"]["averaged_load"]);
  EXPECT_NE(a["non_private"]["optimum"], b["non_private"]["optimum"]);
  EXPECT_NE(message_of([] { ev_document(11, R"(, "optimum": true)"); })
                .find("/params/optimum: ev::params.optimum must be false for "
                      "private_projected_gradient unless diagnostics = true"),
            std::string::npos);
  // negative control: the envelope refuses diagnostics a private run computed without the request
  ev::result<double> r;
  r.privacy.is_private = true;
  r.privacy.enforced.push_back({"delta_r", 1.0, enforcement::derived, "x"});
  result_parts parts;
  parts.paper = "ev";
  parts.algorithm = "private_projected_gradient";
  parts.non_private = {{"note", ev::non_private_note}, {"averaged_objective", 1.0}};
  EXPECT_THROW((void)result_value(r, parts), std::logic_error);
}

}  // namespace
