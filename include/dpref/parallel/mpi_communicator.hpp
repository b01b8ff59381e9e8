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
    return out;
  }
  void broadcast(std::span<double> data, int root) const override {
    check(MPI_Bcast(data.data(), static_cast<int>(data.size()), MPI_DOUBLE, root, comm_),
          "MPI_Bcast");
  }
  [[nodiscard]] bool any(bool flag) const override {
    int in = flag ? 1 : 0, out = 0;
    check(MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_LOR, comm_), "MPI_Allreduce");
    return out != 0;
  }
  void barrier() const override { check(MPI_Barrier(comm_), "MPI_Barrier"); }
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
  MPI_Comm comm_;
  int rank_ = 0, size_ = 1;
};

}  // namespace dpref::parallel
