// Undirected simple graphs for distributed optimisation (dda §2.1, §3.1, §5): complete, ring,
// 2-D grid, random geometric and Erdős–Rényi graphs, and Metropolis weights (Xiao–Boyd–Kim):
// w_ij = 1/(1 + max(deg_i, deg_j)) on edges, w_ii = 1 − Σ_{j≠i} w_ij — symmetric and doubly
// stochastic. @spec DDA.NET.GRAPH
#pragma once

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "dpref/error.hpp"
#include "dpref/random/philox_stream.hpp"
#include "dpref/random/uniform.hpp"
#include "dpref/scalar.hpp"

namespace dpref::network {

/// Undirected simple graph on nodes 0..n−1 (edges stored once with i < j, sorted).
struct graph {
  int n = 0;
  std::vector<std::pair<int, int>> edges;
  std::vector<std::vector<int>> adjacency;  ///< sorted neighbour lists
  std::string name;

  /// Builds the graph; duplicate edges are merged. @throws std::invalid_argument on a self
  /// loop or an endpoint outside [0, n)
  static graph from_edges(int nodes, std::vector<std::pair<int, int>> list, std::string label) {
    if (nodes < 1) fail_domain("network::graph", "n", ">= 1", nodes);
    for (auto& e : list) {
      if (e.first == e.second) fail_argument("network::graph", "edge", "no self loops", e.first);
      if (e.first < 0 || e.second < 0 || e.first >= nodes || e.second >= nodes)
        fail_argument("network::graph", "edge", "endpoints in [0, n)", std::max(e.first, e.second));
      if (e.first > e.second) std::swap(e.first, e.second);
    }
    std::sort(list.begin(), list.end());
    list.erase(std::unique(list.begin(), list.end()), list.end());
    graph g;
    g.n = nodes;
    g.edges = std::move(list);
    g.adjacency.assign(static_cast<std::size_t>(nodes), {});
    for (const auto& [i, j] : g.edges) {
      g.adjacency[static_cast<std::size_t>(i)].push_back(j);
      g.adjacency[static_cast<std::size_t>(j)].push_back(i);
    }
    for (auto& a : g.adjacency) std::sort(a.begin(), a.end());
    g.name = std::move(label);
    return g;
  }
  [[nodiscard]] int degree(int i) const {
    return static_cast<int>(adjacency[static_cast<std::size_t>(i)].size());
  }
  /// Whether every node is reachable from node 0.
  [[nodiscard]] bool connected() const {
    std::vector<char> seen(static_cast<std::size_t>(n), 0);
    std::vector<int> stack{0};
    seen[0] = 1;
    int count = 1;
    while (!stack.empty()) {
      const int v = stack.back();
      stack.pop_back();
      for (int w : adjacency[static_cast<std::size_t>(v)])
        if (!seen[static_cast<std::size_t>(w)]) {
          seen[static_cast<std::size_t>(w)] = 1;
          ++count;
          stack.push_back(w);
        }
    }
    return count == n;
  }
};

/// Complete graph K_n. @spec DDA.NET.GRAPH
inline graph complete_graph(int n) {
  if (n < 1) fail_domain("network::complete_graph", "n", ">= 1", n);
  std::vector<std::pair<int, int>> e;
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) e.emplace_back(i, j);
  return graph::from_edges(n, std::move(e), "complete");
}

/// Cycle C_n (n >= 3). @spec DDA.NET.GRAPH
inline graph ring_graph(int n) {
  if (n < 3) fail_domain("network::ring_graph", "n", ">= 3", n);
  std::vector<std::pair<int, int>> e;
  for (int i = 0; i < n; ++i) e.emplace_back(i, (i + 1) % n);
  return graph::from_edges(n, std::move(e), "ring");
}

/// rows × cols 4-neighbour grid, node r·cols + c. @spec DDA.NET.GRAPH
inline graph grid_graph(int rows, int cols) {
  if (rows < 1) fail_domain("network::grid_graph", "rows", ">= 1", rows);
  if (cols < 1) fail_domain("network::grid_graph", "cols", ">= 1", cols);
  std::vector<std::pair<int, int>> e;
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) {
      if (c + 1 < cols) e.emplace_back(r * cols + c, r * cols + c + 1);
      if (r + 1 < rows) e.emplace_back(r * cols + c, (r + 1) * cols + c);
    }
  return graph::from_edges(rows * cols, std::move(e), "grid");
}

/// Random geometric graph: n uniform points in [0,1]², an edge when the distance is <= radius.
/// @spec DDA.NET.GRAPH
template <real_scalar Real>
graph random_geometric_graph(int n, const Real& radius, philox_stream& s) {
  if (n < 1) fail_domain("network::random_geometric_graph", "n", ">= 1", n);
  require_positive("network::random_geometric_graph", "radius", radius);
  std::vector<Real> px(static_cast<std::size_t>(n)), py(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    px[static_cast<std::size_t>(i)] = uniform01<Real>(s);
    py[static_cast<std::size_t>(i)] = uniform01<Real>(s);
  }
  std::vector<std::pair<int, int>> e;
  const Real r2 = radius * radius;
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) {
      const Real dx = px[static_cast<std::size_t>(i)] - px[static_cast<std::size_t>(j)];
      const Real dy = py[static_cast<std::size_t>(i)] - py[static_cast<std::size_t>(j)];
      if (dx * dx + dy * dy <= r2) e.emplace_back(i, j);
    }
  return graph::from_edges(n, std::move(e), "random_geometric");
}

/// Erdős–Rényi G(n, p): each of the n(n−1)/2 edges independently with probability p.
/// @spec DDA.NET.GRAPH
template <real_scalar Real>
graph erdos_renyi_graph(int n, const Real& p, philox_stream& s) {
  if (n < 1) fail_domain("network::erdos_renyi_graph", "n", ">= 1", n);
  if (!(p >= Real(0)) || !(p <= Real(1)))
    fail_domain("network::erdos_renyi_graph", "p", "in [0, 1]", p);
  std::vector<std::pair<int, int>> e;
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j)
      if (uniform01<Real>(s) < p) e.emplace_back(i, j);
  return graph::from_edges(n, std::move(e), "erdos_renyi");
}

/// Metropolis weights of an edge list on n nodes (degrees taken in that edge list):
/// dense symmetric doubly stochastic W. @spec DDA.NET.METROPOLIS
template <real_scalar Real>
matrix<Real> metropolis_weights(const graph& g) {
  matrix<Real> W = matrix<Real>::Zero(g.n, g.n);
  for (const auto& [i, j] : g.edges) {
    const Real w = Real(1) / Real(1 + std::max(g.degree(i), g.degree(j)));
    W(i, j) = w;
    W(j, i) = w;
  }
  for (int i = 0; i < g.n; ++i) {
    Real s(0);
    for (int j : g.adjacency[static_cast<std::size_t>(i)]) s += W(i, j);
    W(i, i) = Real(1) - s;
  }
  return W;
}

}  // namespace dpref::network
