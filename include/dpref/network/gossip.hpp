// Random gossip matrices W^(t) of dda §3.1 / §5 and the constant β of Assumption 2.
//  - node mode (Definition 2): m = nι nodes are sampled uniformly without replacement; W^(t) is
//    the Metropolis matrix of the supergraph induced on them (identity rows elsewhere);
//  - edge mode (§5): k pairwise-disjoint edges of the supergraph are sampled uniformly (uniform
//    k-subsets of edges, rejected until disjoint); their endpoints are the active nodes and W^(t)
//    is the Metropolis matrix of those k edges (each edge averages its two endpoints).
// W^(t) is symmetric and doubly stochastic, drawn from its own stream: independent across t
// (Assumption 2 (i)–(ii)). β = √ρ(E[WᵀW] − 11ᵀ/n) (4) is computed exactly by enumerating every
// outcome (small cases), in closed form for k = 1 edge (β² = 1 − λ₂(L)/(2|E|), L the Laplacian of
// the supergraph: W = I − ½(e_i − e_j)(e_i − e_j)ᵀ is a projection, so E[W²] = I − L/(2|E|)), or
// by Monte Carlo with batch-means error bars.
// @spec DDA.NET.GOSSIP DDA.NET.BETA
#pragma once

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include "dpref/error.hpp"
#include "dpref/network/graph.hpp"
#include "dpref/random/philox_stream.hpp"
#include "dpref/random/secure/uniform_int.hpp"
#include "dpref/scalar.hpp"

namespace dpref::network {

enum class activation { nodes, edges };

/// One draw of W^(t) in sparse form: the active nodes (sorted) and, for active node k, its row
/// entries (j, w_ij) including the diagonal. Rows of inactive nodes are e_i.
template <real_scalar Real>
struct gossip_round {
  std::vector<int> active;
  std::vector<std::size_t> row_start;  ///< row k is entries [row_start[k], row_start[k+1])
  std::vector<int> cols;
  std::vector<Real> weights;

  /// Dense W^(t) (tests, β).
  [[nodiscard]] matrix<Real> dense(int n) const {
    matrix<Real> W = matrix<Real>::Identity(n, n);
    for (std::size_t k = 0; k < active.size(); ++k) {
      const int i = active[k];
      W(i, i) = Real(0);
      for (std::size_t e = row_start[k]; e < row_start[k + 1]; ++e) W(i, cols[e]) = weights[e];
    }
    return W;
  }
};

/// Sampler of the W^(t) of dda §3.1 (node mode) or §5 (edge mode). @spec DDA.NET.GOSSIP
template <real_scalar Real>
class gossip_sampler {
 public:
  /// @param g supergraph @param mode nodes or edges @param count m = nι active nodes (node
  /// mode, 1 <= m <= n) or k disjoint edges per step (edge mode, 1 <= k, 2k <= n)
  /// @throws std::domain_error for an impossible count
  gossip_sampler(graph g, activation mode, int count)
      : g_(std::move(g)), mode_(mode), count_(count) {
    if (mode_ == activation::nodes) {
      if (count_ < 1 || count_ > g_.n)
        fail_domain("gossip_sampler", "active_nodes", "in [1, n]", count_);
    } else {
      if (count_ < 1 || 2 * count_ > g_.n)
        fail_domain("gossip_sampler", "edges_per_step", "in [1, n/2]", count_);
      if (static_cast<int>(g_.edges.size()) < count_)
        fail_domain("gossip_sampler", "edges_per_step", "<= number of edges", count_);
      if (!has_matching(count_))
        fail_domain("gossip_sampler", "edges_per_step", "<= size of a matching of the graph",
                    count_);
    }
  }

  [[nodiscard]] const graph& supergraph() const { return g_; }
  [[nodiscard]] activation mode() const { return mode_; }
  [[nodiscard]] int count() const { return count_; }
  [[nodiscard]] int nodes() const { return g_.n; }
  /// Number of active nodes per round (m, or 2k).
  [[nodiscard]] int active_per_round() const {
    return mode_ == activation::nodes ? count_ : 2 * count_;
  }
  /// ι of Definition 2: active nodes per round / n (exact per-node activation probability in
  /// node mode and, by symmetry, in edge mode on edge-transitive graphs such as K_n).
  [[nodiscard]] Real iota() const { return Real(active_per_round()) / Real(g_.n); }

  /// Draws W^(t). Reads only `s`.
  [[nodiscard]] gossip_round<Real> draw(philox_stream& s) const {
    const int universe = mode_ == activation::nodes ? g_.n : static_cast<int>(g_.edges.size());
    gossip_round<Real> r;
    while (!round_of(sample_subset(s, universe, count_), r)) {
    }  // edge mode: reject non-disjoint edge sets
    return r;
  }

