// The public description of dda's network (spec/dda.md DDA.NETWORK): the supergraph of dda §3.1
// and how the gossip matrices W^(t) are drawn (node mode, Definition 2; edge mode, §5).
//
// ι of Definition 2 is the per-round activation probability of EVERY node. Node mode: m/n
// exactly. Edge mode (k disjoint edges uniformly): 2k/n only when every node has the same
// activation probability, which holds by symmetry on vertex- and edge-transitive supergraphs
// (here: complete K_n and the ring C_n); on a grid, random geometric or Erdős–Rényi graph the
// probabilities differ (k = 1: deg(i)/|E|) and the calibration would use a wrong ι. `run`
// therefore refuses edge mode on those graphs for private runs (ARCH.PUBLIC).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include "dpref/enum_names.hpp"
#include "dpref/network/gossip.hpp"
#include "dpref/network/graph.hpp"
#include "dpref/params.hpp"
#include "dpref/random/philox_stream.hpp"
#include "dpref/scalar.hpp"

namespace dpref::dda {

/// Supergraph family.
enum class graph_kind { complete, ring, grid, random_geometric, erdos_renyi };
DPREF_ENUM_NAMES(graph_kind, complete, ring, grid, random_geometric, erdos_renyi)

/// Which nodes are active in a round.
enum class activation_mode { nodes, edges };
DPREF_ENUM_NAMES(activation_mode, nodes, edges)

/// Whether ι = 2k/n is every node's activation probability in edge mode (see the file comment).
constexpr bool edge_mode_iota_exact(graph_kind g) {
  return g == graph_kind::complete || g == graph_kind::ring;
}

/// The network of a run (public). @spec DDA.NETWORK
struct network {
  static constexpr int max_nodes = 100000;

  graph_kind graph = graph_kind::complete;
  int nodes = 20;
  activation_mode activation = activation_mode::edges;
  int per_step = 1;
  double radius = 0.4;
  double probability = 0.3;
  std::uint64_t graph_seed = 20261121;

  template <class V>
  void fields(V&& v) {
    v("graph", graph, "supergraph: complete, ring, grid, random_geometric or erdos_renyi");
    v("nodes", nodes, "n in [2, 1e5] (grid: rows = ⌊√n⌋ must divide n)");
    v("activation", activation,
      "nodes (m = per_step nodes per round, dda Definition 2) or edges (per_step disjoint "
      "edges, dda §5)");
    v("per_step", per_step, "active nodes (node mode) or disjoint edges (edge mode) per round");
    v("radius", radius, "radius in (0, 2] of the random geometric graph");
    v("probability", probability, "edge probability in (0, 1] of the Erdős–Rényi graph");
    v("graph_seed", graph_seed, "seed of the random graphs");
  }

  /// rows of the grid: ⌊√n⌋.
  [[nodiscard]] int grid_rows() const {
    int r = 1;
    while ((r + 1) * (r + 1) <= nodes) ++r;
    return r;
  }

  /// @throws invalid_parameter "dda::network.<field> must be <condition>, got <value>"
  void validate() const {
    const param_checker c("dda::network");
    c.at_least<int>("nodes", nodes, graph == graph_kind::ring ? 3 : 2, max_nodes);
    if (graph == graph_kind::grid)
      c.require(nodes % grid_rows() == 0, "nodes",
                "a multiple of rows = floor(sqrt(nodes)) for graph = grid", nodes);
    if (activation == activation_mode::nodes)
      c.at_least<int>("per_step", per_step, 1, nodes);
    else
      c.at_least<int>("per_step", per_step, 1, nodes / 2);
    c.require(is_finite_value(radius) && radius > 0 && radius <= 2, "radius", "in (0, 2]", radius);
    c.require(is_finite_value(probability) && probability > 0 && probability <= 1, "probability",
              "in (0, 1]", probability);
  }

  /// The supergraph (random graphs from philox_stream(graph_seed, 0x6A)).
  [[nodiscard]] ::dpref::network::graph make_graph() const {
    philox_stream s(graph_seed, 0x6A);
    switch (graph) {
      case graph_kind::complete:
        return ::dpref::network::complete_graph(nodes);
      case graph_kind::ring:
        return ::dpref::network::ring_graph(nodes);
      case graph_kind::grid:
        return ::dpref::network::grid_graph(grid_rows(), nodes / grid_rows());
      case graph_kind::random_geometric:
        return ::dpref::network::random_geometric_graph<double>(nodes, radius, s);
      case graph_kind::erdos_renyi:
        return ::dpref::network::erdos_renyi_graph<double>(nodes, probability, s);
    }
    return ::dpref::network::complete_graph(nodes);
  }

  /// The gossip sampler of W^(t). @throws invalid_parameter naming per_step when the graph has
  /// no matching of that size, graph when it is not connected
  template <real_scalar Real>
  [[nodiscard]] ::dpref::network::gossip_sampler<Real> sampler() const {
    validate();
    const param_checker c("dda::network");
    auto g = make_graph();
    c.require(g.connected(), "graph",
              "a connected graph (Assumption 2: raise radius or probability)",
              std::string(enum_names(graph_kind{})[static_cast<std::size_t>(graph)].second));
    const bool node_mode = activation == activation_mode::nodes;
    if (!node_mode)
      c.require(static_cast<int>(g.edges.size()) >= per_step, "per_step",
                "<= the number of edges of the graph", per_step);
    try {
      return ::dpref::network::gossip_sampler<Real>(
          std::move(g),
          node_mode ? ::dpref::network::activation::nodes : ::dpref::network::activation::edges,
          per_step);
    } catch (const std::domain_error&) {
      c.fail("per_step", "<= the size of a matching of the graph (edge mode)", per_step);
    }
  }
};

}  // namespace dpref::dda
