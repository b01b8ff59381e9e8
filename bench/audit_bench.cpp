// Auditor throughput (issue 3 target: >= 1e7 Laplace samples/s on one core in double).
// Each iteration draws n outputs of the Laplace mechanism with one thread and counts them in a
// 136-cell threshold family, exactly as one sample set of an audit (count_cells). Reported as
// items_per_second = samples/s. Samplers: dpref::fast::laplace (one word per draw, double
// arithmetic) and the reference dpref::laplace<double> (long double inversion).
#include <benchmark/benchmark.h>

#include "dpref/audit/auditor.hpp"
#include "dpref/audit/events.hpp"
#include "dpref/mechanisms/laplace.hpp"

namespace {

std::vector<dpref::audit::event_family<double>> families() {
  return {dpref::audit::threshold_family<double>(
      "threshold", [](double y) { return y; }, -8, 9, 136)};
}

template <bool Fast>
void BM_audit_laplace_samples(benchmark::State& state) {
  const auto fams = families();
  const auto n = static_cast<std::uint64_t>(state.range(0));
  const auto sampler = [](dpref::philox_stream& s) {
    if constexpr (Fast)
      return dpref::mechanisms::laplace_mechanism_fast(s, 0.0, 1.0);
    else
      return dpref::mechanisms::laplace_mechanism<double>(s, 0.0, 1.0);
  };
  std::uint64_t seed = 1;
  for (auto _ : state) {
    auto counts = dpref::audit::count_cells<double>(sampler, fams, n, seed++, 0, 1, 1u << 14);
    benchmark::DoNotOptimize(counts);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(n));
}

BENCHMARK(BM_audit_laplace_samples<true>)
    ->Name("audit/laplace_fast_1thread")
    ->Arg(1 << 22)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_audit_laplace_samples<false>)
    ->Name("audit/laplace_reference_1thread")
    ->Arg(1 << 22)
    ->Unit(benchmark::kMillisecond);

}  // namespace
