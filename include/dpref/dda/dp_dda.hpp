// Distributed dual averaging: conventional DDA (dda (2)–(3), Duchi–Agarwal–Wainwright) and the
// differentially private DDA of dda Algorithm 1 (node subsampling, one record per active node,
// Gaussian perturbation of the subgradient, weights a_t, A_t, γ_t, outputs x̃_i and ỹ of (8)).
//
// Randomness: W^(t) from substream 0 of the run stream, node i's record choices and noise from
// substream i + 1, so results do not depend on the thread count (`threads` only splits the work
// over active nodes; bit-identical for any value).
//
// Distributed (spec/distributed.md DIST.DDA): with a communicator of P ranks, node i belongs to
// rank block_range(n, P, ·) ∋ i; every rank draws the same W^(t) (substream 0), computes steps
// 5–10 for its own active nodes only (their substreams). Each round the message u_j travels
// point to point along the edges of W^(t) that cross ranks (owner(j) → owner(i) once per
// (j, owner(i)) with w_ij ≠ 0), and ζ_j of every active node is gathered to rank 0, which alone
// forms z̄, y of (8); the node states are gathered to rank 0 at snapshots and at the end. Every
// floating-point operation is the serial one, in the serial order: rank 0's result is
// bit-identical to the serial run for any P; a rank r > 0 returns its own nodes only
// (result::first_node, x_tilde / z / active_rounds of its nodes; x_bar, y_tilde, trace empty).
//
// Cost per iteration: O(|N^(t)|·(record nnz + d) + Σ_{i∈N^(t)} deg_i·d + d); the weighted sums
// x̃_i are accumulated lazily (x_i is constant while i is inactive), A_t differences are exact
// integers for a_t ∈ {1, t}.
// @spec DDA.ALG1 DDA.ALG1.EQUALS_DDA DDA.THREADS DIST.DDA
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include "dpref/dda/engine_types.hpp"
#include "dpref/dda/problem.hpp"
#include "dpref/error.hpp"
#include "dpref/mechanisms/gaussian.hpp"
#include "dpref/mechanisms/secure/snapped_gaussian.hpp"
#include "dpref/network/gossip.hpp"
#include "dpref/parallel/communicator.hpp"
#include "dpref/parallel/exact_transfer.hpp"
#include "dpref/parallel/worker_scope.hpp"
#include "dpref/problems/clipping.hpp"
#include "dpref/random/philox_stream.hpp"
#include "dpref/random/secure/uniform_int.hpp"
#include "dpref/run/report.hpp"
#include "dpref/scalar.hpp"

