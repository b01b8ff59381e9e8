// spec/distributed.md DIST.COMM (the MPI side is tested by the `mpi` ctests).
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "dpref/parallel/communicator.hpp"

namespace {

using dpref::parallel::block_range;

TEST(DIST_COMM, BlockRangesPartitionInRankOrder) {
  for (std::int64_t n : {0, 1, 2, 5, 1024, 1000003})
    for (int p : {1, 2, 3, 7, 64}) {
      std::int64_t next = 0, lo = n, hi = 0;
      for (int r = 0; r < p; ++r) {
        const auto b = block_range(n, p, r);
        EXPECT_EQ(b.begin, next) << n << " " << p << " " << r;
        EXPECT_GE(b.size(), 0);
        lo = std::min(lo, b.size());
        hi = std::max(hi, b.size());
        next = b.end;
      }
      EXPECT_EQ(next, n);
      EXPECT_LE(hi - lo, 1);
    }
  EXPECT_THROW((void)block_range(10, 0, 0), std::invalid_argument);
  EXPECT_THROW((void)block_range(10, 2, 2), std::invalid_argument);
}

TEST(DIST_COMM, SerialCollectivesAreIdentities) {
  const auto& s = dpref::parallel::serial();
  EXPECT_EQ(s.rank(), 0);
  EXPECT_EQ(s.size(), 1);
  std::vector<std::uint64_t> c{1, 2, 3};
  s.allreduce_sum(c);
  EXPECT_EQ(c, (std::vector<std::uint64_t>{1, 2, 3}));
  const std::vector<double> x{0.5, -1.25};
  EXPECT_EQ(s.allgather(x), x);
  EXPECT_TRUE(s.any(true));
  EXPECT_FALSE(s.any(false));
}

}  // namespace
