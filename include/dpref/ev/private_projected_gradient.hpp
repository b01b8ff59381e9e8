// ev Algorithm 2: differentially private distributed projected gradient descent.
//   w_1 = 0; w_k ~ density ∝ exp(−2ε‖w‖/(K(K−1)LΔ)) for k >= 2            (step 1)
//   p̂^(k) = ∇U(Σ_i r_i^(k)) + w_k                                        (step 2)
//   r_i^(k+1) = Π_{C_i}(r_i^(k) − α_k p̂^(k)), α_k = c/√k                  (step 3)
//   r̂_i^(k+1) = (1 − θ_k) r̂_i^(k) + θ_k r_i^(k+1), θ_k = (η+1)/(η+k)
// Privacy (Theorem 6, Lemma 13): given p̂^(1..k−1), p^(k) has ℓ2 sensitivity (k−1)LΔ (r_i^(1)
// public, errata EV-E2), so p̂^(k) is ε_k = 2(k−1)ε/(K(K−1))-DP and Σε_k = ε.
// spec/ev.md EV.ALG2, EV.THM6.SCHEDULE, EV.LEMMA13, EV.NOISE.GAMMA.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "dpref/accounting/accounting.hpp"
#include "dpref/ev/calibration.hpp"
#include "dpref/ev/common.hpp"
#include "dpref/ev/sensitivity.hpp"
#include "dpref/random/vector_laplace.hpp"

