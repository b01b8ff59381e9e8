// U* = min Σ-separable EV problem (ev (2), (7)) to a certified accuracy: accelerated projected
// gradient (FISTA with the exact projection per column and adaptive restart) on the stacked
// schedules, stopped by the Frank–Wolfe duality gap
//   gap(r) = Σ_j mult_j ⟨p, r_j − s_j⟩,  s_j = argmin_{s ∈ C_j} ⟨p, s⟩,  p = ∇U(Σ r),
// which bounds U(Σ r) − U* by convexity. s_j fills the slots of smallest p greedily (an LP over
// C(a, b)); one sort of p serves every column. spec/ev.md EV.OPT.
#pragma once

#include <algorithm>
#include <numeric>
#include <vector>

#include "dpref/ev/common.hpp"

namespace dpref::ev {

/// Parameters of the certified solve.
template <real_scalar Real>
struct optimum_params {
  Real relative_gap = Real(1) / Real(10000000000LL);  ///< stop when gap <= this · U(x)
  long long max_iterations = 100000;
  initial_point<Real> initial = initial_point<Real>::projected_zero();  ///< non-private
};

/// Certified optimum: value − gap <= U* <= value.
template <real_scalar Real>
struct optimum_result {
  matrix<Real> schedules;  ///< r_j, T × N
  vector<Real> load;       ///< Σ_i r_i
  Real value{};            ///< U(load), an upper bound of U*
  Real gap{};              ///< Frank–Wolfe gap: U(load) − U* <= gap
  Real lower{};            ///< value − gap, a lower bound of U*
  long long iterations = 0;
  run_status status = run_status::not_certified;
};

/// Frank–Wolfe gap Σ_j mult_j ⟨p, r_j − s_j⟩ at the schedules r (p = ∇U(Σ r)).
/// @spec EV.OPT
template <real_scalar Real>
Real duality_gap(const charging_problem<Real>& prob, const matrix<Real>& r,
                 const vector<Real>& load) {
  const Eigen::Index t = prob.horizon();
  vector<Real> p(t);
  prob.gradient(load, p);
  std::vector<Eigen::Index> order(static_cast<std::size_t>(t));
  std::iota(order.begin(), order.end(), Eigen::Index(0));
  std::sort(order.begin(), order.end(),
            [&](Eigen::Index a, Eigen::Index b) { return p[a] < p[b]; });
  Real gap(0);
  for (Eigen::Index j = 0; j < prob.groups(); ++j) {
    // ⟨p, s_j⟩: fill the cheapest slots up to the cap until E_j is placed
    Real left = prob.specs().energy[j], lp(0);
    for (const Eigen::Index i : order) {
      if (!(left > Real(0))) break;
      const Real cap = prob.specs().max_rate(i, j);
      const Real take = cap < left ? cap : left;
      lp += take * p[i];
      left -= take;
    }
    gap += Real(prob.multiplicity(j)) * (r.col(j).dot(p) - lp);
  }
  return gap;
}

/// Solves the EV problem to a relative duality gap (non-private; used for U* in
/// suboptimality). FISTA step 1/L_r, L_r = ‖mult‖²/m²; restart when U increases.
/// @throws std::domain_error naming the parameter (relative_gap not > 0, max_iterations < 1)
/// @spec EV.OPT
template <real_scalar Real>
optimum_result<Real> solve_optimum(const charging_problem<Real>& prob,
                                   const optimum_params<Real>& params = {}) {
  constexpr const char* fn = "dpref::ev::solve_optimum";
  require_positive(fn, "params.relative_gap", params.relative_gap);
  if (params.max_iterations < 1)
    fail_domain(fn, "params.max_iterations", ">= 1", params.max_iterations);
  const Eigen::Index t = prob.horizon(), n = prob.groups();
  const Real step = Real(1) / prob.schedule_lipschitz();
  matrix<Real> r = detail::initial_schedules(fn, prob, params.initial);
  matrix<Real> y = r, r_prev = r;
  vector<Real> p(t), x0(t);
  projection_workspace ws;
  Real tk(1), f_prev = prob.value(prob.load(r));
  using std::sqrt;
  optimum_result<Real> res;
  for (long long it = 1; it <= params.max_iterations; ++it) {
    // gradient in column j is mult_j p(Σ y)
    prob.gradient(prob.load(y), p);
    r_prev.swap(r);
    const Real p_mean = p.sum() / Real(t);
    for (Eigen::Index j = 0; j < n; ++j) {
      const Real scale = step * Real(prob.multiplicity(j));
      for (Eigen::Index i = 0; i < t; ++i) x0[i] = y(i, j) - scale * p[i];
      // warm start −scale·mean(p) (y is near C_j); the kernel is exact from any start
      project_into<Real>(x0.data(), prob.specs().max_rate.col(j).data(), prob.specs().energy[j],
                         r.col(j).data(), t, -scale * p_mean, ws);
    }
    const vector<Real> load = prob.load(r);
    const Real f = prob.value(load);
    res.iterations = it;
    const Real gap = duality_gap(prob, r, load);
    if (gap <= params.relative_gap * f) {
      res.status = run_status::certified;
      res.gap = gap;
      break;
    }
    res.gap = gap;
    if (f > f_prev) {  // adaptive restart (O'Donoghue–Candès): drop the momentum
      tk = Real(1);
      y = r;
    } else {
      const Real t_next = (Real(1) + sqrt(Real(1) + 4 * tk * tk)) / 2;
      y = r + ((tk - Real(1)) / t_next) * (r - r_prev);
      tk = t_next;
    }
    f_prev = f;
  }
  res.load = prob.load(r);
  res.value = prob.value(res.load);
  res.lower = res.value - res.gap;
  res.schedules = std::move(r);
  return res;
}

}  // namespace dpref::ev