namespace dpref::dda {

/// out = ĝ of record j at x, clipped to ‖ĝ‖₂ <= *clip when a clip is given: the per-record
/// statistic of Algorithm 1 step 6 before its noise. With the clip, two records change it by at
/// most 2·clip in ℓ2 whatever their norms (PRIV.DDA.LIPSCHITZ); a record within the bound is
/// left bit for bit unchanged.
/// @spec DDA.ALG1 PRIV.DDA.LIPSCHITZ
template <real_scalar Real, class Features>
void sampled_subgradient(const problem<Real, Features>& prob, Eigen::Index j,
                         const Eigen::Ref<const vector<std::type_identity_t<Real>>>& x,
                         const std::optional<std::type_identity_t<Real>>& clip,
                         Eigen::Ref<vector<std::type_identity_t<Real>>> out) {
  out.setZero();
  prob.add_subgradient(j, x, Real(1), out);
  if (clip) {
    const Real s = problems::clip_factor<Real>(Real(out.norm()), *clip);
    if (s < Real(1)) out *= s;
  }
}

namespace detail {

template <class F>
void parallel_for(std::size_t count, unsigned threads, const F& f) {
  if (threads <= 1 || count < 2 * static_cast<std::size_t>(threads)) {
    for (std::size_t k = 0; k < count; ++k) f(k);
    return;
  }
  std::vector<std::thread> pool;
  const parallel::thread_numerics numerics = parallel::thread_numerics::current();
  const std::size_t per = (count + threads - 1) / threads;
  for (unsigned w = 1; w < threads; ++w) {
    const std::size_t lo = w * per, hi = std::min(count, lo + per);
    if (lo >= hi) break;
    pool.emplace_back([&f, lo, hi, numerics] {
      const parallel::worker_scope scope(numerics);
      for (std::size_t k = lo; k < hi; ++k) f(k);
    });
  }
  for (std::size_t k = 0; k < std::min(count, per); ++k) f(k);
  for (auto& t : pool) t.join();
}

template <real_scalar Real>
void validate(const algorithm_params<Real>& p, const problems::regularizer<Real>& h) {
  if (p.iterations < 1) fail_domain("dda", "iterations", ">= 1", p.iterations);
  if (p.clip && !(is_finite_value(*p.clip) && *p.clip > Real(0)))
    fail_domain("dda", "clip", "finite and > 0", *p.clip);
  require_nonnegative("dda", "gamma", p.gamma);
  require_nonnegative("dda", "sigma", p.sigma);
  if (p.noise && !(p.noise->sigma == p.sigma))
    fail_domain("dda", "noise.sigma", "== sigma (the measurement draws the charged noise)",
                p.noise->sigma);
  if (p.trace_every < 0) fail_domain("dda", "trace_every", ">= 0", p.trace_every);
  if (p.g == gamma_schedule::zero && !(h.strong_convexity() > Real(0)))
    fail_domain("dda", "gamma schedule", "gamma_t > 0 unless h is strongly convex (mu > 0)", 0);
  if (p.g != gamma_schedule::zero && !(p.gamma > Real(0)) && !(h.strong_convexity() > Real(0)))
    fail_domain("dda", "gamma", "> 0 unless h is strongly convex", p.gamma);
}

/// The engine shared by DDA and DP-DDA; `next_round(t)` returns W^(t) (sparse rows).
template <real_scalar Real, class Features, class NextRound>
result<Real> run_engine(const problem<Real, Features>& prob, const algorithm_params<Real>& p,
                        const Real& iota, const philox_stream& run, NextRound&& next_round,
                        const parallel::communicator& comm = parallel::serial()) {
  const auto& h = prob.reg();
  validate(p, h);
  const Eigen::Index d = prob.dimension();
  const int n = prob.nodes();
  const long long q = prob.per_node();
  const long long T = p.iterations;
  std::vector<philox_stream> node_stream;
  node_stream.reserve(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i)
    node_stream.push_back(run.substream(static_cast<std::uint64_t>(i) + 1));

  auto c_at = [&](long long t) {  // ι A_t (dda (6)); indicators ignore the factor
    return iota * cumulative_weight<Real>(p.a, t);
  };
  matrix<Real> z = matrix<Real>::Zero(d, n), x(d, n), xsum = matrix<Real>::Zero(d, n);
  matrix<Real> u(d, n), znew(d, n), zeta(d, n);
  std::vector<long long> last(static_cast<std::size_t>(n), 1),
      active_count(static_cast<std::size_t>(n), 0);
  vector<Real> zbar = vector<Real>::Zero(d), y(d), ysum = vector<Real>::Zero(d);
  {
    const Real c1 = c_at(1), g1 = gamma_at(p.g, p.gamma, 1);
    for (int i = 0; i < n; ++i) h.dual_argmin_into(z.col(i), c1, g1, x.col(i));
    h.dual_argmin_into(zbar, c1, g1, y);
    ysum += weight_at<Real>(p.a, 1) * y;
  }
  result<Real> res;
  res.iota = iota;
  res.iterations = T;
  const Real nn = Real(n);
  // DIST.DDA: the nodes of each rank; exact point-to-point messages and gathers to rank 0
  const int ranks = comm.size(), me = comm.rank();
  const bool root = comm.is_root();
  const auto owner_range = [&](int rk) { return parallel::block_range(n, ranks, rk); };
  const parallel::range own = owner_range(me);
  const auto owned_by = [](const parallel::range& rg, int j) {
    return j >= rg.begin && j < rg.end;
  };
  std::vector<int> owner(ranks > 1 ? static_cast<std::size_t>(n) : 0);
  for (int rk = 0; rk < ranks && ranks > 1; ++rk) {
    const parallel::range rg = owner_range(rk);
    for (auto i = static_cast<int>(rg.begin); i < rg.end; ++i)
      owner[static_cast<std::size_t>(i)] = rk;
  }
  std::vector<std::size_t> mine;  // indices k of this rank's nodes in the round's active list
  std::vector<std::vector<int>> send_to(static_cast<std::size_t>(ranks)),
      recv_from(static_cast<std::size_t>(ranks));
  // u_j of W^(t)'s crossing edges: owner(j) sends u_j once to each other rank owning an active
  // i with w_ij != 0 (both sides list the nodes in increasing order from the same W^(t))
  const auto exchange_messages = [&](const ::dpref::network::gossip_round<Real>& r) {
    for (auto& v : send_to) v.clear();
    for (auto& v : recv_from) v.clear();
    for (std::size_t k = 0; k < r.active.size(); ++k) {
      const int qi = owner[static_cast<std::size_t>(r.active[k])];
      for (std::size_t e = r.row_start[k]; e < r.row_start[k + 1]; ++e) {
        const int j = r.cols[e], qj = owner[static_cast<std::size_t>(j)];
        if (qi == qj) continue;
        if (qj == me) send_to[static_cast<std::size_t>(qi)].push_back(j);
        if (qi == me) recv_from[static_cast<std::size_t>(qj)].push_back(j);
      }
    }
    std::vector<parallel::message> sends;
    std::vector<int> sources;
    for (int rk = 0; rk < ranks; ++rk) {
      auto& out = send_to[static_cast<std::size_t>(rk)];
      auto& in = recv_from[static_cast<std::size_t>(rk)];
      std::sort(out.begin(), out.end());
      out.erase(std::unique(out.begin(), out.end()), out.end());
      std::sort(in.begin(), in.end());
      in.erase(std::unique(in.begin(), in.end()), in.end());
      if (!out.empty()) {
        sends.push_back({rk, {}});
        for (const int j : out) parallel::pack_all(u.col(j), sends.back().data);
      }
      if (!in.empty()) sources.push_back(rk);
    }
    const std::vector<std::vector<double>> got = comm.exchange(sends, sources);
    for (std::size_t s = 0; s < sources.size(); ++s) {
      std::size_t pos = 0;
      for (const int j : recv_from[static_cast<std::size_t>(sources[s])])
        parallel::unpack_all(u.col(j), got[s], pos);
    }
  };
  // ζ_j of every active node to rank 0, in the active order (z̄ of (8) is formed there)
  const auto gather_zeta = [&](const ::dpref::network::gossip_round<Real>& r) {
    std::vector<double> buf;
    for (const std::size_t k : mine) parallel::pack_all(zeta.col(r.active[k]), buf);
    const std::vector<double> all = comm.gather(buf, 0);
    if (!root) return;
    std::size_t pos = 0;
    for (int rk = 0; rk < ranks; ++rk) {
      const parallel::range rg = owner_range(rk);
      for (std::size_t k = 0; k < r.active.size(); ++k)
        if (owned_by(rg, r.active[k])) parallel::unpack_all(zeta.col(r.active[k]), all, pos);
    }
  };
  // z, x, xsum, last and active_count of every node from its rank, to rank 0 (snapshots, end)
  const auto sync_nodes = [&] {
    if (ranks == 1) return;
    std::vector<double> buf;  // rank 0's own nodes are already in place
    for (auto i = static_cast<int>(own.begin); i < own.end && !root; ++i) {
      parallel::pack_all(z.col(i), buf);
      parallel::pack_all(x.col(i), buf);
      parallel::pack_all(xsum.col(i), buf);
      buf.push_back(static_cast<double>(last[static_cast<std::size_t>(i)]));
      buf.push_back(static_cast<double>(active_count[static_cast<std::size_t>(i)]));
    }
    const std::vector<double> all = comm.gather(buf, 0);
    if (!root) return;
    std::size_t pos = 0;
    for (int rk = 1; rk < ranks; ++rk) {
      const parallel::range rg = owner_range(rk);
      for (auto i = static_cast<int>(rg.begin); i < rg.end; ++i) {
        parallel::unpack_all(z.col(i), all, pos);
        parallel::unpack_all(x.col(i), all, pos);
        parallel::unpack_all(xsum.col(i), all, pos);
        last[static_cast<std::size_t>(i)] = static_cast<long long>(all[pos++]);
        active_count[static_cast<std::size_t>(i)] = static_cast<long long>(all[pos++]);
      }
    }
  };
  auto take_snapshot = [&](long long t) {
    snapshot<Real> s;
    s.t = t;
    const Real At = cumulative_weight<Real>(p.a, t), At_inv = Real(1) / At;
    s.x_bar = vector<Real>::Zero(d);
    if (p.trace_nodes) s.x_tilde.resize(d, n);
    using std::sqrt;
    for (int i = 0; i < n; ++i) {
      vector<Real> xt = xsum.col(i);
      const long long li = last[static_cast<std::size_t>(i)];
      if (li <= t) xt += (At - cumulative_weight<Real>(p.a, li - 1)) * x.col(i);
      if (p.trace_nodes) s.x_tilde.col(i) = xt * At_inv;
      s.x_bar += xt * At_inv;
      s.consensus += Real(sqrt((x.col(i) - y).squaredNorm()));
    }
    s.x_bar /= nn;
    s.y_tilde = ysum * At_inv;
    s.consensus /= nn;
    return s;
  };

  // the Gaussian measurement of step 6: the planned one (its event is in the run's ledger)
  const mechanisms::gaussian_noise<Real> nu =
      p.noise ? *p.noise : mechanisms::gaussian_noise<Real>(Real(0), p.sigma);
  for (long long t = 1; t <= T; ++t) {
    const ::dpref::network::gossip_round<Real>& r = next_round(t);
    const Real at = weight_at<Real>(p.a, t);
    const std::size_t na = r.active.size();
    mine.clear();
    for (std::size_t k = 0; k < na; ++k)
      if (owned_by(own, r.active[k])) mine.push_back(k);
    const std::size_t nm = mine.size();
    // Algorithm 1 steps 5–7: record ξ ~ U{1..q}, ζ = clip(ĝ) + ν, message u_j = z_j + a_t ζ_j.
    parallel_for(nm, p.threads, [&](std::size_t m) {
      const int j = r.active[mine[m]];
      philox_stream& s = node_stream[static_cast<std::size_t>(j)];
      // not privacy noise: the record draw ξ (the 1-of-q sample of the round's event sampling)
      const auto rec = secure::uniform_int<std::int64_t>(s, q);
      auto zj = zeta.col(j);
      ::dpref::dda::sampled_subgradient(prob, prob.record(j, rec), x.col(j), p.clip, zj);
      if (p.secure) {
        // SEC.DDA: ζ = 2^k (round(clamp(ĝ)/2^k) + Z), Z ~ N_Z(0, σ_g²) coordinate-wise (step 6)
        if constexpr (std::is_same_v<Real, double>) {
          const vector<double> ghat = zj;
          zj = mechanisms::snapped_gaussian(s, ghat, *p.secure);
        }
      } else if (p.sigma > Real(0)) {  // step 6: ν ~ N(0, σ²I) by the round's measurement
        if constexpr (std::is_same_v<Real, double>) {
          if (p.fast_noise) {
            nu.add_to_fast(s, zj);
          } else {
            nu.add_to(s, zj);
          }
        } else {
          nu.add_to(s, zj);
        }
      }
      u.col(j) = z.col(j) + at * zj;
    });
    if (ranks > 1) {  // DIST.DDA: u_j along the crossing edges, ζ_j to rank 0, exactly
      exchange_messages(r);
      gather_zeta(r);
    }
    // steps 8–10: z_i^(t+1) = Σ_j w_ij u_j (5), x_i^(t+1) by (6); lazy x̃ accumulation.
    const Real At = cumulative_weight<Real>(p.a, t);
    const Real c_next = c_at(t + 1), g_next = gamma_at(p.g, p.gamma, t + 1);
    parallel_for(nm, p.threads, [&](std::size_t m) {
      const std::size_t k = mine[m];
      const int i = r.active[k];
      auto zi = znew.col(i);
      zi.setZero();
      for (std::size_t e = r.row_start[k]; e < r.row_start[k + 1]; ++e)
        zi += r.weights[e] * u.col(r.cols[e]);
    });
    for (const std::size_t k : mine) {
      const int i = r.active[k];
      z.col(i) = znew.col(i);
      ++active_count[static_cast<std::size_t>(i)];
    }
    parallel_for(nm, p.threads, [&](std::size_t m) {
      const int i = r.active[mine[m]];
      const long long li = last[static_cast<std::size_t>(i)];
      xsum.col(i) += (At - cumulative_weight<Real>(p.a, li - 1)) * x.col(i);
      last[static_cast<std::size_t>(i)] = t + 1;
      h.dual_argmin_into(z.col(i), c_next, g_next, x.col(i));
    });
    // y^(t+1) of (8) from z̄^(t+1) = z̄^(t) + (a_t/n) Σ_{j active} ζ_j (W doubly stochastic);
    // distributed: on rank 0 only
    if (root) {
      for (std::size_t k = 0; k < na; ++k) zbar += (at / nn) * zeta.col(r.active[k]);
      h.dual_argmin_into(zbar, c_next, g_next, y);
      if (t + 1 <= T) ysum += weight_at<Real>(p.a, t + 1) * y;
    }
    if (p.trace_every > 0 && (t % p.trace_every == 0 || t == T)) {
      sync_nodes();
      if (root) res.trace.push_back(take_snapshot(t));
    }
  }
  sync_nodes();
  const Real AT = cumulative_weight<Real>(p.a, T);
  // rank 0: every node; a rank r > 0: its own nodes only
  const int i0 = root ? 0 : static_cast<int>(own.begin), i1 = root ? n : static_cast<int>(own.end);
  res.first_node = i0;
  res.x_tilde.resize(d, i1 - i0);
  for (int i = i0; i < i1; ++i) {
    const long long li = last[static_cast<std::size_t>(i)];
    if (li <= T) xsum.col(i) += (AT - cumulative_weight<Real>(p.a, li - 1)) * x.col(i);
    res.x_tilde.col(i - i0) = xsum.col(i) / AT;
  }
  if (root) {
    res.x_bar = vector<Real>::Zero(d);
    for (int i = 0; i < n; ++i) res.x_bar += res.x_tilde.col(i);
    res.x_bar /= nn;
    res.y_tilde = ysum / AT;
    res.z = std::move(z);
    res.active_rounds = std::move(active_count);
  } else {
    res.z = z.middleCols(i0, i1 - i0);
    res.active_rounds.assign(active_count.begin() + i0, active_count.begin() + i1);
  }
  return res;
}

}  // namespace detail

/// dda Algorithm 1 (DP-DDA) on `prob` with gossip matrices from `net`.
/// @param run run stream (substream 0: network, i + 1: node i) @spec DDA.ALG1
template <real_scalar Real, class Features>
result<Real> run_dp_dda(const problem<Real, Features>& prob,
                        const ::dpref::network::gossip_sampler<Real>& net,
                        const algorithm_params<Real>& p, const philox_stream& run,
                        const parallel::communicator& comm = parallel::serial()) {
  if (net.nodes() != prob.nodes())
    fail_argument("run_dp_dda", "net.nodes()", "== problem nodes", net.nodes());
  philox_stream ns = run.substream(0);
  ::dpref::network::gossip_round<Real> cur;
  return detail::run_engine(
      prob, p, net.iota(), run,
      [&](long long) -> const ::dpref::network::gossip_round<Real>& {
        cur = net.draw(ns);
        return cur;
      },
      comm);
}

/// Conventional DDA (2)–(3): every node active, fixed doubly stochastic W, a_t = 1 (so the
/// weight of h in (2) is t), ĝ from one uniformly sampled record, no noise. `p.a` and
/// `p.sigma` are ignored (forced to constant and 0). @spec DDA.ALG1.EQUALS_DDA
template <real_scalar Real, class Features>
result<Real> run_dda(const problem<Real, Features>& prob, const matrix<Real>& W,
                     algorithm_params<Real> p, const philox_stream& run) {
  const int n = prob.nodes();
  if (W.rows() != n || W.cols() != n) fail_argument("run_dda", "W", "n x n", W.rows());
  p.a = weight_schedule::constant;
  p.sigma = Real(0);
  ::dpref::network::gossip_round<Real> full;
  for (int i = 0; i < n; ++i) {
    full.active.push_back(i);
    full.row_start.push_back(full.cols.size());
    for (int j = 0; j < n; ++j)
      if (W(i, j) != Real(0)) {
        full.cols.push_back(j);
        full.weights.push_back(W(i, j));
      }
  }
  full.row_start.push_back(full.cols.size());
  return detail::run_engine(
      prob, p, Real(1), run,
      [&](long long) -> const ::dpref::network::gossip_round<Real>& { return full; });
}

}  // namespace dpref::dda
