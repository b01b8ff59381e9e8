// Joint parts of an event (spec/accounting.md ACC.EVENT.JOINT): mechanisms that read the same
// sample are composed on the sample and amplified once; the JSON round-trips bit for bit; every
// malformed joint event is refused naming the field.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "dpref/accounting/accounting.hpp"
#include "dpref/accounting/ledger_json.hpp"
#include "support/messages.hpp"

namespace {

using namespace dpref;
using namespace dpref::accounting;

using dpref::test::message_of;

template <class R>
event<R> gradient_and_searches(const R& q, long long searches, long long count) {
  event<R> e = make_event<R>(gaussian_mechanism<R>{R(3), R(2)}, count, "gradient + searches");
  e.sampling = subsampling<R>{sampling_scheme::poisson, q, 0, 0, neighbouring::add_remove};
  sparse_vector_mechanism<R> svt;
  svt.sensitivity = R(1);
  svt.threshold_scale = R(2);
  svt.query_scale = R(4);
  svt.max_queries = 20;
  e.joint.push_back(make_event<R>(svt, searches));
  return e;
}

TEST(ACC_EVENT_JOINT, ComposesOnTheSampleThenAmplifiesOnce) {
  const double q = 0.1;
  const event<double> e = gradient_and_searches(q, 2, 7);
  accounting_options<double> opt;
  opt.delta = 1e-6;
  opt.max_order = 64;
  const auto orders = integer_orders<double>(2, 64);
  // Independent composition: base = Gaussian RDP + 2 × SVT RDP (proven bound), Zhu–Wang once,
  // × 7 samples.
  rdp_curve<double> base{orders, {}};
  for (const double a : orders)
    base.eps.push_back(a * 9.0 / (2 * 4.0) + 2 * svt_laplace_rdp(a, 0.5, 0.25));
  const auto want = rdp_to_dp(compose_rdp_steps(poisson_subsampled_rdp_zw(base, q), 7), 1e-6);
  const auto got = account<double>({e}, opt);
  EXPECT_NEAR(got.epsilon, want.guarantee.eps, 1e-12 * want.guarantee.eps);
  EXPECT_GE(got.epsilon, want.guarantee.eps * (1 - 1e-15));
  // Amplifying each part separately under-counts (linesearch LS.BATCH): the joint event costs
  // more than the gradient and the searches as separate subsampled events.
  event<double> g = make_event<double>(gaussian_mechanism<double>{3, 2}, 7);
  g.sampling = e.sampling;
  event<double> s = e.joint[0];
  s.count = 14;
  s.sampling = e.sampling;
  EXPECT_GT(got.epsilon, account<double>({g, s}, opt).epsilon);
  // Without sampling the joint event is the plain composition of its parts.
  event<double> plain = e;
  plain.sampling.reset();
  event<double> g1 = g, s1 = s;
  g1.sampling.reset();
  s1.sampling.reset();
  EXPECT_NEAR(account<double>({plain}, opt).epsilon, account<double>({g1, s1}, opt).epsilon, 1e-12);
}

TEST(ACC_EVENT_JOINT, JsonRoundTripsBitForBit) {
  for (int k = 0; k < 2; ++k) {
    accounting_options<mp50> opt;
    opt.delta = mp50(1) / 1000000;
    opt.max_order = 32;
    ledger<mp50> l(opt);
    l.record(gradient_and_searches<mp50>(mp50(1) / 7, 1 + k, 3));
    const io::json j = ledger_value(l);
    ASSERT_TRUE(j["events"][0].contains("joint"));
    const io::document d = io::document::parse(j.dump(), "test");
    const ledger<mp50> back = read_ledger<mp50>(io::node(d));
    EXPECT_EQ(back.total().epsilon, l.total().epsilon);
    EXPECT_EQ(back.events()[0].joint.size(), 1u);
    EXPECT_EQ(back.events()[0].joint[0].count, 1 + k);
  }
}

TEST(ACC_EVENT_JOINT, MalformedJointEventsAreRefusedNamingTheField) {
  event<double> e = gradient_and_searches(0.1, 1, 1);
  e.joint[0].sampling = e.sampling;
  EXPECT_NE(message_of([&] { validate(e); }).find("joint[0].sampling"), std::string::npos);
  e = gradient_and_searches(0.1, 1, 1);
  e.joint[0].joint.push_back(e.joint[0]);
  EXPECT_NE(message_of([&] { validate(e); }).find("joint[0].joint"), std::string::npos);
  e = gradient_and_searches(0.1, 1, 1);
  e.joint.push_back(make_event<double>(approx_mechanism<double>{1, 1e-6}));
  EXPECT_NE(message_of([&] { validate(e); }).find("joint[1].mechanism"), std::string::npos);
  e = gradient_and_searches(0.1, 1, 1);
  e.how = analysis::pure;
  EXPECT_NE(message_of([&] { validate(e); }).find("event[gaussian].analysis"), std::string::npos);
  e = gradient_and_searches(0.1, 1, 1);
  e.sampling = subsampling<double>{sampling_scheme::without_replacement, 0, 10, 100,
                                   neighbouring::replace_one};
  EXPECT_NE(message_of([&] { validate(e); }).find("sampling.scheme"), std::string::npos);
  e = gradient_and_searches(0.1, 1, 1);
  e.joint[0].count = 0;
  EXPECT_NE(message_of([&] { validate(e); }).find("count"), std::string::npos);
  // The JSON reader refuses a part with its own sampling, naming the JSON path.
  const std::string text =
      R"({"accounting": {"delta": 1e-6}, "events": [{"mechanism": "gaussian", "sensitivity": 1,
          "sigma": 2, "count": 1, "sampling": {"scheme": "poisson", "rate": 0.1,
          "neighbouring": "add_remove"}, "joint": [{"mechanism": "gaussian", "sensitivity": 1,
          "sigma": 2, "count": 1, "sampling": {"scheme": "poisson", "rate": 0.1,
          "neighbouring": "add_remove"}}]}]})";
  const io::document d = io::document::parse(text, "ledger.json");
  EXPECT_NE(message_of([&] { (void)read_ledger<double>(io::node(d)); }).find("joint[0].sampling"),
            std::string::npos);
}

}  // namespace
