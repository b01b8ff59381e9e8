// Property tests of the EV projection, its sensitivity and Theorem 6's ε schedule
// (spec/ev.md EV.PROP.PROJECTION, EV.PROP.SENSITIVITY, EV.PROP.SCHEDULE; errata "Machine-checkable
// properties" 1–7 and 10). Instances: T in [1, 50], a_i ~ U[0, 10] with 20% set to 0,
// b ~ U[0, 1'a], x0 ~ U[−30, 30] (RapidCheck: 100 cases per property, fixed seed in ctest).
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "dpref/accounting/accounting.hpp"
#include "dpref/ev/run.hpp"
#include "dpref/ev/sensitivity.hpp"
#include "dpref/geometry/capped_simplex.hpp"
#include "support/ev_problems.hpp"
#include "support/generators.hpp"

namespace {

using namespace dpref;
using dpref::test::epsilon;
using dpref::test::real_in;

struct instance {
  vector<double> x0, a;
  double b = 0;
};

vector<double> gen_caps(Eigen::Index t) {
  vector<double> a(t);
  for (Eigen::Index i = 0; i < t; ++i)
    a[i] = *rc::gen::inRange(0, 5) == 0 ? 0.0 : *real_in<double>(0, 10);
  return a;
}

vector<double> gen_point(Eigen::Index t, double lo, double hi) {
  vector<double> x(t);
  for (Eigen::Index i = 0; i < t; ++i) x[i] = *real_in<double>(lo, hi);
  return x;
}

instance gen_instance(Eigen::Index t) {
  instance in;
  in.a = gen_caps(t);
  in.b = *real_in<double>(0, 1) * in.a.sum();
  in.x0 = gen_point(t, -30, 30);
  return in;
}

Eigen::Index gen_horizon() { return *rc::gen::inRange<Eigen::Index>(1, 51); }

vector<double> project(const vector<double>& x0, const vector<double>& a, double b) {
  return geometry::project_capped_simplex(x0, a, b).x;
}

// errata property 1: 0 <= x <= a, |1'x − b| <= 1e-9·max(1, b).
RC_GTEST_PROP(EV_PROP_PROJECTION, Feasible, ()) {
  const auto in = gen_instance(gen_horizon());
  const vector<double> x = project(in.x0, in.a, in.b);
  for (Eigen::Index i = 0; i < x.size(); ++i) {
    RC_ASSERT(x[i] >= 0.0);
    RC_ASSERT(x[i] <= in.a[i]);
  }
  RC_ASSERT(std::abs(x.sum() - in.b) <= 1e-9 * std::max(1.0, in.b));
}

// errata property 2: x = clip(x0 − ν, 0, a) for the returned ν (KKT), and the spread of
// x0_i − x_i over the free coordinates is <= 1e-9.
RC_GTEST_PROP(EV_PROP_PROJECTION, KktCertificate, ()) {
  const auto in = gen_instance(gen_horizon());
  const auto pr = geometry::project_capped_simplex(in.x0, in.a, in.b);
  const double tol = 1e-9 * (1 + in.x0.lpNorm<Eigen::Infinity>() + in.a.lpNorm<Eigen::Infinity>());
  double lo = INFINITY, hi = -INFINITY;
  for (Eigen::Index i = 0; i < in.x0.size(); ++i) {
    const double xi = pr.x[i], v = in.x0[i] - pr.nu;
    RC_ASSERT(std::abs(xi - std::clamp(v, 0.0, in.a[i])) <= tol);
    if (xi > tol && xi < in.a[i] - tol) {
      lo = std::min(lo, in.x0[i] - xi);
      hi = std::max(hi, in.x0[i] - xi);
    }
  }
  if (hi >= lo) RC_ASSERT(hi - lo <= tol);
}

// Idempotence: Π(Π(x0)) = Π(x0).
RC_GTEST_PROP(EV_PROP_PROJECTION, Idempotent, ()) {
  const auto in = gen_instance(gen_horizon());
  const vector<double> x = project(in.x0, in.a, in.b);
  const vector<double> y = project(x, in.a, in.b);
  RC_ASSERT((x - y).lpNorm<Eigen::Infinity>() <= 1e-9 * (1 + in.a.lpNorm<Eigen::Infinity>()));
}

// errata property 4: ‖Π(x0) − Π(y0)‖ <= ‖x0 − y0‖ (+ rounding).
RC_GTEST_PROP(EV_PROP_PROJECTION, NonExpansive, ()) {
  const auto in = gen_instance(gen_horizon());
  const double spread = *rc::gen::element(1e-3, 1.0, 30.0);
  const vector<double> y0 = in.x0 + gen_point(in.x0.size(), -spread, spread);
  const double lhs = (project(in.x0, in.a, in.b) - project(y0, in.a, in.b)).norm();
  RC_ASSERT(lhs <= (in.x0 - y0).norm() + 1e-12 * (1 + 30 * static_cast<double>(in.x0.size())));
}

// errata property 5: b <= b′ ⇒ x(a, b′) >= x(a, b) componentwise, ‖x(a, b′) − x(a, b)‖₁ = b′ − b.
RC_GTEST_PROP(EV_PROP_PROJECTION, MonotoneInEnergy, ()) {
  const auto in = gen_instance(gen_horizon());
  const double b2 = in.b + *real_in<double>(0, 1) * (in.a.sum() - in.b);
  const vector<double> x = project(in.x0, in.a, in.b), x2 = project(in.x0, in.a, b2);
  const double tol = 1e-12 * (1 + in.a.sum());
  for (Eigen::Index i = 0; i < x.size(); ++i) RC_ASSERT(x2[i] >= x[i] - tol);
  RC_ASSERT(std::abs((x2 - x).lpNorm<1>() - (b2 - in.b)) <= 1e-9 * std::max(1.0, b2));
}

/// A random adjacent pair: a′ = max(a + δ, 0) with ‖δ‖₁ <= 5, b′ ∈ [0, 1'a′], |b − b′| <= 6.
struct adjacent {
  instance first;
  vector<double> a2;
  double b2 = 0;
};

adjacent gen_adjacent(Eigen::Index t) {
  adjacent p;
  p.first = gen_instance(t);
  vector<double> dir = gen_point(t, -1, 1);
  const double l1 = dir.lpNorm<1>();
  if (l1 > 0) dir *= *real_in<double>(0, 5) / l1;
  p.a2 = (p.first.a + dir).cwiseMax(0.0);
  const double cap = p.a2.sum();
  const double lo = std::max(0.0, p.first.b - 6), hi = std::min(cap, p.first.b + 6);
  p.b2 = hi >= lo ? lo + *real_in<double>(0, 1) * (hi - lo) : cap;
  return p;
}

// errata property 6: ‖x(a′, b′) − x(a, b)‖₁ <= 2‖a − a′‖₁ + |b − b′|.
RC_GTEST_PROP(EV_PROP_PROJECTION, L1LipschitzInData, ()) {
  const auto p = gen_adjacent(gen_horizon());
  const auto& in = p.first;
  const vector<double> d = project(in.x0, in.a, in.b) - project(in.x0, p.a2, p.b2);
  const double bound = 2 * (in.a - p.a2).lpNorm<1>() + std::abs(in.b - p.b2);
  RC_ASSERT(d.lpNorm<1>() <= bound + 1e-9 * (1 + in.a.sum()));
}

// errata property 7 (EV.SENS.TIGHT and EV.THM8): with δr = ‖a − a′‖₁, δE = |b − b′| the
// distance never exceeds the tight value, which never exceeds the paper's bound.
RC_GTEST_PROP(EV_PROP_SENSITIVITY, BothBoundsHoldForRandomAdjacentPairs, ()) {
  const Eigen::Index t = gen_horizon();
  const auto p = gen_adjacent(t);
  const auto& in = p.first;
  const double dr = (in.a - p.a2).lpNorm<1>(), de = std::abs(in.b - p.b2);
  const auto horizon = static_cast<std::size_t>(t);
  const double tight = ev::projection_sensitivity(dr, de, horizon, ev::sensitivity_bound::tight);
  const double paper = ev::projection_sensitivity(dr, de, horizon, ev::sensitivity_bound::paper);
  const double dist = ev::projection_distance<double>(in.x0, in.a, in.b, p.a2, p.b2);
  const double tol = 1e-9 * (1 + in.a.sum());
  RC_ASSERT(dist <= tight + tol);
  RC_ASSERT(tight <= paper * (1 + 1e-15));
  if (t == 1) RC_ASSERT(std::abs(dist - de) <= tol);  // x = b: only the energy moves x
}

// errata property 10 / Theorem 6: ε_1 = 0, ε_k = 2(k−1)ε/(K(K−1)) >= 0 and Σε_k = ε.
RC_GTEST_PROP(EV_PROP_SCHEDULE, EpsilonScheduleSumsToEpsilon, ()) {
  const long long K = *rc::gen::inRange<long long>(2, 2001);
  const double eps = *epsilon<double>();
  const auto sched = ev::epsilon_schedule(K, eps);
  RC_ASSERT(sched.size() == static_cast<std::size_t>(K));
  RC_ASSERT(sched[0] == 0.0);
  double sum = 0;
  for (long long k = 1; k <= K; ++k) {
    const double ek = sched[static_cast<std::size_t>(k - 1)];
    const double want = 2.0 * static_cast<double>(k - 1) * eps / static_cast<double>(K * (K - 1));
    RC_ASSERT(ek >= 0.0);
    RC_ASSERT(std::abs(ek - want) <= 1e-15 * eps);
    sum += ek;
  }
  RC_ASSERT(std::abs(sum - eps) <= 1e-12 * eps);
}

// The ledger of an Algorithm 2 run composes to ε (δ = 0) for random K and ε, and never above
// the requested ε (ARCH.BUDGET: shares rounded down, the scale up, spec/ev.md EV.CAL.CERTIFIED).
RC_GTEST_PROP(EV_PROP_SCHEDULE, LedgerOfAlgorithm2SumsToEpsilon, ()) {
  const long long K = *rc::gen::inRange<long long>(2, 41);
  const double eps = *epsilon<double>();
  const Eigen::Index t = 3;
  ev::charging_specs<double> specs;
  specs.max_rate = matrix<double>::Constant(t, 2, 3.3);
  specs.energy = vector<double>::Constant(2, 4.0);
  const ev::problem<double> prob(vector<double>::Constant(t, 1.0), 2.0, specs);
  auto p = dpref::test::ev_alg2_params(K, eps, 1);
  p.trace = false;
  philox_stream s(static_cast<std::uint64_t>(K));
  const auto res = ev::run(prob, p, s);
  RC_ASSERT(res.privacy.ledger.events().size() == static_cast<std::size_t>(K));
  const auto total = res.privacy.ledger.total();
  RC_ASSERT(std::abs(total.epsilon - eps) <= 1e-12 * eps);
  RC_ASSERT(total.epsilon <= eps);
  RC_ASSERT(total.epsilon == res.privacy.guarantee.epsilon);
  RC_ASSERT(total.delta == 0.0);
}

}  // namespace
