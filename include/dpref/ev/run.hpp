// The one entry point of the ev module (spec/architecture.md ARCH.RUN, spec/ev.md EV.RUN):
//   result<Real> run(const problem<Real>&, const params<Real>&, const philox_stream&)
// runs the algorithm named by params.algorithm (Algorithm 2, 1, 3 or the certified optimum),
// after validating the parameters against the problem (sizes, work and memory bounds), and adds
// the certified optimum U* as a non-private diagnostic when params.optimum is set (Algorithm 2:
// only together with params.diagnostics, PRIV.RELEASE). The stream is
// the run's root address: Algorithm 2 draws w_k from its substream k, Algorithm 3 its gradient
// noise from substream k; nothing depends on the number of threads.
// `config<Real>` is the complete configuration of `dpref ev run` (and of run_json).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include "dpref/ev/common.hpp"
#include "dpref/ev/data.hpp"
#include "dpref/ev/optimum.hpp"
#include "dpref/ev/params.hpp"
#include "dpref/ev/private_projected_gradient.hpp"
#include "dpref/ev/projected_gradient.hpp"
#include "dpref/ev/projected_sgd.hpp"
#include "dpref/random/philox_stream.hpp"
#include "dpref/run/config.hpp"

namespace dpref::ev {

/// Work bound of one run: iterations × columns × T (lifted by params.force).
inline constexpr double max_work = 2e10;
/// Memory bound of the released / exact-gradient matrices: T × K values each.
inline constexpr long long max_released_values = 10000000;

namespace detail {

/// The checks of `params` that need the problem (sizes and bounds).
/// @throws invalid_parameter naming the field
template <real_scalar Real>
void validate_against(const problem<Real>& prob, const params<Real>& p) {
  p.validate();
  const param_checker c("ev::params");
  const long long t = prob.horizon(), n = prob.total_columns();
  const auto work = [&](long long k) {
    return static_cast<double>(k) * static_cast<double>(n) * static_cast<double>(t);
  };
  if (p.algorithm != algorithm_kind::optimum) {
    c.require(p.iterations <= max_released_values / t, "iterations",
              "<= " + std::to_string(max_released_values / t) + " at T = " + std::to_string(t) +
                  " (memory bound: T × K <= 1e7 released values)",
              p.iterations);
    c.require(p.force || work(p.iterations) <= max_work, "iterations",
              "such that iterations × columns × T <= 2e10 (work bound; set force to lift it; "
              "columns = " +
                  std::to_string(n) + ", T = " + std::to_string(t) + ")",
              p.iterations);
  }
  if (p.algorithm == algorithm_kind::optimum || p.optimum)
    c.require(p.force || work(p.optimum_max_iterations) <= max_work, "optimum_max_iterations",
              "such that optimum_max_iterations × columns × T <= 2e10 (work bound; set force to "
              "lift it, or optimum = false; columns = " +
                  std::to_string(n) + ", T = " + std::to_string(t) + ")",
              p.optimum_max_iterations);
  if (p.start == start_kind::public_vector)
    c.require(static_cast<long long>(p.start_vector.size()) == t, "start_vector",
              "of size T = " + std::to_string(t), p.start_vector.size());
}

}  // namespace detail

/// Runs params.algorithm on `prob` (see the file comment), reporting progress of long phases.
/// Distributed variant (spec/distributed.md DIST.EV): every rank of `comm` calls it with the
/// same arguments; the users' blocks are split over the ranks, rank 0 draws the noise, and every
/// rank returns the same result, bit-identical to the serial run (the default communicator).
/// `prob` is the whole problem on every rank, or each rank's slice (make_problem(spec, comm):
/// memory O(T·N/P) per rank); rank 0's result holds all N schedule columns, the other ranks'
/// their owned columns (result::schedules_first_column). The certified optimum (params.optimum,
/// algorithm optimum) needs the whole problem and is computed on every rank alike.
/// @throws invalid_parameter naming the parameter; accounting::budget_exceeded if Algorithm 2's
/// certified guarantee would exceed params.epsilon (never after calibrate_algorithm2)
/// @spec EV.RUN ARCH.RUN DIST.EV
template <real_scalar Real>
result<Real> run(const problem<Real>& prob, const params<Real>& params, const philox_stream& stream,
                 const progress_fn& progress,
                 const parallel::communicator& comm = parallel::serial()) {
  detail::validate_against(prob, params);
  if (prob.is_slice() && (params.optimum || params.algorithm == algorithm_kind::optimum))
    throw std::invalid_argument(
        "ev::run: the certified optimum (params.optimum, algorithm optimum) needs the whole "
        "problem on every rank, not a slice");
  result<Real> res;
  switch (params.algorithm) {
    case algorithm_kind::private_projected_gradient:
      res = detail::run_algorithm2(prob, params, stream, progress, comm);
      break;
    case algorithm_kind::projected_gradient:
      res = detail::run_algorithm1(prob, params, progress, comm);
      break;
    case algorithm_kind::projected_sgd:
      res = detail::run_algorithm3(prob, params, stream, progress, comm);
      break;
    case algorithm_kind::optimum:
      return solve_optimum(prob, params.optimum_max_iterations, params.optimum_relative_gap,
                           progress);
  }
  if (params.optimum) {
    const result<Real> opt =
        solve_optimum(prob, params.optimum_max_iterations, params.optimum_relative_gap, progress);
    res.optimum = opt.optimum;
  }
  return res;
}

/// Runs params.algorithm on `prob` (ARCH.RUN).
/// @spec EV.RUN ARCH.RUN
template <real_scalar Real>
result<Real> run(const problem<Real>& prob, const params<Real>& params,
                 const philox_stream& stream) {
  return run(prob, params, stream, progress_fn{});
}

/// The `--params` document of `dpref ev run` and the "config" of its result (ARCH.RUN).
template <real_scalar Real>
using config = run_config<problem_spec<Real>, ev::params<Real>, 1>;

}  // namespace dpref::ev
