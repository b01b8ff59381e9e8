// A minimal program on an installed dpref (examples/consumer/CMakeLists.txt): the accountant,
// one paper's `run` and a reference sampler at two precisions. Prints what it computed and exits
// with status 1 if a check fails.
#include <cstdio>
#include <string>
#include <vector>

#include "dpref/accounting/accountant.hpp"
#include "dpref/pwa/run.hpp"
#include "dpref/random.hpp"

int main() {
  using namespace dpref;
  bool ok = true;

  // 1. The accountant: 1000 releases of a Gaussian mechanism (l2 sensitivity 1, sigma = 20),
  //    composed in Renyi DP and converted at delta = 1e-6 (every value rounded up).
  accounting::accounting_options<double> opt;
  opt.delta = 1e-6;
  const std::vector<accounting::event<double>> events{accounting::make_event<double>(
      accounting::gaussian_mechanism<double>{1.0, 20.0}, 1000, "my release")};
  const auto g = accounting::account(events, opt);
  std::printf("accountant: 1000 x Gaussian(sigma = 20): epsilon = %.17g, delta = %.3g\n", g.epsilon,
              g.delta);
  ok = ok && g.epsilon > 0 && g.epsilon < 10 && g.delta <= opt.delta;

  // 2. One paper's run: pwa's private subgradient method (Algorithm 2) on a generated instance
  //    (m = 20 pieces in d = 3), epsilon = 0.5. The run plans and accounts its ledger before it
  //    draws any noise; the ledger re-accounts to the guarantee it reports.
  const pwa::problem<double> prob = pwa::gaussian_instance<double>(7, 20, 3, 1.0);
  pwa::params<double> p;
  p.epsilon = 0.5;
  p.iterations = 200;
  p.optimum = false;
  const auto r = pwa::run(prob, p, philox_stream(1));
  const auto again = r.privacy.ledger.total();
  std::printf("pwa::run: %s after %lld iterations, f(x) = %.6g, certified epsilon = %.17g\n",
              std::string(to_string(r.status)).c_str(), r.iterations, prob.value(r.x),
              r.privacy.guarantee.epsilon);
  ok = ok && r.privacy.budget_met && r.privacy.guarantee.epsilon <= 0.5 &&
       again.epsilon == r.privacy.guarantee.epsilon && r.x.size() == 3;

  // 3. A reference sample at double and at 50 digits from the same Philox stream address: the
  //    double sample is the rounding of the 50-digit one.
  philox_stream s(1), t(1);
  const double x = laplace(s, 1.0);
  const mp50 y = laplace(t, mp50(1));
  std::printf("laplace(seed 1): %.17g (double), %s (mp50)\n", x, y.str(50).c_str());
  ok = ok && static_cast<double>(y) == x;

  std::printf("%s\n", ok ? "consumer: all checks passed" : "consumer: a check FAILED");
  return ok ? 0 : 1;
}
