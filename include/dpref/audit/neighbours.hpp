// Worst-case neighbouring inputs for the audits (spec/audit.md AUDIT.NEIGHBOURS). Every pair is
// derived from the mechanism's sensitivity, not drawn at random: the audit is only as strong as
// the pairs it tries.
#pragma once

#include <Eigen/Core>
#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

#include "dpref/error.hpp"

namespace dpref::audit {

/// Two neighbouring inputs of a mechanism and a name for reports.
template <class Input>
struct neighbour_pair {
  std::string name;
  Input first;   ///< D
  Input second;  ///< D'
};

/// Scalar query of sensitivity Δ: q(D) = 0, q(D') = Δ (for noise symmetric about the query,
/// every pair at distance Δ is equivalent to this one; both directions are audited).
/// @throws std::domain_error if Δ is not finite and > 0 @spec AUDIT.NEIGHBOURS
inline std::vector<neighbour_pair<double>> scalar_pairs(double sensitivity) {
  require_positive("dpref::audit::scalar_pairs", "sensitivity", sensitivity);
  return {{"q(D)=0, q(D')=sensitivity", 0.0, sensitivity}};
}

/// Vector query of ℓ2 sensitivity Δ in R^d: the shift along a coordinate axis and along the
/// diagonal (1, ..., 1)/√d (rotation-invariant noise makes every direction equivalent; the two
/// pairs check that the implementation is).
/// @throws std::domain_error for d = 0 or invalid Δ @spec AUDIT.NEIGHBOURS
inline std::vector<neighbour_pair<Eigen::VectorXd>> vector_pairs(std::size_t d,
                                                                 double sensitivity) {
  if (d == 0) fail_domain("dpref::audit::vector_pairs", "d", ">= 1", d);
  require_positive("dpref::audit::vector_pairs", "sensitivity", sensitivity);
  const auto n = static_cast<Eigen::Index>(d);
  Eigen::VectorXd axis = Eigen::VectorXd::Zero(n);
  axis[0] = sensitivity;
  const Eigen::VectorXd diag =
      Eigen::VectorXd::Constant(n, sensitivity / std::sqrt(static_cast<double>(d)));
  return {{"axis shift", Eigen::VectorXd::Zero(n), axis},
          {"diagonal shift", Eigen::VectorXd::Zero(n), diag}};
}

/// Utility vectors of m candidates with sensitivity Δu for the exponential mechanism:
///  - "one up, rest down": u(D) = (Δu, 0, ..., 0), u(D') = (0, Δu, ..., Δu): the score of
///    candidate 0 and the normaliser move in opposite directions, the pair that needs the
///    factor 2 of exp(ε u / (2Δu)) (the ratio tends to e^ε as m grows);
///  - "swap": u(D) = (Δu, 0, 0...), u(D') = (0, Δu, 0, ...).
/// @throws std::domain_error for m < 2 or invalid Δu @spec AUDIT.NEIGHBOURS
inline std::vector<neighbour_pair<std::vector<double>>> utility_pairs(std::size_t m,
                                                                      double sensitivity) {
  if (m < 2) fail_domain("dpref::audit::utility_pairs", "m", ">= 2", m);
  require_positive("dpref::audit::utility_pairs", "sensitivity", sensitivity);
  std::vector<double> up(m, 0.0), down(m, sensitivity), swap(m, 0.0);
  up[0] = sensitivity;
  down[0] = 0.0;
  swap[1] = sensitivity;
  return {{"one up, rest down", up, down}, {"swap", up, swap}};
}

/// Query sequences of k queries with sensitivity Δ for sparse-vector mechanisms:
///  - "all shift": q(D) = 0^k, q(D') = Δ^k (BOTTOM answers cost most);
///  - "last flips": q(D) = (0, ..., 0, Δ), q(D') = (Δ, ..., Δ, 0): the BOTTOMs get harder and the
///    final TOP easier at once, the pair of the factor 2 in the query noise;
///  - "order swap": q(D) = (Δ, 0, ...), q(D') = (0, Δ, ...).
/// @throws std::domain_error for k < 2 or invalid Δ @spec AUDIT.NEIGHBOURS
inline std::vector<neighbour_pair<std::vector<double>>> query_pairs(std::size_t k,
                                                                    double sensitivity) {
  if (k < 2) fail_domain("dpref::audit::query_pairs", "k", ">= 2", k);
  require_positive("dpref::audit::query_pairs", "sensitivity", sensitivity);
  std::vector<double> zero(k, 0.0), all(k, sensitivity), last(k, 0.0), flip(k, sensitivity);
  last[k - 1] = sensitivity;
  flip[k - 1] = 0.0;
  std::vector<double> a(k, 0.0), b(k, 0.0);
  a[0] = sensitivity;
  b[1] = sensitivity;
  return {{"all shift", zero, all}, {"last flips", last, flip}, {"order swap", a, b}};
}

}  // namespace dpref::audit
