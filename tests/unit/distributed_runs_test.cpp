// spec/distributed.md DIST.EV, DIST.DDA, DIST.COMM (exact transfer): the distributed ev and dda
// runs on a fake multi-rank communicator (P threads of one process exchanging through shared
// slots) are bit-identical to the serial run for several P, at double and mp50. The expected
// values are the serial runs (the default communicator), an independent code path: the serial
// engine never packs, gathers or splits blocks.
#include <gtest/gtest.h>

#include <barrier>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <initializer_list>
#include <limits>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "dpref/dda/run.hpp"
#include "dpref/ev/json.hpp"
#include "dpref/ev/run.hpp"
#include "dpref/parallel/communicator.hpp"
#include "dpref/parallel/exact_transfer.hpp"
#include "dpref/parallel/worker_scope.hpp"
#include "support/dda_data.hpp"
#include "support/ev_problems.hpp"

namespace dpref {
namespace {

/// Shared state of P fake ranks (threads): one slot per rank, a barrier around every
/// collective, and FIFO mailboxes (from, to) for the point-to-point exchange.
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
  std::mutex mail_mutex;
  std::condition_variable mail_cv;
  std::map<std::pair<int, int>, std::deque<std::vector<double>>> mail;
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
  [[nodiscard]] std::vector<double> gather(std::span<const double> local, int root) const override {
    std::vector<double> all = allgather(local);
    if (rank_ != root) all.clear();
    return all;
  }
  [[nodiscard]] std::vector<std::vector<double>> exchange(
      std::span<const parallel::message> sends, std::span<const int> from) const override {
    {
      const std::lock_guard lock(h_.mail_mutex);
      for (const auto& m : sends) h_.mail[{rank_, m.peer}].push_back(m.data);
    }
    h_.mail_cv.notify_all();
    std::vector<std::vector<double>> out;
    std::unique_lock lock(h_.mail_mutex);
    for (const int q : from) {
      auto& box = h_.mail[{q, rank_}];
      h_.mail_cv.wait(lock, [&] { return !box.empty(); });
      out.push_back(std::move(box.front()));
      box.pop_front();
    }
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
    const parallel::thread_numerics numerics = parallel::thread_numerics::current();
    for (int r = 0; r < ranks; ++r)
      pool.emplace_back([&, r] {
        // the caller's precisions; frees this thread's MPFR caches (LeakSanitizer)
        const parallel::worker_scope scope(numerics);
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

TEST(DIST_COMM, SerialGatherAndExchangeDeliverToItself) {
  const parallel::communicator& c = parallel::serial();
  const std::vector<double> local = {1.5, -2.0};
  EXPECT_EQ(c.gather(local, 0), local);
  const parallel::message m[] = {{0, {3.0}}, {0, {4.0, 5.0}}};
  const int from[] = {0, 0};
  const auto got = c.exchange(m, from);  // delivered in the order sent
  ASSERT_EQ(got.size(), 2U);
  EXPECT_EQ(got[0], std::vector<double>{3.0});
  EXPECT_EQ(got[1], (std::vector<double>{4.0, 5.0}));
  const parallel::message other[] = {{1, {3.0}}};
  EXPECT_THROW((void)c.exchange(other, {}), std::invalid_argument);  // no rank 1
  EXPECT_THROW((void)c.exchange({}, from), std::logic_error);        // nothing was sent
}

/// ev on 5 blocks of 1024 users (+ a partial one): T = 6, n = 5000.
template <class Real>
ev::problem<Real> ev_problem(Eigen::Index n) {
  return test::ev_small_problem<Real>(11, 6, n, Real(n));
}

template <class Real>
ev::params<Real> ev_params(ev::algorithm_kind a, long long k) {
  auto p = test::ev_alg2_params<Real>(k, Real(1));
  p.algorithm = a;
  if (a == ev::algorithm_kind::projected_sgd) p.gradient_noise = Real(0.5);
  p.diagnostics = true;  // the objective trace of Algorithm 2 is a non-private diagnostic
  p.trace = true;
  return p;
}

/// Global column range [first, end) of rank q of P over N columns, derived here from the rule of
/// spec/distributed.md DIST.EV (rank q owns the 1024-column blocks ⌊Bq/P⌋ .. ⌊B(q+1)/P⌋ − 1,
/// B = ⌈N/1024⌉), not from the library.
std::pair<Eigen::Index, Eigen::Index> expected_columns(Eigen::Index n, int ranks, int q) {
  const Eigen::Index blocks = (n + 1023) / 1024;
  const auto at = [&](Eigen::Index b) { return std::min<Eigen::Index>(n, 1024 * b); };
  return {at(blocks * q / ranks), at(blocks * (q + 1) / ranks)};
}

/// `b` (rank q of P) against the serial `a`: every member bit for bit; rank 0 holds all N
/// schedule columns, a rank q > 0 only its owned columns.
template <class Real>
void expect_ev_identical(const ev::result<Real>& a, const ev::result<Real>& b, int ranks = 1,
                         int q = 0) {
  EXPECT_TRUE(same_bits(a.released, b.released));
  EXPECT_TRUE(same_bits(a.gradients, b.gradients));
  if (q == 0) {
    EXPECT_EQ(b.schedules_first_column, 0);
    EXPECT_TRUE(same_bits(a.final_schedules, b.final_schedules));
    EXPECT_TRUE(same_bits(a.averaged_schedules, b.averaged_schedules));
  } else {
    const auto [c0, c1] = expected_columns(a.final_schedules.cols(), ranks, q);
    EXPECT_EQ(b.schedules_first_column, c0);
    EXPECT_EQ(b.final_schedules.cols(), c1 - c0);  // only its slice
    const matrix<Real> fa = a.final_schedules.middleCols(c0, c1 - c0);
    const matrix<Real> ha = a.averaged_schedules.middleCols(c0, c1 - c0);
    EXPECT_TRUE(same_bits(fa, b.final_schedules));
    EXPECT_TRUE(same_bits(ha, b.averaged_schedules));
  }
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
      for (int q = 0; q < ranks; ++q) expect_ev_identical(serial, runs[q], ranks, q);
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
  for (int q = 0; q < 2; ++q) expect_ev_identical(serial, runs[q], 2, q);
}

// SEC.EV: the lattice releases are drawn by rank 0 from the substreams of the idealised run
// and broadcast exactly, so the secure run is bit-identical over ranks and threads too.
TEST(DIST_EV, SecureRanksAndThreadsGiveTheSerialBits) {
  const auto prob = ev_problem<double>(5000);
  const philox_stream stream(20261121, 3);
  auto p = ev_params<double>(ev::algorithm_kind::private_projected_gradient, 5);
  p.release = noise_mode::secure;
  const ev::result<double> serial = ev::run(prob, p, stream);
  ASSERT_EQ(serial.privacy.noise, noise_mode::secure);
  for (int ranks : {2, 3}) {
    SCOPED_TRACE("ranks " + std::to_string(ranks));
    p.threads = ranks == 3 ? 2 : 1;
    const auto runs = on_ranks<ev::result<double>>(
        ranks, [&](const parallel::communicator& c) { return ev::run(prob, p, stream, {}, c); });
    for (int q = 0; q < ranks; ++q) expect_ev_identical(serial, runs[q], ranks, q);
  }
}

TEST(DIST_EV, Mp50RanksGiveTheSerialBits) {
  const auto prob = ev_problem<mp50>(2100);  // 3 blocks
  const philox_stream stream(20261121, 1);
  const auto p = ev_params<mp50>(ev::algorithm_kind::private_projected_gradient, 3);
  const ev::result<mp50> serial = ev::run(prob, p, stream);
  const auto runs = on_ranks<ev::result<mp50>>(
      3, [&](const parallel::communicator& c) { return ev::run(prob, p, stream, {}, c); });
  for (int q = 0; q < 3; ++q) expect_ev_identical(serial, runs[q], 3, q);
}

/// The slice of ev_problem(n) that rank q of `c` holds: its owned columns' specs only, each
/// drawn from its own substream (as make_problem(spec, comm) does).
template <class Real>
ev::problem<Real> ev_slice(Eigen::Index n, const parallel::communicator& c) {
  const auto [c0, c1] = expected_columns(n, c.size(), c.rank());
  auto specs = ev::draw_specs_range<Real>(11, 6, c0, c1 - c0, test::ev_spec_distribution<Real>());
  return ev::problem<Real>(test::ev_base_load<Real>(6), Real(n), specs, Real(1),
                           ev::column_slice{c0, n});
}

TEST(DIST_EV, SlicesHoldOnlyTheirColumnsAndGiveTheSerialBits) {
  const auto prob = ev_problem<double>(5000);
  const philox_stream stream(20261121, 1);
  for (const auto a : {ev::algorithm_kind::private_projected_gradient,
                       ev::algorithm_kind::projected_gradient, ev::algorithm_kind::projected_sgd}) {
    auto p = ev_params<double>(a, 5);
    // Algorithm 1: the projected-zero start makes the initial load depend on every column (summed
    // in column order along the ranks)
    if (a == ev::algorithm_kind::projected_gradient) p.start = ev::start_kind::projected_zero;
    const ev::result<double> serial = ev::run(prob, p, stream);
    for (int ranks : {2, 3, 7}) {
      SCOPED_TRACE("ranks " + std::to_string(ranks));
      std::vector<Eigen::Index> held(static_cast<std::size_t>(ranks));
      const auto runs = on_ranks<ev::result<double>>(ranks, [&](const parallel::communicator& c) {
        const auto slice = ev_slice<double>(5000, c);
        held[static_cast<std::size_t>(c.rank())] = slice.specs().max_rate.cols();
        return ev::run(slice, p, stream, {}, c);
      });
      for (int q = 0; q < ranks; ++q) {
        const auto [c0, c1] = expected_columns(5000, ranks, q);
        EXPECT_EQ(held[static_cast<std::size_t>(q)], c1 - c0);  // specs of its users only
        expect_ev_identical(serial, runs[static_cast<std::size_t>(q)], ranks, q);
      }
    }
  }
  // P = 3: rank 1 owns blocks 1, 2 (columns 1024..3071), rank 2 blocks 3, 4 (3072..4999)
  EXPECT_EQ(expected_columns(5000, 3, 1), std::make_pair(Eigen::Index(1024), Eigen::Index(3072)));
  EXPECT_EQ(ev::owned_columns(5000, 3, 2).begin, 3072);
  EXPECT_EQ(ev::owned_columns(5000, 3, 2).end, 5000);
}

// N = 1000 columns fit in one reduction block: rank 0's slice holds every column and rank 1's
// none (examples/ev.json on 2 ranks). Both must take the slice protocol (rank 0 used to take the
// whole-problem one and never sent the initial load: "parallel::unpack: buffer too short").
TEST(DIST_EV, OneBlockOnTwoRanksGivesTheSerialBits) {
  const auto prob = ev_problem<double>(1000);
  const philox_stream stream(20261121, 1);
  for (const auto a :
       {ev::algorithm_kind::private_projected_gradient, ev::algorithm_kind::projected_gradient}) {
    auto p = ev_params<double>(a, 4);
    if (a == ev::algorithm_kind::projected_gradient) p.start = ev::start_kind::projected_zero;
    const ev::result<double> serial = ev::run(prob, p, stream);
    const auto runs = on_ranks<ev::result<double>>(2, [&](const parallel::communicator& c) {
      const auto slice = ev_slice<double>(1000, c);
      EXPECT_TRUE(slice.is_slice());
      return ev::run(slice, p, stream, {}, c);
    });
    for (int q = 0; q < 2; ++q)
      expect_ev_identical(serial, runs[static_cast<std::size_t>(q)], 2, q);
  }
}

TEST(DIST_EV, Mp50SlicesGiveTheSerialBits) {
  const auto prob = ev_problem<mp50>(2100);  // 3 blocks
  const philox_stream stream(20261121, 1);
  const auto p = ev_params<mp50>(ev::algorithm_kind::projected_sgd, 3);
  const ev::result<mp50> serial = ev::run(prob, p, stream);
  const auto runs = on_ranks<ev::result<mp50>>(3, [&](const parallel::communicator& c) {
    return ev::run(ev_slice<mp50>(2100, c), p, stream, {}, c);
  });
  for (int q = 0; q < 3; ++q) expect_ev_identical(serial, runs[static_cast<std::size_t>(q)], 3, q);
}

TEST(DIST_EV, MakeProblemDrawsOnlyTheOwnedSpecs) {
  ev::problem_spec<double> spec;
  spec.users = 2500;
  for (const auto mode : {ev::spec_mode::per_user, ev::spec_mode::grouped}) {
    spec.mode = mode;
    spec.groups = 2100;  // grouped: 2100 columns, the first 400 of multiplicity 2
    const auto whole = ev::make_problem(spec);
    const Eigen::Index n = whole.groups();
    const auto slices = on_ranks<std::vector<double>>(2, [&](const parallel::communicator& c) {
      const auto s = ev::make_problem(spec, c);
      const auto [c0, c1] = expected_columns(n, 2, c.rank());
      std::vector<double> bad;  // differences against the whole problem's columns
      if (s.first_column() != c0 || s.groups() != c1 - c0 || s.total_columns() != n)
        bad.push_back(-1);
      for (Eigen::Index l = 0; l < s.groups() && bad.empty(); ++l)
        if (s.specs().max_rate.col(l) != whole.specs().max_rate.col(c0 + l) ||
            s.specs().energy[l] != whole.specs().energy[c0 + l] ||
            s.multiplicity(l) != whole.multiplicity(c0 + l))
          bad.push_back(static_cast<double>(l));
      return bad;
    });
    EXPECT_TRUE(slices[0].empty());
    EXPECT_TRUE(slices[1].empty());
  }
  EXPECT_EQ(ev::group_size(2500, 2100, 399), 2);
  EXPECT_EQ(ev::group_size(2500, 2100, 400), 1);
}

TEST(DIST_EV, SliceMisuseIsRefused) {
  const auto p = ev_params<double>(ev::algorithm_kind::projected_gradient, 2);
  auto with_optimum = p;
  with_optimum.optimum = true;
  const philox_stream stream(1, 1);
  const auto errors = on_ranks<std::vector<std::string>>(2, [&](const parallel::communicator& c) {
    std::vector<std::string> out;
    const auto slice = ev_slice<double>(3000, c);
    try {
      (void)ev::run(slice, with_optimum, stream, {}, c);  // the optimum needs the whole problem
    } catch (const std::invalid_argument& e) {
      out.emplace_back(e.what());
    }
    try {  // a slice is not a serial problem
      (void)ev::run(slice, p, stream);
    } catch (const std::logic_error& e) {
      out.emplace_back(e.what());
    }
    return out;
  });
  for (const auto& e : errors) {
    ASSERT_EQ(e.size(), 2U);
    EXPECT_NE(e[0].find("needs the whole problem"), std::string::npos);
    EXPECT_NE(e[1].find("not this rank's slice"), std::string::npos);
  }
}

dda::network dda_net(int n, dda::activation_mode m) {
  // nodes: 4 active per round
  return test::dda_complete_network(n, m, m == dda::activation_mode::nodes ? 4 : 1);
}

/// `b` (rank q of P) against the serial `a`: rank 0 every member bit for bit; a rank q > 0 only
/// its own nodes [⌊nq/P⌋, ⌊n(q+1)/P⌋) (derived here from DIST.DDA's rule).
template <class Real>
void expect_dda_identical(const dda::result<Real>& a, const dda::result<Real>& b, int ranks = 1,
                          int q = 0) {
  if (q > 0) {
    const auto n = static_cast<int>(a.x_tilde.cols());
    const int i0 = n * q / ranks, i1 = n * (q + 1) / ranks;
    EXPECT_EQ(b.first_node, i0);
    const matrix<Real> xa = a.x_tilde.middleCols(i0, i1 - i0), za = a.z.middleCols(i0, i1 - i0);
    EXPECT_TRUE(same_bits(xa, b.x_tilde));
    EXPECT_TRUE(same_bits(za, b.z));
    EXPECT_EQ(std::vector<long long>(a.active_rounds.begin() + i0, a.active_rounds.begin() + i1),
              b.active_rounds);
    EXPECT_EQ(b.x_bar.size(), 0);  // rank 0's result only
    EXPECT_TRUE(b.trace.empty());
    return;
  }
  EXPECT_EQ(b.first_node, 0);
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

/// The DIST.DDA parameters: T rounds, a snapshot every k.
dda::params<double> dist_dda_params(long long iterations, long long trace_every) {
  auto p = test::dda_base_params(iterations);
  p.trace_every = trace_every;
  return p;
}

/// `p` on each P of `rank_counts` fake ranks: every rank against the serial run.
void expect_dda_ranks_match(const dda::problem<double>& prob, const dda::network& net,
                            const dda::params<double>& p, const philox_stream& stream,
                            const dda::result<double>& serial,
                            std::initializer_list<int> rank_counts) {
  for (int ranks : rank_counts) {
    SCOPED_TRACE("ranks " + std::to_string(ranks));
    const auto runs = on_ranks<dda::result<double>>(
        ranks, [&](const parallel::communicator& c) { return dda::run(prob, net, p, stream, c); });
    for (int q = 0; q < ranks; ++q)
      expect_dda_identical(serial, runs[static_cast<std::size_t>(q)], ranks, q);
  }
}

TEST(DIST_DDA, RanksGiveTheSerialBits) {
  const auto prob = test::dda_synthetic_problem(400, 5, 7, 10);
  auto p = dist_dda_params(120, 50);
  p.diagnostics = true;  // the trace of a private run is a diagnostic (PRIV.RELEASE)
  const philox_stream stream(20261121, 1);
  for (const auto mode : {dda::activation_mode::edges, dda::activation_mode::nodes}) {
    dda::network net = dda_net(10, mode);
    // node activation: conventional (non-private) rounds, several active nodes per round
    if (mode == dda::activation_mode::nodes) p.calibration = dda::calibration_kind::none;
    const dda::result<double> serial = dda::run(prob, net, p, stream);
    ASSERT_EQ(serial.trace.size(), 3U);
    // 11 ranks > 10 nodes: one rank owns no node
    expect_dda_ranks_match(prob, net, p, stream, serial, {2, 3, 4, 11});
  }
}

/// A short run (edge activation, 30 rounds, P = 3, conventional rounds): the fast DDA case of
/// the ThreadSanitizer phase (point-to-point messages and gathers between the fake ranks).
TEST(DIST_DDA, SmallRunOnRanks) {
  const auto prob = test::dda_synthetic_problem(60, 3, 5, 6);
  auto p = dist_dda_params(30, 10);
  p.calibration = dda::calibration_kind::none;  // no σ search: the case stays short under TSan
  const philox_stream stream(3, 1);
  const dda::network net = dda_net(6, dda::activation_mode::edges);
  const dda::result<double> serial = dda::run(prob, net, p, stream);
  expect_dda_ranks_match(prob, net, p, stream, serial, {3});
}

/// Secure mode (spec/dda.md SEC.DDA): the lattice Gaussian is drawn from each node's substream,
/// so the ranks still give the serial bits, and the serial run is the threaded one.
TEST(DIST_DDA, SecureRanksGiveTheSerialBits) {
  const auto prob = test::dda_synthetic_problem(200, 4, 9, 8);
  auto p = dist_dda_params(60, 20);
  p.diagnostics = true;  // the trace of a private run is a diagnostic (PRIV.RELEASE)
  p.release = noise_mode::secure;
  const philox_stream stream(4, 1);
  const dda::network net = dda_net(8, dda::activation_mode::edges);
  const dda::result<double> serial = dda::run(prob, net, p, stream);
  EXPECT_EQ(serial.privacy.noise, noise_mode::secure);
  expect_dda_ranks_match(prob, net, p, stream, serial, {2, 3});
}

}  // namespace
}  // namespace dpref
