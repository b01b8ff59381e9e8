// The ledger of a run read back from its JSON and re-accounted (what `dpref account` does) must
// give the run's guarantee bit for bit (spec/accounting.md ACC.LEDGER.JSON).
#pragma once

#include <cstddef>
#include <string>

#include <gtest/gtest.h>

#include "dpref/accounting/ledger_json.hpp"
#include "dpref/io/json.hpp"
#include "dpref/noise_mode.hpp"

namespace dpref::test {

/// EXPECTs that r.privacy.ledger's JSON, read back and totalled, is r.privacy.guarantee.
template <class R>
void expect_ledger_roundtrip(const R& r) {
  const io::json j = accounting::ledger_value(r.privacy.ledger);
  const auto back =
      accounting::read_ledger<double>(io::node(io::document::from_value(j, "ledger")));
  const auto g = back.total();
  EXPECT_EQ(g.epsilon, r.privacy.guarantee.epsilon);
  EXPECT_EQ(g.delta, r.privacy.guarantee.delta);
}

/// EXPECTs that r is a secure run within (ε, δ) whose ledger holds `events` events, the first a
/// snapped Gaussian (ASSERTs the count: wrap the call in ASSERT_NO_FATAL_FAILURE).
template <class R>
void expect_secure_snapped_ledger(const R& r, double epsilon, double delta, std::size_t events) {
  EXPECT_EQ(r.privacy.noise, noise_mode::secure);
  EXPECT_TRUE(r.privacy.budget_met);
  EXPECT_LE(r.privacy.guarantee.epsilon, epsilon);
  EXPECT_LE(r.privacy.guarantee.delta, delta);
  ASSERT_EQ(r.privacy.ledger.events().size(), events);
  EXPECT_EQ(r.privacy.ledger.events()[0].kind(), "snapped_gaussian");
}

/// EXPECTs that a ledger<R> of `events` (δ = 1e-5, orders up to 64), written as JSON and read
/// back, re-accounts to the same guarantee bit for bit and writes the same text; returns the
/// guarantee.
template <class R, class Events>
accounting::guarantee<R> expect_events_roundtrip(const Events& events) {
  accounting::accounting_options<R> opt;
  opt.delta = R(1) / 100000;
  opt.max_order = 64;
  accounting::ledger<R> l(opt);
  for (const auto& e : events) l.record(e);
  const accounting::guarantee<R> before = l.total();
  const std::string text = accounting::ledger_value(l).dump(1);
  const io::document d = io::document::parse(text, "ledger.json");
  const accounting::ledger<R> back = accounting::read_ledger<R>(io::node(d));
  const accounting::guarantee<R> after = back.total();
  EXPECT_EQ(after.epsilon, before.epsilon);
  EXPECT_EQ(after.delta, before.delta);
  EXPECT_EQ(accounting::ledger_value(back).dump(1), text);
  return before;
}

}  // namespace dpref::test