  /// Calls f(W, probability) for every outcome of W^(t) (exact enumeration).
  /// @throws std::domain_error if there are more than `limit` outcomes
  void enumerate(const std::function<void(const gossip_round<Real>&, double)>& f,
                 double limit = 2e5) const {
    std::vector<std::vector<int>> subsets;
    const int universe = mode_ == activation::nodes ? g_.n : static_cast<int>(g_.edges.size());
    double total = 1;
    for (int k = 0; k < count_; ++k) total = total * (universe - k) / (k + 1);
    if (total > limit)
      fail_domain("gossip_sampler::enumerate", "outcomes", "<= limit (use Monte Carlo)", total);
    std::vector<int> cur;
    std::function<void(int)> rec = [&](int start) {
      if (static_cast<int>(cur.size()) == count_) {
        subsets.push_back(cur);
        return;
      }
      for (int v = start; v < universe; ++v) {
        cur.push_back(v);
        rec(v + 1);
        cur.pop_back();
      }
    };
    rec(0);
    std::vector<gossip_round<Real>> rounds;
    for (const auto& sset : subsets) {
      gossip_round<Real> r;
      if (round_of(sset, r)) rounds.push_back(std::move(r));
    }
    const double p = 1.0 / static_cast<double>(rounds.size());
    for (const auto& r : rounds) f(r, p);
  }

 private:
  /// W^(t) of a sorted subset of nodes (node mode) or edge indices (edge mode); false if the
  /// edges are not pairwise disjoint.
  bool round_of(const std::vector<int>& subset, gossip_round<Real>& r) const {
    std::vector<std::pair<int, int>> sub;
    r = gossip_round<Real>{};
    if (mode_ == activation::nodes) {
      r.active = subset;
      std::vector<char> on(static_cast<std::size_t>(g_.n), 0);
      for (int i : r.active) on[static_cast<std::size_t>(i)] = 1;
      for (int i : r.active)
        for (int j : g_.adjacency[static_cast<std::size_t>(i)])
          if (j > i && on[static_cast<std::size_t>(j)]) sub.emplace_back(i, j);
    } else {
      for (int e : subset) {
        sub.push_back(g_.edges[static_cast<std::size_t>(e)]);
        r.active.push_back(sub.back().first);
        r.active.push_back(sub.back().second);
      }
      std::sort(r.active.begin(), r.active.end());
      if (std::adjacent_find(r.active.begin(), r.active.end()) != r.active.end()) return false;
    }
    fill_rows(r, sub);
    return true;
  }

  /// Uniform m-subset of {0..u−1} (partial Fisher–Yates with exact uniform integers), sorted.
  static std::vector<int> sample_subset(philox_stream& s, int u, int m) {
    std::vector<int> perm(static_cast<std::size_t>(u));
    for (int i = 0; i < u; ++i) perm[static_cast<std::size_t>(i)] = i;
    if (m == u) return perm;
    for (int k = 0; k < m; ++k) {
      const auto j = k + static_cast<int>(secure::uniform_int<std::int64_t>(s, u - k));
      std::swap(perm[static_cast<std::size_t>(k)], perm[static_cast<std::size_t>(j)]);
    }
    std::vector<int> out(perm.begin(), perm.begin() + m);
    std::sort(out.begin(), out.end());
    return out;
  }

  /// Metropolis rows of the active subgraph `sub` (degrees taken in `sub`).
  void fill_rows(gossip_round<Real>& r, const std::vector<std::pair<int, int>>& sub) const {
    const std::size_t a = r.active.size();
    std::vector<std::vector<int>> nb(a);
    auto index = [&](int v) {
      return static_cast<std::size_t>(std::lower_bound(r.active.begin(), r.active.end(), v) -
                                      r.active.begin());
    };
    for (const auto& [i, j] : sub) {
      nb[index(i)].push_back(j);
      nb[index(j)].push_back(i);
    }
    r.row_start.assign(a + 1, 0);
    for (std::size_t k = 0; k < a; ++k) {
      std::sort(nb[k].begin(), nb[k].end());
      const int di = static_cast<int>(nb[k].size());
      // entries sorted by column, the diagonal 1 − Σ_{j≠i} w_ij in its place (the same
      // summation order as metropolis_weights)
      Real off(0);
      std::vector<Real> w(nb[k].size());
      for (std::size_t e = 0; e < nb[k].size(); ++e) {
        const int dj = static_cast<int>(nb[index(nb[k][e])].size());
        w[e] = Real(1) / Real(1 + std::max(di, dj));
        off += w[e];
      }
      bool diag_done = false;
      for (std::size_t e = 0; e <= nb[k].size(); ++e) {
        if (!diag_done && (e == nb[k].size() || nb[k][e] > r.active[k])) {
          r.cols.push_back(r.active[k]);
          r.weights.push_back(Real(1) - off);
          diag_done = true;
        }
        if (e < nb[k].size()) {
          r.cols.push_back(nb[k][e]);
          r.weights.push_back(w[e]);
        }
      }
      r.row_start[k + 1] = r.cols.size();
    }
  }

