// Shared helpers of the statistical audits (tests/audit/*, tests/<paper>/*audit*.cpp): the
// settings of an audit, the printed report and the verdict checks.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>

#include "dpref/audit/auditor.hpp"
#include "dpref/mechanisms/gaussian.hpp"
#include "dpref/mechanisms/laplace.hpp"
#include "dpref/mechanisms/vector_laplace.hpp"

namespace dpref::audit::test_support {

inline constexpr double kAlpha = 1e-6;  // false-alarm probability of every audit

/// Settings of an audit: seed, n search = n test samples per side and pair, claimed (ε, δ),
/// false-alarm probability kAlpha, `threads` workers (0: all cores; the counts do not depend on
/// the thread count, AUDIT.THREADS).
inline audit_config make_config(std::uint64_t seed, std::uint64_t n, double eps, double delta = 0,
                                unsigned threads = 0) {
  audit_config c;
  c.seed = seed;
  c.search_samples = c.test_samples = n;
  c.alpha = kAlpha;
  c.epsilon = eps;
  c.delta = delta;
  c.threads = threads;
  return c;
}

/// Prints the numbers of an audit (collected in the closing note) and records them in the
/// gtest XML output.
inline void print_report(const std::string& what, const audit_report& r) {
  const auto& w = r.worst_pair();
  std::printf(
      "[audit] %s | claimed eps=%.6g delta=%.3g | eps_lb=%.4f | %s | n=%llu search + %llu test "
      "per side x %zu pairs | alpha=%.1e | pair '%s' | event: %s%s | counts %llu vs %llu | "
      "%.2f s\n",
      what.c_str(), r.epsilon, r.delta, r.eps_lb, r.violation ? "VIOLATION" : "no violation",
      static_cast<unsigned long long>(r.samples / (2 * r.pairs.size()) - w.n),
      static_cast<unsigned long long>(w.n), r.pairs.size(), r.alpha, w.pair.c_str(),
      w.event.description.c_str(), w.event.swapped ? " (D' over D)" : "",
      static_cast<unsigned long long>(w.count_num), static_cast<unsigned long long>(w.count_den),
      r.seconds);
  std::fflush(stdout);
  ::testing::Test::RecordProperty("eps_lb", std::to_string(r.eps_lb));
  ::testing::Test::RecordProperty("verdict", r.violation ? "violation" : "no violation");
}

/// Prints the audit `what` and decides its verdict, for EXPECT_TRUE at the test: `flagged` (a
/// negative control: "violation" and, if given, ε_lb > bound) or not (a correct release: "no
/// violation" and, if given, the power check ε_lb >= bound).
inline ::testing::AssertionResult audit_verdict(const std::string& what, const audit_report& r,
                                                bool flagged, std::optional<double> bound) {
  print_report(what, r);
  if (r.violation != flagged)
    return ::testing::AssertionFailure()
           << what << ": " << (r.violation ? "violation" : "no violation") << " (eps_lb "
           << r.eps_lb << " vs claimed " << r.epsilon << "), expected "
           << (flagged ? "violation" : "no violation");
  if (bound && flagged && !(r.eps_lb > *bound))
    return ::testing::AssertionFailure()
           << what << ": eps_lb " << r.eps_lb << " is not above " << *bound;
  if (bound && !flagged && !(r.eps_lb >= *bound))
    return ::testing::AssertionFailure()
           << what << ": eps_lb " << r.eps_lb << " is below the power bound " << *bound;
  return ::testing::AssertionSuccess();
}
/// A correct release (min_eps_lb: the power check): EXPECT_TRUE(audit_passes(...)).
inline ::testing::AssertionResult audit_passes(const std::string& what, const audit_report& r,
                                               std::optional<double> min_eps_lb = std::nullopt) {
  return audit_verdict(what, r, false, min_eps_lb);
}
/// A negative control (above: ε_lb must exceed the claim): EXPECT_TRUE(audit_flagged(...)).
inline ::testing::AssertionResult audit_flagged(const std::string& what, const audit_report& r,
                                                std::optional<double> above = std::nullopt) {
  return audit_verdict(what, r, true, above);
}

/// Identity statistic of scalar outputs.
inline double identity(double y) { return y; }

/// The library's floating-point releases x + noise (scale b or σ) as audit mechanisms.
inline auto laplace_release(double b) {
  return [b](const double& x, philox_stream& s) {
    return mechanisms::laplace_mechanism<double>(s, x, b);
  };
}
inline auto gaussian_release(double sigma) {
  return [sigma](const double& x, philox_stream& s) {
    return mechanisms::gaussian_mechanism<double>(s, x, sigma);
  };
}
inline auto vector_laplace_release(double b) {
  return [b](const dpref::vector<double>& x, philox_stream& s) {
    return mechanisms::vector_laplace_mechanism<double>(s, x, b);
  };
}

}  // namespace dpref::audit::test_support
