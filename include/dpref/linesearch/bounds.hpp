// The public constants every linesearch release relies on, and how the library makes the data
// respect them (spec/privacy_bounds.md, linesearch section; PRIV.BOUNDS): the entries of
// privacy.enforced. Each algorithm lists the constants of its own ledger events:
//   C_grad  clip: per-example ℓ2 clipping (6) inside the gradient sum (problems::linear_erm /
//           mlp_classifier::clipped_gradient_sum), at the sensitivity of the call's event;
//   C_obj   clip: min(f_i, C_obj) of the non-negative per-example objective inside every
//           NOISYBTLS query (armijo_query) and DP-AGD NoisyMin score (clipped_sum);
//   R       clip: every feature vector scaled into the ℓ2 ball of radius R (rows_within) before
//           OUTPERT / OBJPERT solve;
//   lipschitz, curvature  derived: |φ′| <= 1 and sup φ″ from the loss class (margin_losses);
//   labels  refuse: problems::linear_erm refuses a label other than ±1, naming the record;
//   clamp   clip: the secure lattice release clamps each coordinate of its query to [−C, C], a
//           contraction that never raises the ℓ2 sensitivity (and is not the enforcement of
//           C_grad or R: coordinate clamping bounds an ℓ2 norm only by √d·C).
// The result names the constants and the enforcement, never how many records were clipped.
// spec/linesearch.md LS.PUBLIC.
#pragma once

#include <string>

#include "dpref/run/report.hpp"
#include "dpref/scalar.hpp"

namespace dpref::linesearch {

/// C_grad of the gradient events (Algorithm 2 line 6, CHEB, GradAvg, DP-SGD, DP-AGD).
/// @param decays DP-BLSGD-AC: each call clips at its own C_grad·(1 − ζ)^k of (9)
/// @spec PRIV.LINESEARCH.C_GRAD
template <real_scalar Real>
enforced_bound<Real> gradient_clip_bound(const Real& C_grad, bool decays = false) {
  std::string how =
      "each example's gradient is clipped to l2 norm <= C_grad (linesearch (6)) before it enters "
      "the noisy gradient sum, whose l2 sensitivity the ledger takes as C_grad; an example whose "
      "gradient norm is not finite contributes 0";
  if (decays)
    how +=
        "; with the clipping decay (9) every call clips at its current C_grad, the "
        "sensitivity of that call's ledger event";
  return {"C_grad", C_grad, enforcement::clip, std::move(how)};
}

/// C_obj of the NOISYBTLS sparse-vector events, or of DP-AGD's NoisyMin (noisy_min = true).
/// @param decays DP-BLSGD-AC (9) @spec PRIV.LINESEARCH.C_OBJ
template <real_scalar Real>
enforced_bound<Real> objective_clip_bound(const Real& C_obj, bool decays = false,
                                          bool noisy_min = false) {
  std::string how =
      noisy_min
          ? "each example's objective f_i >= 0 (loss class) enters every NoisyMin score as "
            "min(f_i, C_obj) (a NaN as C_obj), so one example moves all scores by values in "
            "[0, C_obj] (monotone; Lap(C_obj/eps) noise)"
          : "each example's objective f_i >= 0 (loss class) enters every NOISYBTLS query as "
            "min(f_i, C_obj) (errata LS-E2; a NaN as C_obj), so one example moves a query by at "
            "most C_obj, the sensitivity of the ledger's sparse-vector event (Theorem 1)";
  if (decays) how += "; with the clipping decay (9) every call clips at its current C_obj";
  return {"C_obj", C_obj, enforcement::clip, std::move(how)};
}

/// R of output / objective perturbation (params.R, absent: √d). @spec PRIV.LINESEARCH.R
template <real_scalar Real>
enforced_bound<Real> feature_bound(const Real& R) {
  return {"R", R, enforcement::clip,
          "every feature vector is scaled into the l2 ball of radius R (rows within R unchanged) "
          "before the private minimiser is computed, so the loss gradient of one example has l2 "
          "norm <= R (Chaudhuri et al. 2011, ||x|| <= 1 after x/R)"};
}

/// The Lipschitz constant 1 of the margin loss in its margin (|φ′| <= 1).
/// @spec PRIV.LINESEARCH.LOSS
template <real_scalar Real>
enforced_bound<Real> lipschitz_bound() {
  return {"lipschitz", Real(1), enforcement::derived,
          "|phi'| <= 1 from the loss class (logistic or Huberized hinge; the hinge is replaced "
          "by its Huberized surrogate), not from the data"};
}

/// c = sup φ″ of objective perturbation (margin_curvature_bound). @spec PRIV.LINESEARCH.LOSS
template <real_scalar Real>
enforced_bound<Real> curvature_bound(const Real& c) {
  return {"curvature", c, enforcement::derived,
          "c = sup phi'' from the loss class (1/4 logistic, 1/(2h) Huberized hinge), not from the "
          "data"};
}

/// |y_i| = 1 of output / objective perturbation. @spec PRIV.LINESEARCH.LOSS
template <real_scalar Real>
enforced_bound<Real> label_bound() {
  return {"labels", Real(1), enforcement::refuse,
          "every label is -1 or +1: the problem refuses any other value before the run, naming "
          "the record and its value"};
}

/// The clamp C of a secure lattice release (params.clamp or its default).
/// @param query what is clamped (the released query) @spec PRIV.LINESEARCH.CLAMP
template <real_scalar Real>
enforced_bound<Real> clamp_bound(const Real& C, const std::string& query) {
  return {"clamp", C, enforcement::clip,
          "each coordinate of " + query +
              " is clamped to [-clamp, clamp] before the lattice rounding: a contraction, so the "
              "l2 sensitivity of the clamped query is at most that of the query (the ledger's); "
              "the l2 bound itself is enforced by the clipping above, not by the clamp"};
}

}  // namespace dpref::linesearch