  bool has_matching(int k) const {
    // greedy matching is within a factor 2 of maximum; enough for the usual graphs
    std::vector<char> used(static_cast<std::size_t>(g_.n), 0);
    int size = 0;
    for (const auto& [i, j] : g_.edges)
      if (!used[static_cast<std::size_t>(i)] && !used[static_cast<std::size_t>(j)]) {
        used[static_cast<std::size_t>(i)] = used[static_cast<std::size_t>(j)] = 1;
        ++size;
      }
    return size >= k;
  }

  graph g_;
  activation mode_;
  int count_;
};

namespace detail {
/// √ρ(M − 11ᵀ/n) for symmetric M (double).
inline double beta_of(const Eigen::MatrixXd& M) {
  const auto n = M.rows();
  const Eigen::MatrixXd C = M - Eigen::MatrixXd::Constant(n, n, 1.0 / static_cast<double>(n));
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(0.5 * (C + C.transpose()),
                                                    Eigen::EigenvaluesOnly);
  const double rho = es.eigenvalues().cwiseAbs().maxCoeff();
  return std::sqrt(rho);
}
}  // namespace detail

/// β of (4) by exact enumeration of every W^(t) outcome (double). @spec DDA.NET.BETA
template <real_scalar Real>
double beta_exact(const gossip_sampler<Real>& s, double limit = 2e5) {
  const int n = s.nodes();
  Eigen::MatrixXd M = Eigen::MatrixXd::Zero(n, n);
  s.enumerate(
      [&](const gossip_round<Real>& r, double p) {
        const Eigen::MatrixXd W = r.dense(n).template cast<double>();
        M.noalias() += p * (W.transpose() * W);
      },
      limit);
  return detail::beta_of(M);
}

/// Closed form for one edge per step: β = √(1 − λ₂(L)/(2|E|)). @spec DDA.NET.BETA
inline double beta_single_edge_closed_form(const graph& g) {
  if (g.edges.empty()) fail_domain("beta_single_edge_closed_form", "edges", ">= 1", 0);
  const int n = g.n;
  Eigen::MatrixXd L = Eigen::MatrixXd::Zero(n, n);
  for (const auto& [i, j] : g.edges) {
    L(i, i) += 1;
    L(j, j) += 1;
    L(i, j) -= 1;
    L(j, i) -= 1;
  }
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(L, Eigen::EigenvaluesOnly);
  const double lambda2 = n > 1 ? es.eigenvalues()[1] : 0.0;
  return std::sqrt(1 - lambda2 / (2.0 * static_cast<double>(g.edges.size())));
}

/// Monte Carlo β with batch-means error bars.
struct beta_estimate {
  double value = 0;       ///< β from the pooled mean of WᵀW
  double batch_mean = 0;  ///< mean of the per-batch β values (biased up: ρ is convex)
  /// error bar of `value`: 3 batch standard errors / √B plus a bias allowance
  /// (batch_mean − value)/(√B − 1): ρ(mean) is biased up, like 1/√samples when the top
  /// eigenvalue is degenerate (K_n: multiplicity n − 1), so a batch of size N/B has √B times
  /// the bias of the pooled estimate
  double half_width = 0;
  long long samples = 0;
};

/// @param samples total draws (>= batches) @param batches >= 2 @spec DDA.NET.BETA
template <real_scalar Real>
beta_estimate beta_monte_carlo(const gossip_sampler<Real>& s, long long samples, int batches,
                               philox_stream& stream) {
  if (batches < 2) fail_domain("beta_monte_carlo", "batches", ">= 2", batches);
  if (samples < batches) fail_domain("beta_monte_carlo", "samples", ">= batches", samples);
  const int n = s.nodes();
  const long long per = samples / batches;
  Eigen::MatrixXd pooled = Eigen::MatrixXd::Zero(n, n);
  std::vector<double> b;
  for (int k = 0; k < batches; ++k) {
    Eigen::MatrixXd M = Eigen::MatrixXd::Zero(n, n);
    for (long long i = 0; i < per; ++i) {
      const Eigen::MatrixXd W = s.draw(stream).dense(n).template cast<double>();
      M.noalias() += W.transpose() * W;
    }
    pooled += M;
    b.push_back(detail::beta_of(M / static_cast<double>(per)));
  }
  beta_estimate out;
  out.samples = per * batches;
  out.value = detail::beta_of(pooled / static_cast<double>(out.samples));
  double mean = 0, var = 0;
  for (double v : b) mean += v;
  mean /= static_cast<double>(batches);
  for (double v : b) var += (v - mean) * (v - mean);
  var /= static_cast<double>(batches - 1);
  out.batch_mean = mean;
  out.half_width = 3 * std::sqrt(var / static_cast<double>(batches)) +
                   std::abs(mean - out.value) / (std::sqrt(static_cast<double>(batches)) - 1);
  return out;
}

}  // namespace dpref::network
