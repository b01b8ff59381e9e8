// Cost of ev's secure mode (spec/ev.md SEC.EV.COST, label `slow`): the reference setting of
// examples/ev.json (100 000 users in 20 groups, household units, K = 6, ε = 0.1, tight Δ), the
// same seeds in idealised and secure mode: relative suboptimality (U(Σ r̂^(K+1)) − U*)/U* (ev
// §VII's utility metric) and wall time per run, printed; the secure guarantee checked per run.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <vector>

#include "dpref/ev/json.hpp"
#include "dpref/ev/run.hpp"
#include "support/summary.hpp"

namespace dpref {
namespace {

using stats = test::mean_se;
using test::median;
using test::summarise;

TEST(SEC_EV_COST, ReferenceSettingUtilityAndTime) {
  const io::document doc = io::document::from_file(DPREF_EXAMPLES_DIR "/ev.json");
  ev::config<double> cfg;
  io::read_fields(io::node(doc), cfg);
  const ev::problem<double> prob = ev::make_problem(cfg.problem);
  const double ustar = ev::solve_optimum(prob, 2000, 1e-10).optimum->value;
  auto p = cfg.params;
  p.optimum = false;
  const int runs = 200;
  std::vector<double> sub[2], secs[2];
  for (int mode = 0; mode < 2; ++mode) {
    p.release = mode == 0 ? noise_mode::idealised : noise_mode::secure;
    for (int r = 0; r < runs; ++r) {
      const auto t0 = std::chrono::steady_clock::now();
      const auto res = ev::run(prob, p, philox_stream(cfg.seed + static_cast<unsigned>(r), 1));
      secs[mode].push_back(
          std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
      sub[mode].push_back((res.averaged_objective - ustar) / ustar);
      if (mode == 1) {
        ASSERT_LE(res.privacy.guarantee.epsilon, p.epsilon);
        ASSERT_EQ(res.privacy.noise, noise_mode::secure);
      }
    }
  }
  const stats a = summarise(sub[0]), b = summarise(sub[1]);
  const double ratio = b.mean / a.mean;
  const double ta = median(secs[0]), tb = median(secs[1]);
  std::printf(
      "[SEC.EV.COST] examples/ev.json, %d seeds: relative suboptimality idealised %.5g +- %.2g, "
      "secure %.5g +- %.2g, ratio %.4f; median wall time per run idealised %.4g s, secure %.4g s, "
      "ratio %.3f\n",
      runs, a.mean, a.se, b.mean, b.se, ratio, ta, tb, tb / ta);
  // the secure noise has the idealised size up to 2^-20 (grid rule): no utility loss beyond the
  // Monte Carlo error (5 SE of the difference)
  EXPECT_LT(std::abs(b.mean - a.mean), 5 * std::sqrt(a.se * a.se + b.se * b.se));
}

}  // namespace
}  // namespace dpref
