// The one entry point of the dda module (spec/architecture.md ARCH.RUN, spec/dda.md DDA.RUN):
//   result<Real> run(const problem<Real>&, const network&, const params<Real>&,
//                    const philox_stream&)
// validates the parameters and the network (edge sampling only where ι = 2k/n is every node's
// activation probability), calibrates σ of dda Algorithm 1 from PUBLIC quantities only (the
// bound params.lipschitz, ι, q, T: never problem::empirical_lipschitz()), builds the ledger of
// the whole run and checks it against the request with plan_privacy BEFORE the first draw
// (accounting::budget_exceeded, nothing released; paper_theorem1 needs allow_over_budget), then
// runs Algorithm 1 on the stream (substream 0: W^(t); i + 1: node i).
//
// Ledger: dda/ledger.hpp (plan_ledger), whatever calibration chose σ; calibration (c) is the
// smallest σ it certifies (ledger_sigma), the same σ `dpref dda calibrate` reports.
#pragma once

#include <cstdint>
#include <string>

#include "dpref/accounting/accountant.hpp"
#include "dpref/accounting/certified.hpp"
#include "dpref/dda/calibration.hpp"
#include "dpref/dda/composition.hpp"
#include "dpref/dda/data.hpp"
#include "dpref/dda/dp_dda.hpp"
#include "dpref/dda/ledger.hpp"
#include "dpref/dda/network.hpp"
#include "dpref/dda/params.hpp"
#include "dpref/dda/problem.hpp"
#include "dpref/random/philox_stream.hpp"
#include "dpref/run/report.hpp"

