// The generic statistical DP auditor (spec/audit.md AUDIT.AUDITOR, AUDIT.SPLIT, AUDIT.THREADS,
// AUDIT.HOCKEY).
//
// For every neighbour pair (D, D') the auditor
//  1. draws a SEARCH sample of n_s outputs of M(D) and of M(D') and counts them in the cells of
//     every event family;
//  2. chooses the event S (and the direction D→D' or D'→D) that maximises the lower bound a test
//     sample of size n_t would give if the search frequencies were exact (DP-Sniper style);
//  3. draws an independent TEST sample of n_t outputs per side and computes the exact one-sided
//     Clopper–Pearson bounds p_lo ≤ P[M(D)∈S] and p'_hi ≥ P[M(D')∈S], each at level
//     alpha / (2 · #pairs) (Bonferroni over the two bounds and the pairs; only ONE event per
//     pair is tested, so the search over events costs nothing);
//  4. reports ε_lb = ln((p_lo − δ)/p'_hi) and the verdict `violation` iff
//     p_lo − e^ε p'_hi > δ (hockey-stick form; for δ = 0 this is ε_lb > ε).
// If the mechanism is (ε, δ)-DP, P[violation reported] <= alpha.
//
// Sampling: sample i of a side lies in chunk c = i / chunk, drawn from the substream
// philox_stream(seed, stream_id(phase, pair, side), c); counts are integer sums over chunks, so
// the result is bit-identical for any number of threads.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <exception>
#include <limits>
#include <mutex>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include <boost/math/special_functions/erf.hpp>

#include "dpref/audit/clopper_pearson.hpp"
#include "dpref/audit/events.hpp"
#include "dpref/audit/neighbours.hpp"
#include "dpref/error.hpp"
#include "dpref/parallel/communicator.hpp"
#include "dpref/parallel/worker_scope.hpp"
#include "dpref/random/philox_stream.hpp"

