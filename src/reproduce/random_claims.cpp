// Sampler claims (spec/random.md RAND.PRECISION.AGREE, RAND.PRECISION.LEAK): the double
// Laplace, exponential and Gaussian samples are the 50-digit samples of the same draws rounded
// to double (>= 99.9% of draws), never the double sample widened; negative control: the fast
// double path (53-bit uniform) does not agree.
#include "dpref/random.hpp"
#include "dpref/random/fast.hpp"
#include "reproduce/claims.hpp"
#include "reproduce/rule.hpp"

namespace dpref::reproduce {
namespace {

struct agreement {
  long long n = 0, rounded_equal = 0, widened_identical = 0;
};

template <class FD, class FM>
agreement measure(long long n, FD fd, FM fm) {
  philox_stream sd(20261121), sm(20261121);
  agreement a;
  a.n = n;
  for (long long i = 0; i < n; ++i) {
    const double x = fd(sd);
    const mp50 y = fm(sm);
    a.rounded_equal += static_cast<double>(y) == x ? 1 : 0;
    a.widened_identical += mp50(x) == y ? 1 : 0;
  }
  return a;
}

void agree(const options& o, results& out) {
  const auto t0 = std::chrono::steady_clock::now();
  const long long n = o.quick ? 20000 : 100000;
  const agreement lap = measure(
      n, [](philox_stream& s) { return laplace(s, 0.75); },
      [](philox_stream& s) { return laplace(s, mp50(0.75)); });
  const agreement ex = measure(
      n, [](philox_stream& s) { return exponential(s, 3.0); },
      [](philox_stream& s) { return exponential(s, mp50(3)); });
  const agreement ga = measure(
      n, [](philox_stream& s) { return gaussian(s, 1.25); },
      [](philox_stream& s) { return gaussian(s, mp50(1.25)); });
  const agreement fast = measure(
      n, [](philox_stream& s) { return fast::laplace(s, 0.75); },
      [](philox_stream& s) { return laplace(s, mp50(0.75)); });
  const auto frac = [](const agreement& a) {
    return static_cast<double>(a.rounded_equal) / static_cast<double>(a.n);
  };
  claim c;
  c.id = "RAND.PRECISION.AGREE";
  c.paper = "random";
  c.statement =
      "dpref's samplers: the double Laplace, exponential and Gaussian samples are the 50-digit "
      "samples of the same draws rounded to double in >= 99.9% of draws, and the 50-digit "
      "sample is never the double one widened";
  c.statistic =
      "count over n draws of the same streams at double and mp50: reproduced when every "
      "agreement >= 99.9% and no 50-digit sample equals the widened double; contradicted "
      "otherwise (negative control: the fast 53-bit path must fall below 99.9%)";
  c.exact = true;
  c.error = "exact (deterministic count over the stated draws)";
  const std::string holds =
      "min(agree_laplace, agree_exponential, agree_gaussian) >= 0.999 and widened_identical == 0 "
      "and control_fast_laplace < 0.999";
  c.rule = {holds, "not (" + holds + ")"};
  c.numbers = {
      {"agree_laplace", frac(lap)},
      {"agree_exponential", frac(ex)},
      {"agree_gaussian", frac(ga)},
      {"widened_identical",
       static_cast<double>(lap.widened_identical + ex.widened_identical + ga.widened_identical)},
      {"control_fast_laplace", frac(fast)},
      {"draws", static_cast<double>(n)}};
  c.result = decide(c);
  c.summary = "agreement: Laplace " + fmt(100 * frac(lap)) + "%, exponential " +
              fmt(100 * frac(ex)) + "%, Gaussian " + fmt(100 * frac(ga)) + "%; fast-path control " +
              fmt(100 * frac(fast)) + "%";
  c.reduced = o.quick;
  c.size = std::to_string(n) + " draws per sampler" + (o.quick ? " (full: 100000)" : "");
  c.seconds = since(t0);
  out.claims.push_back(c);
}

}  // namespace

std::vector<job> random_jobs() { return {{"random", "RAND.PRECISION.AGREE", false, agree}}; }

}  // namespace dpref::reproduce
