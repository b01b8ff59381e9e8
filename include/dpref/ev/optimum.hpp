// U* = min Σ-separable EV problem (ev (2), (7)) to a certified accuracy: accelerated projected
// gradient (FISTA with the exact projection per column and adaptive restart) on the stacked
// schedules, stopped by the Frank–Wolfe duality gap
//   gap(r) = Σ_j mult_j ⟨p, r_j − s_j⟩,  s_j = argmin_{s ∈ C_j} ⟨p, s⟩,  p = ∇U(Σ r),
// which bounds U(Σ r) − U* by convexity. s_j fills the slots of smallest p greedily (an LP over
// C(a, b)); one sort of p serves every column. spec/ev.md EV.OPT.
#pragma once

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include "dpref/ev/common.hpp"
#include "dpref/params.hpp"

namespace dpref::ev {

/// Frank–Wolfe gap Σ_j mult_j ⟨p, r_j − s_j⟩ at the schedules r (p = ∇U(Σ r)).
/// @spec EV.OPT
template <real_scalar Real>
Real duality_gap(const problem<Real>& prob, const matrix<Real>& r, const vector<Real>& load) {
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

/// Solves the EV problem to a relative duality gap (non-private; U* of the relative
/// suboptimality, and `run` with algorithm = optimum). FISTA step 1/L_r, L_r = ‖mult‖²/m²,
/// exact per-column projections, adaptive restart when U increases, from r_j = Π_{C_j}(0).
/// Status converged when gap <= relative_gap · U (the bracket is then certified), else
/// iteration_limit (the bracket value − gap <= U* <= value still holds: the gap bounds
/// U(Σ r) − U* at every feasible r by convexity). The result is not private.
/// @throws invalid_parameter naming max_iterations (< 1) or relative_gap (not in (0, 1))
/// @spec EV.OPT
template <real_scalar Real>
result<Real> solve_optimum(const problem<Real>& prob, long long max_iterations = 100000,
                           const Real& relative_gap = Real(1) / Real(10000000000LL),
                           const progress_fn& progress = {}) {
  const param_checker c("ev::params");
  c.at_least<long long>("optimum_max_iterations", max_iterations, 1);
  c.unit_open("optimum_relative_gap", relative_gap);
  if (prob.is_slice())
    throw std::invalid_argument("ev::solve_optimum: needs the whole problem, not a slice");
  const Eigen::Index t = prob.horizon(), n = prob.groups();
  const Real step = Real(1) / prob.schedule_lipschitz();
  matrix<Real> r = detail::initial_schedules(prob, start_kind::projected_zero, {});
  matrix<Real> y = r, r_prev = r;
  vector<Real> p(t), x0(t);
  projection_workspace ws;
  Real tk(1), f_prev = prob.value(prob.load(r));
  using std::sqrt;
  result<Real> res;
  res.algorithm = algorithm_kind::optimum;
  res.privacy = non_private<Real>();
  optimum_bracket<Real> br;
  progress_meter meter(progress);
  for (long long it = 1; it <= max_iterations; ++it) {
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
    br.iterations = it;
    const Real gap = duality_gap(prob, r, load);
    br.gap = gap;
    if (gap <= relative_gap * f) {
      br.certified = true;
      break;
    }
    meter.report([&] {
      return "ev optimum: iteration " + std::to_string(it) + ", relative gap " +
             ::dpref::detail::to_text(static_cast<double>(gap / f));
    });
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
  res.final_load = prob.load(r);
  res.averaged_load = res.final_load;
  br.value = prob.value(res.final_load);
  br.lower = br.value - br.gap;
  res.final_objective = res.averaged_objective = br.value;
  res.final_schedules = std::move(r);
  res.averaged_schedules = res.final_schedules;
  res.iterations = br.iterations;
  res.status = br.certified ? status::converged : status::iteration_limit;
  res.message = std::string(br.certified ? "certified" : "NOT certified (iteration cap)") +
                ": duality gap " + ::dpref::detail::to_text(static_cast<double>(br.gap)) +
                (br.certified ? " <= " : " > ") +
                ::dpref::detail::to_text(static_cast<double>(relative_gap)) + " · U after " +
                std::to_string(br.iterations) + " iterations";
  res.optimum = br;
  return res;
}

}  // namespace dpref::ev
