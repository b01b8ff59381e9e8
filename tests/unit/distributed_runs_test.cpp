// spec/distributed.md DIST.EV, DIST.DDA, DIST.COMM (exact transfer): the distributed ev and dda
// runs on a fake multi-rank communicator (P threads of one process exchanging through shared
// slots) are bit-identical to the serial run for several P, at double and mp50. The expected
// values are the serial runs (the default communicator), an independent code path: the serial
// engine never packs, gathers or splits blocks.
#include <gtest/gtest.h>

#include <barrier>
#include <cstdint>
#include <functional>
#include <limits>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "dpref/dda/run.hpp"
#include "dpref/ev/run.hpp"
#include "dpref/parallel/communicator.hpp"
#include "dpref/parallel/exact_transfer.hpp"

namespace dpref {
namespace {

/// Shared state of P fake ranks (threads): one slot per rank, a barrier around every exchange.
struct hub {
  explicit hub(int n)
      : ranks(n),
        sync(n),
        slots(static_cast<std::size_t>(n)),
        counts(static_cast<std::size_t>(n)) {}
  int ranks;
  std::barrier<> sync;
  std::vector<std::vector<double>> slots;
  std::vector<std::vector<std::uint64_t>> counts;
};

/// parallel::communicator over a hub: the collectives of mpi_communicator with shared memory.
class thread_communicator final : public parallel::communicator {
 public:
  thread_communicator(hub& h, int rank) : h_(h), rank_(rank) {}
  [[nodiscard]] int rank() const override { return rank_; }
  [[nodiscard]] int size() const override { return h_.ranks; }
  void allreduce_sum(std::span<std::uint64_t> data) const override {
    h_.counts[me()] = {data.begin(), data.end()};
    h_.sync.arrive_and_wait();
    for (std::size_t i = 0; i < data.size(); ++i) {
      data[i] = 0;
      for (const auto& c : h_.counts) data[i] += c[i];
    }
    h_.sync.arrive_and_wait();
  }
  [[nodiscard]] std::vector<double> allgather(std::span<const double> local) const override {
    h_.slots[me()] = {local.begin(), local.end()};
    h_.sync.arrive_and_wait();
    std::vector<double> out;
    for (const auto& s : h_.slots) out.insert(out.end(), s.begin(), s.end());
    h_.sync.arrive_and_wait();
    return out;
  }
  void broadcast(std::span<double> data, int root) const override {
    if (rank_ == root) h_.slots[me()] = {data.begin(), data.end()};
    h_.sync.arrive_and_wait();
    std::copy(h_.slots[static_cast<std::size_t>(root)].begin(),
              h_.slots[static_cast<std::size_t>(root)].end(), data.begin());
    h_.sync.arrive_and_wait();
  }
  [[nodiscard]] bool any(bool flag) const override {
    h_.slots[me()] = {flag ? 1.0 : 0.0};
    h_.sync.arrive_and_wait();
    bool out = false;
    for (const auto& s : h_.slots) out = out || s[0] != 0;
    h_.sync.arrive_and_wait();
    return out;
  }
  void barrier() const override { h_.sync.arrive_and_wait(); }
  [[noreturn]] void abort(int, std::string_view) const override { std::abort(); }