namespace dpref::audit {

/// Settings of one audit. Sample sizes are per side (D and D') and per neighbour pair.
struct audit_config {
  std::uint64_t seed = 20261121;  ///< run seed of every sample
  std::uint64_t search_samples = 1u << 20;
  std::uint64_t test_samples = 1u << 20;
  double alpha = 1e-6;             ///< total false-alarm probability of the audit
  double epsilon = 1;              ///< claimed ε
  double delta = 0;                ///< claimed δ (0: pure DP)
  unsigned threads = 0;            ///< worker threads; 0 = std::thread::hardware_concurrency()
  std::uint64_t chunk = 1u << 14;  ///< samples per substream (part of the sampling plan)
  std::uint64_t min_count = 5;     ///< search counts below this are not chosen
  /// Processes sharing the sampling (nullptr: this process alone); results do not depend on it
  /// (spec/distributed.md DIST.AUDIT).
  const parallel::communicator* comm = nullptr;
};

/// The event chosen on the search sample.
struct chosen_event {
  std::size_t family = 0, group = 0, lo = 0, hi = 0;
  bool swapped = false;  ///< false: bound P[M(D)∈S]/P[M(D')∈S]; true: the reverse ratio
  std::string description;
  double search_score = -std::numeric_limits<double>::infinity();  ///< projected ε_lb
  std::uint64_t search_count_num = 0, search_count_den = 0;
};

/// Result of one neighbour pair.
struct pair_result {
  std::string pair;
  chosen_event event;
  std::uint64_t n = 0;                         ///< test samples per side
  std::uint64_t count_num = 0, count_den = 0;  ///< test counts of S (numerator, denominator side)
  double p_lower = 0, p_upper = 1;             ///< CP lower (numerator), upper (denominator)
  double eps_lb = -std::numeric_limits<double>::infinity();
  double delta_lb = 0;  ///< p_lo − e^ε p'_hi: lower bound of the hockey-stick divergence
  bool violation = false;
};

/// Result of an audit (all pairs).
struct audit_report {
  std::vector<pair_result> pairs;
  std::size_t worst = 0;  ///< pair with the largest ε_lb
  double eps_lb = -std::numeric_limits<double>::infinity();
  bool violation = false;
  double epsilon = 0, delta = 0;
  double alpha = 0;            ///< total false-alarm probability
  double alpha_per_bound = 0;  ///< level of each Clopper–Pearson bound
  std::uint64_t samples = 0;   ///< mechanism outputs drawn in total
  double seconds = 0;
  const pair_result& worst_pair() const { return pairs.at(worst); }
};

/// Stream id of (phase, pair, side): distinct for every sample set of an audit.
inline std::uint64_t audit_stream_id(unsigned phase, std::size_t pair, unsigned side) {
  return (std::uint64_t{0xA0D1} << 48) | (std::uint64_t{phase} << 40) |
         (static_cast<std::uint64_t>(pair) << 1) | side;
}

/// Counts n outputs in the cells of every family, drawing them chunk by chunk with
/// `fill(philox_stream& s, std::uint64_t m, std::vector<Output>& out)`, which appends the m
/// outputs of a chunk drawn from s (callable concurrently). Chunk c of the plan uses
/// philox_stream(seed, stream_id, c): the counts do not depend on `threads` — nor on the
/// number of processes: with a communicator of P ranks, rank r draws the contiguous chunk range
/// block_range(chunks, P, r) and the counts are summed exactly across ranks (DIST.AUDIT).
/// @spec AUDIT.THREADS DIST.AUDIT
template <class Output, class Fill>
std::vector<std::vector<std::uint64_t>> count_cells_batched(
    const Fill& fill, const std::vector<event_family<Output>>& fams, std::uint64_t n,
    std::uint64_t seed, std::uint64_t stream_id, unsigned threads, std::uint64_t chunk,
    const parallel::communicator& comm = parallel::serial()) {
  if (chunk == 0) fail_argument("dpref::audit::count_cells", "chunk", ">= 1", chunk);
  const std::uint64_t all_chunks = (n + chunk - 1) / chunk;
  const parallel::range mine =
      parallel::block_range(static_cast<std::int64_t>(all_chunks), comm.size(), comm.rank());
  const auto first = static_cast<std::uint64_t>(mine.begin);
  const auto chunks = static_cast<std::uint64_t>(mine.end);
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  threads = static_cast<unsigned>(
      std::min<std::uint64_t>(threads, std::max<std::uint64_t>(chunks - first, 1)));
  std::vector<std::vector<std::uint64_t>> total(fams.size());
  for (std::size_t f = 0; f < fams.size(); ++f) total[f].assign(fams[f].cells(), 0);
  std::atomic<std::uint64_t> next{first};
  std::mutex merge;
  std::exception_ptr error;
  auto work = [&] {
    try {
      std::vector<std::vector<std::uint64_t>> local(fams.size());
      for (std::size_t f = 0; f < fams.size(); ++f) local[f].assign(fams[f].cells(), 0);
      std::vector<Output> out;
      std::vector<std::uint32_t> cells;
      out.reserve(static_cast<std::size_t>(std::min(chunk, n)));
      cells.resize(static_cast<std::size_t>(std::min(chunk, n)));
      for (;;) {
        const std::uint64_t c = next.fetch_add(1);
        if (c >= chunks) break;
        philox_stream s(seed, stream_id, c);
        const std::uint64_t m = std::min(chunk, n - c * chunk);
        out.clear();
        fill(s, m, out);
        if (out.size() != m)
          fail_argument("dpref::audit::count_cells", "outputs of a chunk",
                        "exactly " + std::to_string(m), out.size());
        const std::span<const Output> ys(out.data(), out.size());
        const std::span<std::uint32_t> cs(cells.data(), out.size());
        for (std::size_t f = 0; f < fams.size(); ++f) {
          fams[f].classify(ys, cs);
          auto& l = local[f];
          for (const std::uint32_t cell : cs) ++l[cell];
        }
      }
      const std::lock_guard<std::mutex> lock(merge);
      for (std::size_t f = 0; f < fams.size(); ++f)
        for (std::size_t j = 0; j < total[f].size(); ++j) total[f][j] += local[f][j];
    } catch (...) {
      const std::lock_guard<std::mutex> lock(merge);
      if (!error) error = std::current_exception();
      next.store(chunks);
    }
  };
  if (threads == 1) {
    work();
  } else {
    std::vector<std::thread> pool;
    pool.reserve(threads);
    const parallel::thread_numerics numerics = parallel::thread_numerics::current();
    for (unsigned t = 0; t < threads; ++t)
      pool.emplace_back([&work, numerics] {
        const parallel::worker_scope scope(numerics);
        work();
      });
    for (auto& th : pool) th.join();
  }
  if (error) std::rethrow_exception(error);
  if (comm.size() > 1) {  // exact integer sums across ranks
    std::vector<std::uint64_t> flat;
    for (const auto& t : total) flat.insert(flat.end(), t.begin(), t.end());
    comm.allreduce_sum(flat);
    std::size_t k = 0;
    for (auto& t : total)
      for (auto& x : t) x = flat[k++];
  }
  return total;
}

/// Counts n outputs of `sampler` (philox_stream& -> Output, callable concurrently) in the cells
/// of every family: count_cells_batched with one sampler call per output.
/// @spec AUDIT.THREADS
template <class Output, class Sampler>
std::vector<std::vector<std::uint64_t>> count_cells(
    const Sampler& sampler, const std::vector<event_family<Output>>& fams, std::uint64_t n,
    std::uint64_t seed, std::uint64_t stream_id, unsigned threads, std::uint64_t chunk,
    const parallel::communicator& comm = parallel::serial()) {
  const auto fill = [&sampler](philox_stream& s, std::uint64_t m, std::vector<Output>& out) {
    for (std::uint64_t i = 0; i < m; ++i) out.push_back(sampler(s));
  };
  return count_cells_batched<Output>(fill, fams, n, seed, stream_id, threads, chunk, comm);
}

namespace detail {
/// Cheap Wilson-score version of the projected bound, used to shortlist candidates.
inline double wilson_score(double num, double den, double n, double z, double delta) {
  const auto bound = [&](double k, double sign) {
    const double p = k / n, z2 = z * z;
    const double c = (p + z2 / (2 * n)) / (1 + z2 / n);
    const double h = z / (1 + z2 / n) * std::sqrt(p * (1 - p) / n + z2 / (4 * n * n));
    return std::clamp(c + sign * h, 0.0, 1.0);
  };
  const double lo = bound(num, -1) - delta, hi = bound(den, +1);
  if (!(lo > 0) || !(hi > 0)) return -std::numeric_limits<double>::infinity();
  return std::log(lo / hi);
}

/// Projected ε_lb of a test sample of size n_t when the search frequencies are exact.
inline double projected_score(double num, double den, double n_search, double n_test, double alpha,
                              double delta) {
  const double r = n_test / n_search;
  const double lo = cp_lower_real(num * r, n_test, alpha) - delta;
  const double hi = cp_upper_real(den * r, n_test, alpha);
  if (!(lo > 0)) return -std::numeric_limits<double>::infinity();
  return std::log(lo / hi);
}
}  // namespace detail

/// Chooses the event with the largest projected ε_lb from search counts (side D: a, side D': b).
/// @spec AUDIT.SPLIT
template <class Output>
chosen_event choose_event(const std::vector<event_family<Output>>& fams,
                          const std::vector<std::vector<std::uint64_t>>& a,
                          const std::vector<std::vector<std::uint64_t>>& b, std::uint64_t n_search,
                          std::uint64_t n_test, double alpha, double delta,
                          std::uint64_t min_count) {
  struct cand {
    double approx;
    std::size_t f, g, lo, hi;
    bool swapped;
    std::uint64_t num, den;
  };
  std::vector<cand> cands;
  const double ns = static_cast<double>(n_search), nt = static_cast<double>(n_test);
  // z of the normal approximation at level alpha (for the shortlist only)
  const double z = std::sqrt(2.0) * boost::math::erfc_inv(2 * alpha);
  for (std::size_t f = 0; f < fams.size(); ++f) {
    const std::size_t bins = fams[f].bins;
    for (std::size_t g = 0; g < fams[f].groups; ++g) {
      const std::uint64_t* ca = a[f].data() + g * bins;
      const std::uint64_t* cb = b[f].data() + g * bins;
      std::uint64_t tot_a = 0, tot_b = 0;
      for (std::size_t j = 0; j < bins; ++j) tot_a += ca[j], tot_b += cb[j];
      if (tot_a < min_count && tot_b < min_count) continue;
      auto consider = [&](std::size_t lo, std::size_t hi, std::uint64_t x, std::uint64_t y) {
        for (int dir = 0; dir < 2; ++dir) {
          const std::uint64_t num = dir == 0 ? x : y, den = dir == 0 ? y : x;
          if (num <= den || num < min_count) continue;
          const double s = detail::wilson_score(static_cast<double>(num) * nt / ns,
                                                static_cast<double>(den) * nt / ns, nt, z, delta);
          if (s > -std::numeric_limits<double>::infinity())
            cands.push_back({s, f, g, lo, hi, dir == 1, num, den});
        }
      };
      for (std::size_t j = 0; j < bins; ++j) consider(j, j, ca[j], cb[j]);  // single bins
      if (fams[f].ordered) {
        std::uint64_t pa = 0, pb = 0;  // prefix sums
        for (std::size_t h = 0; h + 1 < bins; ++h) {
          pa += ca[h];
          pb += cb[h];
          if (h >= 1) consider(0, h, pa, pb);  // prefix [0, h], 1 <= h <= bins - 2
          if (h + 2 < bins) consider(h + 1, bins - 1, tot_a - pa, tot_b - pb);  // suffix
        }
      }
    }
  }
  chosen_event best;
  if (cands.empty()) {
    best.description = fams.empty() ? "none" : fams[0].describe(0, 0, 0);
    return best;
  }
  const std::size_t keep = std::min<std::size_t>(cands.size(), 256);
  std::partial_sort(cands.begin(), cands.begin() + static_cast<std::ptrdiff_t>(keep), cands.end(),
                    [](const cand& x, const cand& y) { return x.approx > y.approx; });
  for (std::size_t i = 0; i < keep; ++i) {
    const cand& c = cands[i];
    const double s = detail::projected_score(static_cast<double>(c.num), static_cast<double>(c.den),
                                             ns, nt, alpha, delta);
    if (s > best.search_score) {
      best.search_score = s;
      best.family = c.f;
      best.group = c.g;
      best.lo = c.lo;
      best.hi = c.hi;
      best.swapped = c.swapped;
      best.search_count_num = c.num;
      best.search_count_den = c.den;
    }
  }
  if (best.search_score == -std::numeric_limits<double>::infinity()) {
    const cand& c = cands.front();
    best.family = c.f, best.group = c.g, best.lo = c.lo, best.hi = c.hi, best.swapped = c.swapped;
    best.search_count_num = c.num, best.search_count_den = c.den;
  }
  best.description = fams[best.family].describe(best.group, best.lo, best.hi);
  return best;
}

/// The audit of `pair_names.size()` neighbour pairs whose outputs are counted by
/// `count(phase, pair, side, n, families)` (phase 0 = search, 1 = test; side 0 = D, 1 = D';
/// it must draw its outputs from the plan's streams, audit_stream_id(phase, pair, side), e.g.
/// through count_cells_batched) with the families `families_of(pair)`. run_audit_per_pair and
/// the batch audit of outputs produced elsewhere (e.g. a Python callable) are built on it.
/// @spec AUDIT.AUDITOR
template <class Output, class FamiliesOf, class Count>
audit_report run_audit_counts(const std::vector<std::string>& pair_names,
                              const FamiliesOf& families_of, const Count& count,
                              const audit_config& cfg) {
  constexpr const char* fn = "dpref::audit::run_audit";
  if (pair_names.empty()) fail_argument(fn, "pairs", "non-empty", pair_names.size());
  if (cfg.search_samples < 1) fail_argument(fn, "search_samples", ">= 1", cfg.search_samples);
  if (cfg.test_samples < 1) fail_argument(fn, "test_samples", ">= 1", cfg.test_samples);
  if (!(cfg.alpha > 0) || !(cfg.alpha < 1)) fail_domain(fn, "alpha", "in (0, 1)", cfg.alpha);
  if (!(cfg.epsilon >= 0) || !std::isfinite(cfg.epsilon))
    fail_domain(fn, "epsilon", "finite and >= 0", cfg.epsilon);
  if (!(cfg.delta >= 0) || !(cfg.delta < 1)) fail_domain(fn, "delta", "in [0, 1)", cfg.delta);
  const auto t0 = std::chrono::steady_clock::now();
  audit_report rep;
  rep.epsilon = cfg.epsilon;
  rep.delta = cfg.delta;
  rep.alpha = cfg.alpha;
  rep.alpha_per_bound = cfg.alpha / (2.0 * static_cast<double>(pair_names.size()));
  for (std::size_t p = 0; p < pair_names.size(); ++p) {
    const std::vector<event_family<Output>> families = families_of(p);
    if (families.empty()) fail_argument(fn, "families", "non-empty", families.size());
    const auto sa = count(0u, p, 0u, cfg.search_samples, families);
    const auto sb = count(0u, p, 1u, cfg.search_samples, families);
    pair_result r;
    r.pair = pair_names[p];
    r.event = choose_event(families, sa, sb, cfg.search_samples, cfg.test_samples,
                           rep.alpha_per_bound, cfg.delta, cfg.min_count);
    const auto ta = count(1u, p, 0u, cfg.test_samples, families);
    const auto tb = count(1u, p, 1u, cfg.test_samples, families);
    rep.samples += 2 * (cfg.search_samples + cfg.test_samples);
    const auto& fam = families[r.event.family];
    std::uint64_t ka = 0, kb = 0;
    for (std::size_t j = r.event.lo; j <= r.event.hi; ++j) {
      ka += ta[r.event.family][r.event.group * fam.bins + j];
      kb += tb[r.event.family][r.event.group * fam.bins + j];
    }
    r.n = cfg.test_samples;
    r.count_num = r.event.swapped ? kb : ka;
    r.count_den = r.event.swapped ? ka : kb;
    r.p_lower = cp_lower(r.count_num, r.n, rep.alpha_per_bound);
    r.p_upper = cp_upper(r.count_den, r.n, rep.alpha_per_bound);
    const double excess = r.p_lower - cfg.delta;
    r.eps_lb = excess > 0 ? std::log(excess / r.p_upper) : -std::numeric_limits<double>::infinity();
    r.delta_lb = r.p_lower - std::exp(cfg.epsilon) * r.p_upper;
    r.violation = r.delta_lb > cfg.delta;
    rep.pairs.push_back(std::move(r));
  }
  for (std::size_t p = 0; p < rep.pairs.size(); ++p) {
    if (rep.pairs[p].eps_lb > rep.eps_lb || p == 0) {
      rep.eps_lb = rep.pairs[p].eps_lb;
      rep.worst = p;
    }
    rep.violation = rep.violation || rep.pairs[p].violation;
  }
  rep.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return rep;
}

/// Runs the audit of `mechanism` (callable (const Input&, philox_stream&) -> Output, safe to call
/// concurrently) on the neighbour pairs, with event families that may depend on the pair (e.g.
/// a projection on q(D') − q(D) or a likelihood-ratio statistic of the pair).
/// @param mechanism the mechanism M(D, stream) @param pairs neighbouring inputs (D, D')
/// @param families_of pair -> std::vector<event_family<Output>> searched for that pair
/// @param cfg seeds, sizes, claimed (ε, δ), alpha
/// @return per-pair bounds and the overall verdict
/// @throws std::invalid_argument / std::domain_error for an invalid configuration
/// @spec AUDIT.AUDITOR
template <class Input, class Output, class Mechanism, class FamiliesOf>
audit_report run_audit_per_pair(const Mechanism& mechanism,
                                const std::vector<neighbour_pair<Input>>& pairs,
                                const FamiliesOf& families_of, const audit_config& cfg) {
  std::vector<std::string> names;
  for (const auto& pr : pairs) names.push_back(pr.name);
  const auto count = [&](unsigned phase, std::size_t p, unsigned side, std::uint64_t n,
                         const std::vector<event_family<Output>>& families) {
    const Input& in = side == 0 ? pairs[p].first : pairs[p].second;
    const auto sampler = [&mechanism, &in](philox_stream& s) -> Output { return mechanism(in, s); };
    return count_cells<Output>(sampler, families, n, cfg.seed, audit_stream_id(phase, p, side),
                               cfg.threads, cfg.chunk, cfg.comm ? *cfg.comm : parallel::serial());
  };
  return run_audit_counts<Output>(
      names, [&](std::size_t p) { return families_of(pairs[p]); }, count, cfg);
}

/// run_audit with the same event families for every pair.
/// @spec AUDIT.AUDITOR
template <class Input, class Output, class Mechanism>
audit_report run_audit(const Mechanism& mechanism, const std::vector<neighbour_pair<Input>>& pairs,
                       const std::vector<event_family<Output>>& families, const audit_config& cfg) {
  if (families.empty())
    fail_argument("dpref::audit::run_audit", "families", "non-empty", families.size());
  return run_audit_per_pair<Input, Output>(
      mechanism, pairs, [&](const neighbour_pair<Input>&) { return families; }, cfg);
}

}  // namespace dpref::audit
