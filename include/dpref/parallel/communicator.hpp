// Collective operations of distributed runs (spec/distributed.md DIST.COMM): the few
// operations the distributed drivers need, behind an interface so that the library stays
// usable without MPI. `serial_communicator` is one process; `mpi_communicator`
// (mpi_communicator.hpp, built only with MPI) spans the ranks of an MPI communicator.
//
// Determinism: every operation is exact (integer sums, gathers and broadcasts of bit patterns,
// no floating-point reductions), so a distributed run can reproduce the serial run bit for bit
// when the caller reduces floating-point values in a fixed order itself (ev: per-block partial
// sums gathered in block order).
#pragma once

#include <cstdint>
#include <cstdlib>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace dpref::parallel {

/// Contiguous share [begin, end) of `total` items for `rank` of `ranks` (sizes differ by <= 1).
struct range {
  std::int64_t begin = 0, end = 0;
  [[nodiscard]] std::int64_t size() const { return end - begin; }
};
inline range block_range(std::int64_t total, int ranks, int rank) {
  if (ranks < 1 || rank < 0 || rank >= ranks || total < 0)
    throw std::invalid_argument("parallel::block_range: need 0 <= rank < ranks, total >= 0");
  const std::int64_t r = rank, p = ranks;
  return {total * r / p, total * (r + 1) / p};
}

/// A point-to-point message of `exchange`: `data` for (or from) rank `peer`.
struct message {
  int peer = 0;
  std::vector<double> data;
};

/// The collective operations (every rank must call each one, in the same order).
/// @spec DIST.COMM
class communicator {
 public:
  virtual ~communicator() = default;
  [[nodiscard]] virtual int rank() const = 0;
  [[nodiscard]] virtual int size() const = 0;
  /// Elementwise exact sum of `data` over all ranks, result on every rank.
  virtual void allreduce_sum(std::span<std::uint64_t> data) const = 0;
  /// Concatenation, in rank order, of every rank's `local` (any lengths), on every rank.
  [[nodiscard]] virtual std::vector<double> allgather(std::span<const double> local) const = 0;
  /// Concatenation, in rank order, of every rank's `local` (any lengths), on rank `root` only
  /// (the other ranks get an empty vector): the root-only gather of final results.
  [[nodiscard]] virtual std::vector<double> gather(std::span<const double> local,
                                                   int root) const = 0;
  /// Point-to-point exchange (not collective: only the ranks named take part): sends each
  /// `sends[i].data` to rank `sends[i].peer`, then receives one message from each rank of
  /// `from`, in that order, and returns them. Messages between two ranks arrive in the order
  /// they were sent; every send must be matched by a receive on its destination.
  [[nodiscard]] virtual std::vector<std::vector<double>> exchange(
      std::span<const message> sends, std::span<const int> from) const = 0;
  /// `data` of rank `root` copied to every rank (same length everywhere).
  virtual void broadcast(std::span<double> data, int root) const = 0;
  /// Logical OR of `flag` over all ranks (used to stop every rank when one fails cleanly).
  [[nodiscard]] virtual bool any(bool flag) const = 0;
  virtual void barrier() const = 0;
  /// Terminates every rank with `code` after printing `message` (never returns).
  [[noreturn]] virtual void abort(int code, std::string_view message) const = 0;
  [[nodiscard]] bool is_root() const { return rank() == 0; }
};

/// One process.
class serial_communicator final : public communicator {
 public:
  [[nodiscard]] int rank() const override { return 0; }
  [[nodiscard]] int size() const override { return 1; }
  void allreduce_sum(std::span<std::uint64_t>) const override {}
  [[nodiscard]] std::vector<double> allgather(std::span<const double> local) const override {
    return {local.begin(), local.end()};
  }
  [[nodiscard]] std::vector<double> gather(std::span<const double> local, int) const override {
    return {local.begin(), local.end()};
  }
  /// Messages to itself are delivered in the order sent.
  [[nodiscard]] std::vector<std::vector<double>> exchange(
      std::span<const message> sends, std::span<const int> from) const override {
    for (const message& m : sends)
      if (m.peer != 0) throw std::invalid_argument("serial_communicator::exchange: peer != 0");
    if (from.size() > sends.size())
      throw std::logic_error("serial_communicator::exchange: a receive without a send");
    std::vector<std::vector<double>> out;
    for (std::size_t i = 0; i < from.size(); ++i) {
      if (from[i] != 0) throw std::invalid_argument("serial_communicator::exchange: source != 0");
      out.push_back(sends[i].data);
    }
    return out;
  }
  void broadcast(std::span<double>, int) const override {}
  [[nodiscard]] bool any(bool flag) const override { return flag; }
  void barrier() const override {}
  [[noreturn]] void abort(int code, std::string_view) const override { std::exit(code); }
};

/// The single-process communicator (a function-local constant: no mutable global state).
inline const communicator& serial() {
  static const serial_communicator s;
  return s;
}

}  // namespace dpref::parallel