namespace dpref::ev {

/// Parameters of Algorithm 2.
template <real_scalar Real>
struct private_gradient_params {
  long long iterations = 20;      ///< K >= 2
  Real epsilon = Real(1) / 10;    ///< total ε > 0
  Real step = Real(10);           ///< c > 0, α_k = c/√k
  Real eta = Real(1);             ///< η >= 1, θ_k = (η+1)/(η+k)
  Real sensitivity = Real(0);     ///< Δ > 0 (e.g. projection_sensitivity(δr, δE, T, ·))
  initial_point<Real> initial{};  ///< zero() or public_vector() only (errata EV-E2)
  bool trace = true;
  int threads = 1;  ///< >= 1; results are bit-identical for any value (EV.THREADS)
};

/// w_k of step 1: 0 for k = 1, else the ℓ2-Laplace vector in R^T with scale s drawn from
/// substream k of the caller's stream (so that w_k does not depend on what was drawn before,
/// and the double draw is the rounding of the 50-digit draw). ‖w_k‖ ~ Gamma(T, s) (EV-E3).
/// @spec EV.NOISE.GAMMA
template <real_scalar Real>
vector<Real> gradient_noise(const philox_stream& stream, long long k, Eigen::Index horizon,
                            const Real& scale) {
  if (k <= 1) return vector<Real>::Zero(horizon);
  philox_stream sk = stream.substream(static_cast<std::uint64_t>(k));
  return vector_laplace<Real>(sk, static_cast<std::size_t>(horizon), scale);
}

namespace detail {
template <real_scalar Real>
void validate_private_params(const char* fn, const private_gradient_params<Real>& p) {
  if (p.iterations < 2) fail_domain(fn, "params.iterations", ">= 2 (K)", p.iterations);
  require_positive(fn, "params.epsilon", p.epsilon);
  require_positive(fn, "params.step", p.step);
  if (!is_finite_value(p.eta) || p.eta < Real(1))
    fail_domain(fn, "params.eta", "finite and >= 1", p.eta);
  require_positive(fn, "params.sensitivity", p.sensitivity);
  if (p.threads < 1) fail_domain(fn, "params.threads", ">= 1", p.threads);
  if (p.initial.kind == start_kind::data_dependent)
    fail_argument(fn, "params.initial",
                  "public (zero or public_vector): a data-dependent r_i^(1) makes p^(1) leak "
                  "(errata EV-E2)",
                  "data_dependent");
}
}  // namespace detail

/// Runs ev Algorithm 2 and records ε_1 = 0, ε_k = 2(k−1)ε/(K(K−1)) (k = 2..K) in the ledger.
/// Noise w_k comes from substream k of `stream`'s (seed, stream id).
/// @return final r^(K+1), the output r̂^(K+1), traces, the released p̂^(1..K), the ledger
/// @throws std::domain_error naming the parameter (K < 2, ε, c or Δ not > 0, η < 1),
/// std::invalid_argument for a data-dependent start or a public start of the wrong size
/// @spec EV.ALG2 EV.THM6.SCHEDULE
template <real_scalar Real>
run_result<Real> run(const charging_problem<Real>& prob,
                     const private_gradient_params<Real>& params, philox_stream& stream) {
  constexpr const char* fn = "dpref::ev::run (Algorithm 2)";
  detail::validate_private_params(fn, params);
  const long long K = params.iterations;
  const Eigen::Index t = prob.horizon();
  const Real L = prob.lipschitz();
  const Real s = noise_scale(K, L, params.sensitivity, params.epsilon);
  const std::vector<Real> eps_k = epsilon_schedule(K, params.epsilon);
  detail::iteration_state<Real> st(prob, detail::initial_schedules(fn, prob, params.initial));
  run_result<Real> res;
  res.released.resize(t, K);
  res.gradients.resize(t, K);
  vector<Real> p(t), p_hat(t);
  if (params.trace) {
    res.objective_trace.push_back(prob.value(st.load));
    res.averaged_trace.push_back(prob.value(st.load_hat));
  }
  for (long long k = 1; k <= K; ++k) {
    // ledger first: Theorem 6 proof, ε_k/Δ^(k) = 2ε/(K(K−1)LΔ) with Δ^(k) = (k−1)LΔ (Lemma 13)
    accounting::privacy_event<Real> ev;
    ev.kind = k == 1 ? "ev.alg2.release_p1" : "ev.alg2.vector_laplace";
    ev.params = {
        {"k", Real(k)}, {"scale", s}, {"sensitivity", Real(k - 1) * L * params.sensitivity}};
    ev.privacy = accounting::pure_dp<Real>{eps_k[static_cast<std::size_t>(k - 1)]};
    res.ledger.record(std::move(ev));
    const vector<Real> w = gradient_noise<Real>(stream, k, t, s);  // step 1
    prob.gradient(st.load, p);                                     // step 2
    p_hat = p + w;
    res.gradients.col(k - 1) = p;
    res.released.col(k - 1) = p_hat;
    const Real theta = (params.eta + Real(1)) / (params.eta + Real(k));
    st.step(prob, p_hat, detail::step_size(params.step, k, false), theta,
            params.threads);  // step 3
    if (params.trace) {
      res.objective_trace.push_back(prob.value(st.load));
      res.averaged_trace.push_back(prob.value(st.load_hat));
    }
  }
  detail::finish(res, st, prob, K);
  return res;
}

/// Lemma 13 coupling: replays step 3 of Algorithm 2 on `prob` driven by a GIVEN released
/// sequence p̂^(1..K) (columns of `released`, e.g. from a run on an adjacent database) and
/// returns the exact gradients p^(k) = ∇U(Σ_i r_i^(k)) of this database, k = 1..K (T × K).
/// @throws as run (Algorithm 2) for the parameters; std::invalid_argument if released is not
/// T × K
/// @spec EV.LEMMA13
template <real_scalar Real>
matrix<Real> replay_gradients(const charging_problem<Real>& prob,
                              const private_gradient_params<Real>& params,
                              const matrix<Real>& released) {
  constexpr const char* fn = "dpref::ev::replay_gradients";
  detail::validate_private_params(fn, params);
  const long long K = params.iterations;
  const Eigen::Index t = prob.horizon();
  if (released.rows() != t || released.cols() != K)
    fail_argument(fn, "released", "T × K",
                  std::to_string(released.rows()) + " × " + std::to_string(released.cols()));
  detail::iteration_state<Real> st(prob, detail::initial_schedules(fn, prob, params.initial));
  matrix<Real> out(t, K);
  vector<Real> p(t);
  for (long long k = 1; k <= K; ++k) {
    prob.gradient(st.load, p);
    out.col(k - 1) = p;
    const vector<Real> p_hat = released.col(k - 1);
    const Real theta = (params.eta + Real(1)) / (params.eta + Real(k));
    st.step(prob, p_hat, detail::step_size(params.step, k, false), theta, params.threads);
  }
  return out;
}

}  // namespace dpref::ev