namespace dpref::dda {

/// The privacy setup of a run: public quantities only (L = params.lipschitz). @spec ARCH.PUBLIC
template <real_scalar Real>
privacy_setup<Real> setup_of(const params<Real>& p, const Real& iota, long long q_local) {
  privacy_setup<Real> s;
  s.lipschitz = p.lipschitz;
  s.iota = iota;
  s.q_local = q_local;
  s.T = p.iterations;
  s.eps = p.epsilon;
  s.delta0 = p.delta0;
  s.delta_prime = p.delta_prime;
  s.target_delta = p.delta;
  s.active_set_hidden = p.active_set_hidden;
  s.max_order = p.max_order;
  return s;
}

/// Secure mode (SEC.DDA): the lattice Gaussian of one round at σ for d coordinates: Δ2 = 2L, the
/// l2 ball of radius C = L as the clamp set, enforced exactly on the grid (SEC.GAUSS.L2), so the
/// event holds whatever the floating-point clip of ĝ (PRIV.DDA.LIPSCHITZ) returned; on a clipped
/// ĝ the ball never binds. Grid of mechanisms::snapped_gaussian_grid_exponent.
inline mechanisms::snapped_gaussian_params snapped_round(double lipschitz, double sigma,
                                                         long long d) {
  mechanisms::snapped_gaussian_params sp;
  sp.sensitivity = 2 * lipschitz;
  sp.sigma = sigma;
  sp.dimension = d;
  sp.clamp = lipschitz;
  sp.shape = mechanisms::clamp_set::l2_ball;
  sp.grid_exponent =
      mechanisms::snapped_gaussian_grid_exponent(sp.sensitivity, sigma, d, lipschitz);
  return sp;
}

/// The secure ledger of a whole run at σ: plan_ledger with the snapped_gaussian round (inflated
/// sensitivity 2L + √d 2^k, grid variance rounded up), accounted in RDP (WBK for the 1-of-q
/// sample: SEC.ACC.GAUSS.WOR). @spec SEC.DDA
inline accounting::ledger<double> plan_ledger_secure(const privacy_setup<double>& s,
                                                     const double& sigma, long long d) {
  return plan_ledger_of(s, snapped_round(s.lipschitz, sigma, d).event<double>());
}

/// σ of the secure mode: the smallest σ whose secure ledger meets (ε, δ). @spec SEC.DDA
inline double calibrated_sigma_secure(const privacy_setup<double>& s, long long d) {
  auto ok = [&](const double& sg) {
    const auto g = plan_ledger_secure(s, sg, d).total();
    return !(g.epsilon > s.eps) && !(g.delta > s.target_delta);
  };
  return accounting::smallest_satisfying<double>(ok, 2 * s.lipschitz, "dda::run", "sigma");
}

/// σ of the calibration `kind` (not none). rdp: the smallest σ whose plan_ledger the accountant
/// certifies within (ε, δ). @spec DDA.PRIV.A DDA.PRIV.B DDA.PRIV.C
template <real_scalar Real>
Real calibrated_sigma(const privacy_setup<Real>& s, calibration_kind kind) {
  switch (kind) {
    case calibration_kind::paper_theorem1:
      return paper_sigma_unchecked(s.lipschitz, s.iota, Real(s.q_local), s.T, s.eps, s.delta0);
    case calibration_kind::sound_chain:
      return calibrate(s, calibration::sound_chain).sigma;
    case calibration_kind::rdp:
    case calibration_kind::none:
      break;
  }
  return ledger_sigma(s, "dda::run");  // calibration (c), the same σ as calibrate(s, rdp)
}

/// The checks of the network that need the problem and the params.
/// @throws invalid_parameter "dda::network.<field> ..."
template <real_scalar Real, class Features>
void validate_network_against(const problem<Real, Features>& prob, const network& net,
                              const params<Real>& p) {
  net.validate();
  const param_checker c("dda::network");
  c.require(net.nodes == prob.nodes(), "nodes",
            "== the problem's nodes (" + std::to_string(prob.nodes()) + ")", net.nodes);
  // ι = 2k/n must be every node's activation probability (network.hpp)
  if (p.calibration != calibration_kind::none && net.activation == activation_mode::edges)
    c.require(edge_mode_iota_exact(net.graph), "graph",
              "complete or ring with activation = edges in a private run (iota = 2k/n is every "
              "node's activation probability only on vertex- and edge-transitive graphs; use "
              "activation = nodes)",
              std::string(enum_names(graph_kind{})[static_cast<std::size_t>(net.graph)].second));
}

/// The checks of params that need the problem. @throws invalid_parameter "dda::params.<field> ..."
template <real_scalar Real, class Features>
void validate_params_against(const problem<Real, Features>& prob, const params<Real>& p) {
  p.validate();
  const problems::regularizer<Real>& h = prob.reg();
  const param_checker pc("dda::params");
  if (p.g_schedule == gamma_schedule::zero)
    pc.require(h.strong_convexity() > Real(0), "gamma_schedule",
               "constant or sqrt_t unless h is strongly convex (mu > 0)", std::string("zero"));
  else
    pc.require(p.gamma > Real(0) || h.strong_convexity() > Real(0), "gamma",
               "> 0 unless h is strongly convex", p.gamma);
}

/// The enforced public bound of every private dda run (PRIV.BOUNDS): Δ2 = 2L holds for any
/// data because each sampled subgradient is clipped to ‖ĝ‖₂ <= L (sampled_subgradient).
/// @spec PRIV.DDA.LIPSCHITZ
template <real_scalar Real>
enforced_bound<Real> lipschitz_enforcement(const Real& L) {
  return {"lipschitz", L, enforcement::clip,
          "each sampled subgradient is clipped to l2 norm <= lipschitz before the Gaussian noise "
          "(step 6), so one round's l2 sensitivity is 2 lipschitz for any data"};
}

/// What a run releases with, decided before the first draw: the privacy report (ledger planned
/// and checked against the request) and the engine's parameters (σ, the clip at L, the lattice
/// of the secure mode). `run` is plan_run + run_dp_dda; the audits use the same plan.
template <real_scalar Real>
struct planned_run {
  privacy_report<Real> privacy;
  algorithm_params<Real> engine;
  std::string calibration;
};

/// Validates, calibrates σ from public quantities only and plans the ledger (see the file
/// comment). @throws invalid_parameter naming the field; accounting::budget_exceeded
/// @spec DDA.RUN ARCH.BUDGET ARCH.PUBLIC PRIV.BOUNDS
template <real_scalar Real, class Features>
planned_run<Real> plan_run(const problem<Real, Features>& prob, const network& net,
                           const params<Real>& p) {
  validate_params_against(prob, p);
  validate_network_against(prob, net, p);
  const auto smp = net.sampler<Real>();
  const privacy_setup<Real> s = setup_of(p, smp.iota(), prob.per_node());
  planned_run<Real> out;
  out.privacy = non_private<Real>();
  out.calibration =
      std::string(enum_names(calibration_kind{})[static_cast<std::size_t>(p.calibration)].second);
  privacy_budget_request<Real> req;
  req.epsilon = p.epsilon;
  req.delta = p.delta;
  req.allow_over_budget = p.allow_over_budget;
  if constexpr (std::is_same_v<Real, double>) {
    if (p.release == noise_mode::secure) {  // SEC.DDA: lattice Gaussian, planned before any draw
      const auto d = static_cast<long long>(prob.dimension());
      const double sigma = calibrated_sigma_secure(s, d);
      out.privacy = plan_privacy(plan_ledger_secure(s, sigma, d), req, "dda::run");
      out.privacy.noise = noise_mode::secure;
      out.engine = p.engine(sigma);
      out.engine.secure = snapped_round(p.lipschitz, sigma, d);
    }
  }
  if (p.release != noise_mode::secure) {
    Real sigma(0);
    if (p.calibration != calibration_kind::none) {
      sigma = calibrated_sigma(s, p.calibration);
      const mechanisms::gaussian_noise<Real> nu = round_noise(s, sigma);
      out.privacy =
          plan_privacy(plan_ledger_of(s, nu.event()), req, "dda::run");  // before any draw
      out.engine = p.engine(sigma);
      out.engine.noise = nu;  // the engine draws ν with the measurement the ledger charges
    } else {
      out.engine = p.engine(sigma);
    }
  }
  if (out.privacy.is_private) {
    out.engine.clip = p.lipschitz;  // PRIV.DDA.LIPSCHITZ: Δ2 = 2L for any data
    out.privacy.enforced.push_back(lipschitz_enforcement(p.lipschitz));
    if (out.engine.secure)  // SEC.GAUSS.L2: the lattice enforces the same ball exactly
      out.privacy.enforced.back().how +=
          "; secure: again on the grid, exactly: the rounded subgradient is clamped into the l2 "
          "ball of radius lipschitz (SEC.GAUSS.L2), so no floating-point rounding of the clip "
          "can exceed the ledger's 2L";
  }
  return out;
}

/// dda Algorithm 1 with σ calibrated and the ledger planned before the first draw.
/// Distributed variant (spec/distributed.md DIST.DDA): every rank of `comm` calls it with the
/// same arguments; the nodes are split over the ranks; rank 0 returns the result, bit-identical
/// to the serial run (the default communicator), a rank r > 0 its own nodes only
/// (result::first_node).
/// @throws invalid_parameter naming the field; accounting::budget_exceeded (nothing released)
/// @spec DDA.RUN ARCH.RUN ARCH.BUDGET ARCH.PUBLIC DIST.DDA
template <real_scalar Real, class Features>
result<Real> run(const problem<Real, Features>& prob, const network& net, const params<Real>& p,
                 const philox_stream& stream,
                 const parallel::communicator& comm = parallel::serial()) {
  planned_run<Real> plan = plan_run(prob, net, p);
  result<Real> res = run_dp_dda(prob, net.sampler<Real>(), plan.engine, stream, comm);
  res.privacy = std::move(plan.privacy);
  res.sigma = plan.engine.sigma;
  res.calibration = plan.calibration;
  res.status = dpref::status::completed;
  res.iterations = p.iterations;
  const bool secure = res.privacy.noise == noise_mode::secure;
  res.message = "dda Algorithm 1: T = " + std::to_string(p.iterations) + " rounds, " +
                (secure ? std::string("secure (lattice Gaussian), sigma from calibration rdp")
                 : p.calibration == calibration_kind::none
                     ? std::string("no noise (conventional DDA, not private)")
                     : "sigma from calibration " + res.calibration +
                           (res.privacy.budget_met ? std::string()
                                                   : std::string(" (OVER the requested budget: "
                                                                 "allow_over_budget)")));
  return res;
}

/// Complete configuration of a run: the problem's and the network's public descriptions, the
/// parameters and the run's stream. Its JSON is the `--params` document of `dpref dda run` and
/// the "config" echoed in the result. @spec DDA.JSON
template <real_scalar Real>
struct config {
  problem_spec<Real> problem;
  dda::network network;
  dda::params<Real> params;
  std::uint64_t seed = 20261121;
  std::uint64_t stream = 1;

  template <class V>
  void fields(V&& v) {
    v("problem", problem, "the data and the regulariser (public description)");
    v("network", network, "the supergraph and the gossip activation (public)");
    v("params", params, "calibration, budget, public bounds, schedules");
    v("seed", seed, "seed of the run's stream");
    v("stream", stream, "stream id of the run's stream");
  }
};

}  // namespace dpref::dda