 private:
  [[nodiscard]] std::size_t me() const { return static_cast<std::size_t>(rank_); }
  hub& h_;
  int rank_;
};

/// f(comm) on P fake ranks (threads); the results in rank order.
template <class R>
std::vector<R> on_ranks(int ranks, const std::function<R(const parallel::communicator&)>& f) {
  hub h(ranks);
  std::vector<R> out(static_cast<std::size_t>(ranks));
  {
    std::vector<std::jthread> pool;
    for (int r = 0; r < ranks; ++r)
      pool.emplace_back([&, r] {
        const thread_communicator c(h, r);
        out[static_cast<std::size_t>(r)] = f(c);
      });
  }
  return out;
}

template <class M>
bool same_bits(const M& a, const M& b) {
  return a.rows() == b.rows() && a.cols() == b.cols() && (a.array() == b.array()).all();
}

TEST(DIST_COMM, ExactTransferRoundTripsWideScalars) {
  std::vector<double> buf;
  const mp50 third = mp50(1) / 3, tiny = mp50(-1) / mp50("1e30");
  const long double ld = 1.0L / 3;
  parallel::pack(third, buf);
  parallel::pack(tiny, buf);
  parallel::pack(mp50(-0.0), buf);
  parallel::pack(ld, buf);
  parallel::pack(0.1, buf);
  std::size_t pos = 0;
  EXPECT_EQ(parallel::unpack<mp50>(buf, pos), third);
  EXPECT_EQ(parallel::unpack<mp50>(buf, pos), tiny);
  EXPECT_EQ(parallel::unpack<mp50>(buf, pos), mp50(0));
  EXPECT_EQ(parallel::unpack<long double>(buf, pos), ld);
  EXPECT_EQ(parallel::unpack<double>(buf, pos), 0.1);
  EXPECT_EQ(pos, buf.size());
  // 1/3 at 50 digits (~167 bits) needs several 53-bit pieces: the expansion is not a rounding
  EXPECT_GE(buf[0], 3.0);
  EXPECT_NE(mp50(buf[1]), third);
  // a finite value outside the double range is refused, never rounded to infinity
  EXPECT_THROW(parallel::pack(mp50("1e400"), buf), std::range_error);
}

/// ev on 5 blocks of 1024 users (+ a partial one): T = 6, n = 5000.
template <class Real>
ev::problem<Real> ev_problem(Eigen::Index n) {
  ev::spec_distribution<Real> dist;
  dist.energy_min = 2;
  dist.energy_max = 5;
  auto specs = ev::draw_specs<Real>(11, 6, n, dist);
  vector<Real> d(6);
  for (Eigen::Index i = 0; i < 6; ++i) d[i] = Real(1) + Real(i % 3) / 2;
  return ev::problem<Real>(d, Real(n), specs, Real(1));
}

template <class Real>
ev::params<Real> ev_params(ev::algorithm_kind a, long long k) {
  ev::params<Real> p;
  p.algorithm = a;
  p.iterations = k;
  p.epsilon = Real(1);
  p.step = Real(2);
  p.delta_r = Real(3.3);
  p.delta_e = Real(3);
  if (a == ev::algorithm_kind::projected_sgd) p.gradient_noise = Real(0.5);
  p.trace = true;
  p.optimum = false;
  return p;
}

template <class Real>
void expect_ev_identical(const ev::result<Real>& a, const ev::result<Real>& b) {
  EXPECT_TRUE(same_bits(a.released, b.released));
  EXPECT_TRUE(same_bits(a.gradients, b.gradients));
  EXPECT_TRUE(same_bits(a.final_schedules, b.final_schedules));
  EXPECT_TRUE(same_bits(a.averaged_schedules, b.averaged_schedules));
  EXPECT_TRUE(same_bits(a.final_load, b.final_load));
  EXPECT_TRUE(same_bits(a.averaged_load, b.averaged_load));
  EXPECT_EQ(a.averaged_objective, b.averaged_objective);
  ASSERT_TRUE(a.trace && b.trace);
  EXPECT_EQ(a.trace->objective, b.trace->objective);
  EXPECT_EQ(a.status, b.status);
}

TEST(DIST_EV, RanksGiveTheSerialBitsForEveryAlgorithm) {
  const auto prob = ev_problem<double>(5000);
  const philox_stream stream(20261121, 1);
  for (const auto a : {ev::algorithm_kind::private_projected_gradient,
                       ev::algorithm_kind::projected_gradient, ev::algorithm_kind::projected_sgd}) {
    const auto p = ev_params<double>(a, 6);
    const ev::result<double> serial = ev::run(prob, p, stream);
    ASSERT_EQ(serial.final_schedules.cols(), 5000);
    for (int ranks : {2, 3, 7}) {  // 7 ranks > 5 blocks: some ranks own no block
      SCOPED_TRACE("ranks " + std::to_string(ranks));
      const auto runs = on_ranks<ev::result<double>>(
          ranks, [&](const parallel::communicator& c) { return ev::run(prob, p, stream, {}, c); });
      for (const auto& r : runs) expect_ev_identical(serial, r);
    }
  }
}

TEST(DIST_EV, ThreadsInsideRanksKeepTheBits) {
  const auto prob = ev_problem<double>(5000);
  const philox_stream stream(7, 2);
  auto p = ev_params<double>(ev::algorithm_kind::private_projected_gradient, 4);
  const ev::result<double> serial = ev::run(prob, p, stream);
  p.threads = 2;
  const auto runs = on_ranks<ev::result<double>>(
      2, [&](const parallel::communicator& c) { return ev::run(prob, p, stream, {}, c); });
  for (const auto& r : runs) expect_ev_identical(serial, r);
}

TEST(DIST_EV, Mp50RanksGiveTheSerialBits) {
  const auto prob = ev_problem<mp50>(2100);  // 3 blocks
  const philox_stream stream(20261121, 1);
  const auto p = ev_params<mp50>(ev::algorithm_kind::private_projected_gradient, 3);
  const ev::result<mp50> serial = ev::run(prob, p, stream);
  const auto runs = on_ranks<ev::result<mp50>>(
      3, [&](const parallel::communicator& c) { return ev::run(prob, p, stream, {}, c); });
  for (const auto& r : runs) expect_ev_identical(serial, r);
}

dda::network dda_net(int n, dda::activation_mode m) {
  dda::network net;
  net.graph = dda::graph_kind::complete;
  net.nodes = n;
  net.activation = m;
  net.per_step = m == dda::activation_mode::nodes ? 4 : 1;  // nodes: 4 active per round
  return net;
}

template <class Real>
void expect_dda_identical(const dda::result<Real>& a, const dda::result<Real>& b) {
  EXPECT_TRUE(same_bits(a.x_tilde, b.x_tilde));
  EXPECT_TRUE(same_bits(a.x_bar, b.x_bar));
  EXPECT_TRUE(same_bits(a.y_tilde, b.y_tilde));
  EXPECT_TRUE(same_bits(a.z, b.z));
  EXPECT_EQ(a.active_rounds, b.active_rounds);
  ASSERT_EQ(a.trace.size(), b.trace.size());
  for (std::size_t s = 0; s < a.trace.size(); ++s) {
    EXPECT_TRUE(same_bits(a.trace[s].x_bar, b.trace[s].x_bar));
    EXPECT_EQ(a.trace[s].consensus, b.trace[s].consensus);
  }
}

TEST(DIST_DDA, RanksGiveTheSerialBits) {
  auto data = dda::synthetic_data(400, 5, 7);
  const dda::problem<double> prob(data.X, data.y, 10, problems::regularizer<double>::l2(1e-3));
  dda::params<double> p;
  p.iterations = 120;
  p.epsilon = 0.8;
  p.delta = 1e-5;
  p.gamma = 1;
  p.trace_every = 50;
  const philox_stream stream(20261121, 1);
  for (const auto mode : {dda::activation_mode::edges, dda::activation_mode::nodes}) {
    dda::network net = dda_net(10, mode);
    // node activation: conventional (non-private) rounds, several active nodes per round
    if (mode == dda::activation_mode::nodes) p.calibration = dda::calibration_kind::none;
    const dda::result<double> serial = dda::run(prob, net, p, stream);
    ASSERT_EQ(serial.trace.size(), 3U);
    for (int ranks : {2, 3, 4, 11}) {  // 11 ranks > 10 nodes: one rank owns no node
      SCOPED_TRACE("ranks " + std::to_string(ranks));
      const auto runs = on_ranks<dda::result<double>>(ranks, [&](const parallel::communicator& c) {
        return dda::run(prob, net, p, stream, c);
      });
      for (const auto& r : runs) expect_dda_identical(serial, r);
    }
  }
}

}  // namespace
}  // namespace dpref
