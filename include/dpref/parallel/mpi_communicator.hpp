// MPI implementation of parallel::communicator (spec/distributed.md DIST.COMM). Include only
// in translation units built with MPI (CMake target dpref::mpi, DPREF_HAVE_MPI).
#pragma once

#include <mpi.h>

#include <cstdint>
#include <cstdio>
#include <numeric>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "dpref/parallel/communicator.hpp"

namespace dpref::parallel {

/// Payload bytes (doubles and integers of the operations, not the MPI envelopes) this rank
/// received, by operation, for the measurements of spec/distributed.md.
struct traffic {
  std::uint64_t allgather = 0, gather = 0, exchange = 0, broadcast = 0, reduce = 0;
  std::uint64_t exchange_sent = 0;
};

class mpi_communicator final : public communicator {
 public:
  explicit mpi_communicator(MPI_Comm comm = MPI_COMM_WORLD) : comm_(comm) {
    MPI_Comm_rank(comm_, &rank_);
    MPI_Comm_size(comm_, &size_);
  }
  [[nodiscard]] int rank() const override { return rank_; }
  [[nodiscard]] int size() const override { return size_; }
  void allreduce_sum(std::span<std::uint64_t> data) const override {
    check(MPI_Allreduce(MPI_IN_PLACE, data.data(), static_cast<int>(data.size()), MPI_UINT64_T,
                        MPI_SUM, comm_),
          "MPI_Allreduce");
    stats_.reduce += 8 * data.size();
  }
  [[nodiscard]] std::vector<double> allgather(std::span<const double> local) const override {
    const int n = static_cast<int>(local.size());
    std::vector<int> counts(static_cast<std::size_t>(size_)), displs(counts.size());
    check(MPI_Allgather(&n, 1, MPI_INT, counts.data(), 1, MPI_INT, comm_), "MPI_Allgather");
    std::exclusive_scan(counts.begin(), counts.end(), displs.begin(), 0);
    std::vector<double> out(static_cast<std::size_t>(displs.back() + counts.back()));
    check(MPI_Allgatherv(local.data(), n, MPI_DOUBLE, out.data(), counts.data(), displs.data(),
                         MPI_DOUBLE, comm_),
          "MPI_Allgatherv");
    stats_.allgather += 8 * (out.size() - local.size());
    return out;
  }
  [[nodiscard]] std::vector<double> gather(std::span<const double> local, int root) const override {
    const int n = static_cast<int>(local.size());
    std::vector<int> counts(rank_ == root ? static_cast<std::size_t>(size_) : 0), displs;
    check(MPI_Gather(&n, 1, MPI_INT, counts.data(), 1, MPI_INT, root, comm_), "MPI_Gather");
    std::vector<double> out;
    if (rank_ == root) {
      displs.resize(counts.size());
      std::exclusive_scan(counts.begin(), counts.end(), displs.begin(), 0);
      out.resize(static_cast<std::size_t>(displs.back() + counts.back()));
    }
    check(MPI_Gatherv(local.data(), n, MPI_DOUBLE, out.data(), counts.data(), displs.data(),
                      MPI_DOUBLE, root, comm_),
          "MPI_Gatherv");
    if (rank_ == root) stats_.gather += 8 * (out.size() - local.size());
    return out;
  }
  /// Non-blocking sends (tag exchange_tag), then blocking receives of probed length.
  [[nodiscard]] std::vector<std::vector<double>> exchange(
      std::span<const message> sends, std::span<const int> from) const override {
    std::vector<MPI_Request> req(sends.size());
    for (std::size_t i = 0; i < sends.size(); ++i) stats_.exchange_sent += 8 * sends[i].data.size();
    for (std::size_t i = 0; i < sends.size(); ++i)
      check(MPI_Isend(sends[i].data.data(), static_cast<int>(sends[i].data.size()), MPI_DOUBLE,
                      sends[i].peer, exchange_tag, comm_, &req[i]),
            "MPI_Isend");
    std::vector<std::vector<double>> out(from.size());
    for (std::size_t i = 0; i < from.size(); ++i) {
      MPI_Status st;
      check(MPI_Probe(from[i], exchange_tag, comm_, &st), "MPI_Probe");
      int count = 0;
      check(MPI_Get_count(&st, MPI_DOUBLE, &count), "MPI_Get_count");
      out[i].resize(static_cast<std::size_t>(count));
      check(MPI_Recv(out[i].data(), count, MPI_DOUBLE, from[i], exchange_tag, comm_,
                     MPI_STATUS_IGNORE),
            "MPI_Recv");
      stats_.exchange += 8 * out[i].size();
    }
    check(MPI_Waitall(static_cast<int>(req.size()), req.data(), MPI_STATUSES_IGNORE),
          "MPI_Waitall");
    return out;
  }
  void broadcast(std::span<double> data, int root) const override {
    check(MPI_Bcast(data.data(), static_cast<int>(data.size()), MPI_DOUBLE, root, comm_),
          "MPI_Bcast");
    if (rank_ != root) stats_.broadcast += 8 * data.size();
  }
  [[nodiscard]] bool any(bool flag) const override {
    int in = flag ? 1 : 0, out = 0;
    check(MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_LOR, comm_), "MPI_Allreduce");
    return out != 0;
  }
  void barrier() const override { check(MPI_Barrier(comm_), "MPI_Barrier"); }
  /// Bytes received so far (not thread-safe: the drivers call the communicator from one thread).
  [[nodiscard]] const traffic& received() const { return stats_; }
  [[noreturn]] void abort(int code, std::string_view message) const override {
    std::fprintf(stderr, "dpref: rank %d of %d: %.*s\n", rank_, size_,
                 static_cast<int>(message.size()), message.data());
    std::fflush(stderr);
    MPI_Abort(comm_, code);
    std::abort();  // MPI_Abort does not return
  }

 private:
  static void check(int rc, const char* what) {
    if (rc != MPI_SUCCESS) throw std::runtime_error(std::string(what) + " failed");
  }
  static constexpr int exchange_tag = 17;
  mutable traffic stats_;
  MPI_Comm comm_;
  int rank_ = 0, size_ = 1;
};

}  // namespace dpref::parallel
