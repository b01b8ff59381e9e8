// Shared helpers of the mechanism audits (tests/audit/mechanisms_audit.cpp and the slow runs).
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>

#include "dpref/audit/auditor.hpp"

namespace dpref::audit::test_support {

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

/// Identity statistic of scalar outputs.
inline double identity(double y) { return y; }

}  // namespace dpref::audit::test_support
