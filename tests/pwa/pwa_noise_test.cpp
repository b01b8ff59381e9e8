// Noise of pwa::run's Laplace mechanisms measured through `run` (PWA.NOISE; issue 19 item 9):
// the audits PWA.AUDIT.MP / PWA.AUDIT.MS exercise perturb_data / perturb_solution of
// laplace_mechanisms.hpp, while `run` draws its own noise, so its scale is measured here against
// an INDEPENDENT calibration from the request: scale s = Δ/ε with Δ = √m·bmax (M_P, Theorem 16)
// and Δ = 2√d·c (M_S, the diameter of the box [−c, c]^d; Theorem 9 scale).
//
// M_P: d = 1, m = 2, f(x) = max(x + b̃_1, −x + b̃_2) with b = 0 on a box so wide that it never
// binds: the released x = (b̃_2 − b̃_1)/2, so V = √2·x = ⟨w, (−1, 1)/√2⟩ is the projection of the
// 2-D ℓ2-Laplace noise on a unit vector: E V² = E‖w‖²/2 = 3s², Var V² = E‖w‖⁴·E cos⁴θ − 9s⁴ =
// 120·(3/8)s⁴ − 9s⁴ = 36s⁴ (‖w‖ ~ Gamma(2, s), θ uniform).
// M_S: d = 2, box c, projection none: ‖x − x_opt‖ ~ Gamma(2, s): mean 2s, variance 2s².
//
// Statistical plan: z-test of the sample mean, accepted at |z| < 6 (two-sided false alarm
// 2·10⁻⁹ per check), N = 20000 runs, fixed seeds; negative control: the same sample REJECTS the
// prediction of 0.8·s (|z| > 6). Scales below and above 1.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "dpref/pwa/run.hpp"
#include "dpref/pwa/solve.hpp"

namespace dpref {
namespace {

constexpr int kRuns = 20000;
constexpr double kZ = 6.0;

double z_of(const std::vector<double>& v, double mean, double sd) {
  double m = 0;
  for (double x : v) m += x;
  m /= static_cast<double>(v.size());
  return (m - mean) / (sd / std::sqrt(static_cast<double>(v.size())));
}

pwa::params<double> params_of(pwa::algorithm_kind a, double eps) {
  pwa::params<double> p;
  p.algorithm = a;
  p.epsilon = eps;
  return p;
}

void check_perturb_data(double bmax, double eps, std::uint64_t seed) {
  matrix<double> A(2, 1);
  A << 1.0, -1.0;
  const pwa::problem<double> prob(A, vector<double>::Zero(2),
                                  pwa::polytope<double>::box_only(1, 1e6), bmax);
  const double s = std::sqrt(2.0) * bmax / eps;  // Δ/ε, Δ = √m·bmax (Theorem 16)
  const auto p = params_of(pwa::algorithm_kind::perturb_data, eps);
  std::vector<double> v2;
  for (int k = 0; k < kRuns; ++k) {
    const auto r = pwa::run(prob, p, philox_stream(seed, static_cast<std::uint64_t>(k)));
    ASSERT_LT(std::fabs(r.x[0]), 1e5);  // the box does not bind
    const double v = std::sqrt(2.0) * r.x[0];
    v2.push_back(v * v);
  }
  EXPECT_LT(std::fabs(z_of(v2, 3 * s * s, 6 * s * s)), kZ) << "s = " << s;
  const double w = 0.8 * s;
  EXPECT_GT(std::fabs(z_of(v2, 3 * w * w, 6 * w * w)), kZ) << "negative control (power)";
}

void check_perturb_solution(double c, double eps, std::uint64_t seed) {
  matrix<double> A(3, 2);
  A << 1.0, 0.5, -1.0, 0.25, 0.0, -1.0;
  vector<double> b(3);
  b << 0.1, -0.2, 0.05;
  const pwa::problem<double> prob(A, b, pwa::polytope<double>::box_only(2, c), 1.0);
  const vector<double> x_opt = pwa::solve(prob).x;
  const double s = 2 * std::sqrt(2.0) * c / eps;  // Δ/ε, Δ = 2√d·c (diameter of the box)
  const auto p = params_of(pwa::algorithm_kind::perturb_solution, eps);
  std::vector<double> norms;
  for (int k = 0; k < kRuns; ++k) {
    const auto r = pwa::run(prob, p, philox_stream(seed, static_cast<std::uint64_t>(k)));
    norms.push_back((r.x - x_opt).norm());
  }
  EXPECT_LT(std::fabs(z_of(norms, 2 * s, std::sqrt(2.0) * s)), kZ) << "s = " << s;
  const double w = 0.8 * s;
  EXPECT_GT(std::fabs(z_of(norms, 2 * w, std::sqrt(2.0) * w)), kZ) << "negative control (power)";
}

TEST(PWA_NOISE, PerturbDataScaleBelowOne) { check_perturb_data(0.25, 1.0, 9101); }
TEST(PWA_NOISE, PerturbDataScaleAboveOne) { check_perturb_data(2.0, 0.5, 9102); }
TEST(PWA_NOISE, PerturbSolutionScaleBelowOne) { check_perturb_solution(0.1, 1.0, 9103); }
TEST(PWA_NOISE, PerturbSolutionScaleAboveOne) { check_perturb_solution(1.0, 0.5, 9104); }

}  // namespace
}  // namespace dpref
