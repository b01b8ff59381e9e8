// Cost of pwa's secure mode (spec/pwa.md SEC.PWA.COST, label `slow`): the study setting of pwa
// §5.1 (Gaussian instance m = 20, d = 2, c = 1, bmax = 1, ε = 0.1, 1000 runs), the same seeds in
// idealised and secure mode for M_P and M_S: mean suboptimality f(x) − f_opt and wall time per
// run (the fastest of 3 alternating repetitions), printed; the secure guarantee checked per run.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <vector>

#include "dpref/pwa/run.hpp"
#include "support/summary.hpp"

namespace dpref {
namespace {

using stats = test::mean_se;
using test::summarise;

TEST(SEC_PWA_COST, StudySettingUtilityAndTime) {
  const auto prob = pwa::gaussian_instance<double>(1, 20, 2, 1.0, 1.0);
  const double fopt = pwa::solve(prob).value;
  const int runs = 1000;
  for (const auto a : {pwa::algorithm_kind::perturb_data, pwa::algorithm_kind::perturb_solution}) {
    pwa::params<double> p;
    p.algorithm = a;
    p.epsilon = 0.1;
    p.optimum = false;
    std::vector<double> sub[2];
    double secs[2] = {1e300, 1e300};  // the fastest of 3 alternating repetitions per mode
    for (int rep = 0; rep < 3; ++rep)
      for (int mode = 0; mode < 2; ++mode) {
        p.release = mode == 0 ? noise_mode::idealised : noise_mode::secure;
        const auto t0 = std::chrono::steady_clock::now();
        for (int r = 0; r < runs; ++r) {
          const auto res = pwa::run(prob, p, philox_stream(11, static_cast<unsigned>(r)));
          if (rep == 0) sub[mode].push_back(prob.value(res.x) - fopt);  // evaluation here
          if (mode == 1) {
            ASSERT_LE(res.privacy.guarantee.epsilon, p.epsilon);
          }
        }
        secs[mode] =
            std::min(secs[mode],
                     std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
      }
    const stats i = summarise(sub[0]), s = summarise(sub[1]);
    std::printf(
        "[SEC.PWA.COST] %s, %d runs: suboptimality idealised %.5g +- %.2g, secure %.5g +- %.2g, "
        "ratio %.4f; wall time per run idealised %.4g s, secure %.4g s, ratio %.3f\n",
        a == pwa::algorithm_kind::perturb_data ? "M_P" : "M_S", runs, i.mean, i.se, s.mean, s.se,
        s.mean / i.mean, secs[0] / runs, secs[1] / runs, secs[1] / secs[0]);
    EXPECT_LT(std::abs(s.mean - i.mean), 5 * std::sqrt(i.se * i.se + s.se * s.se));
  }
}

}  // namespace
}  // namespace dpref
