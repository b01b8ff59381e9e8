// Shared pieces of the ev algorithms (Algorithms 1 and 2 of ev §II, §IV): the public start
// r_i^(1), step sizes, the result struct and the distributed update of step 3
// (r_i^(k+1) = Π_{C_i}(r_i^(k) − α_k p̂^(k)), r̂_i^(k+1) = (1 − θ_k) r̂_i^(k) + θ_k r_i^(k+1)).
// spec/ev.md EV.ALG1, EV.ALG2, EV.START.PUBLIC.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>
#include <thread>
#include <vector>

#include "dpref/accounting/accounting.hpp"
#include "dpref/error.hpp"
#include "dpref/ev/problem.hpp"
#include "dpref/ev/projection_kernel.hpp"

namespace dpref::ev {

/// How r_i^(1) is chosen.
enum class start_kind {
  zero,           ///< r_i^(1) = 0 (public)
  public_vector,  ///< r_i^(1) = v for every user, v given by the caller (public)
  data_dependent  ///< r_i^(1) = Π_{C_i}(0): depends on the private C_i; refused by Algorithm 2
                  ///< (errata EV-E2: p^(1) would leak, ε = ∞)
};

/// The initial schedule. Only zero() and public_vector() are accepted by Algorithm 2: a public
/// vector is one R^T vector shared by every user, so it cannot carry any user's data.
/// @spec EV.START.PUBLIC
template <real_scalar Real>
struct initial_point {
  start_kind kind = start_kind::zero;
  vector<Real> value;  ///< used by public_vector (size T)

  static initial_point zero() { return {}; }
  static initial_point public_vector(vector<Real> v) {
    return {start_kind::public_vector, std::move(v)};
  }
  static initial_point projected_zero() { return {start_kind::data_dependent, {}}; }
};

/// What a run reports about its stopping.
enum class run_status {
  completed,     ///< ran the fixed number K of iterations (Algorithms 1–3 have no stopping test)
  certified,     ///< optimum: the relative duality-gap certificate met the tolerance
  not_certified  ///< optimum: the iteration cap was reached before the certificate
};

inline const char* to_string(run_status s) {
  switch (s) {
    case run_status::completed:
      return "completed";
    case run_status::certified:
      return "certified";
    case run_status::not_certified:
      return "not_certified";
  }
  return "unknown";
}

/// Result of Algorithms 1 and 2.
template <real_scalar Real>
struct run_result {
  matrix<Real> final_schedules;       ///< r_j^(K+1), T × N
  matrix<Real> averaged_schedules;    ///< r̂_j^(K+1) (Algorithm 1: equal to final_schedules)
  vector<Real> final_load;            ///< Σ_i r_i^(K+1) (multiplicity-weighted)
  vector<Real> averaged_load;         ///< Σ_i r̂_i^(K+1)
  Real final_objective{};             ///< U(Σ_i r_i^(K+1))
  Real averaged_objective{};          ///< U(Σ_i r̂_i^(K+1)), the output of Algorithm 2
  std::vector<Real> objective_trace;  ///< U(Σ r_i^(k)), k = 1..K+1 (if params.trace)
  std::vector<Real> averaged_trace;   ///< U(Σ r̂_i^(k)), k = 1..K+1 (if params.trace)
  matrix<Real> released;              ///< T × K: p̂^(k) (Algorithm 2: the mechanism output M_p)
  matrix<Real> gradients;  ///< T × K: exact p^(k) = ∇U(Σ r_i^(k)) — NOT private, for tests
  accounting::privacy_ledger<Real> ledger;
  run_status status = run_status::completed;
  long long iterations = 0;
};

namespace detail {

/// Validates and materialises r^(1) (T × N) for a problem.
template <real_scalar Real>
matrix<Real> initial_schedules(const char* fn, const charging_problem<Real>& prob,
                               const initial_point<Real>& init) {
  const Eigen::Index t = prob.horizon(), n = prob.groups();
  matrix<Real> r(t, n);
  switch (init.kind) {
    case start_kind::zero:
      r.setZero();
      break;
    case start_kind::public_vector:
      if (init.value.size() != t)
        fail_argument(fn, "initial.value", "of size T = " + std::to_string(t), init.value.size());
      for (Eigen::Index i = 0; i < t; ++i) require_finite(fn, "initial.value[t]", init.value[i]);
      for (Eigen::Index j = 0; j < n; ++j) r.col(j) = init.value;
      break;
    case start_kind::data_dependent: {
      projection_workspace ws;
      const vector<Real> zero = vector<Real>::Zero(t);
      for (Eigen::Index j = 0; j < n; ++j)
        project_into<Real>(zero.data(), prob.specs().max_rate.col(j).data(), prob.specs().energy[j],
                           r.col(j).data(), t, Real(0), ws);
      break;
    }
  }
  return r;
}

/// Users are reduced in fixed blocks of this many columns: Σ_i r_i is the in-order sum of the
/// per-block sums, each block summed in column order, whatever the number of threads, so a run
/// is bit-identical for any thread count (spec/ev.md EV.THREADS).
inline constexpr Eigen::Index reduction_block = 1024;

/// State of the distributed iteration (allocated once per run).
template <real_scalar Real>
struct iteration_state {
  matrix<Real> r, r_hat;  // T × N
  vector<Real> nu;        // last multiplier per column (warm start of the projection)
  vector<Real> load, load_hat;
  matrix<Real> block_load, block_load_hat;  // T × (number of blocks): per-block partial sums
  std::vector<vector<Real>> x0;             // one buffer per thread
  std::vector<projection_workspace> ws;     // one per thread

  iteration_state(const charging_problem<Real>& prob, matrix<Real> start)
      : r(std::move(start)),
        r_hat(r),
        nu(vector<Real>::Zero(prob.groups())),
        load(prob.load(r)),
        load_hat(load) {
    const Eigen::Index blocks = (prob.groups() + reduction_block - 1) / reduction_block;
    block_load.resize(prob.horizon(), blocks);
    block_load_hat.resize(prob.horizon(), blocks);
  }

  /// ev Algorithm 2 step 3 (Algorithm 1 (3) when theta = 1): every column j
  /// r_j ← Π_{C_j}(r_j − α p̂), r̂_j ← (1 − θ) r̂_j + θ r_j; loads re-accumulated per block.
  /// The blocks are split into contiguous ranges over `threads` std::jthread workers.
  void step(const charging_problem<Real>& prob, const vector<Real>& p_hat, const Real& alpha,
            const Real& theta, int threads = 1) {
    const Eigen::Index t = prob.horizon();
    const Eigen::Index blocks = block_load.cols();
    const Eigen::Index workers =
        std::max<Eigen::Index>(1, std::min<Eigen::Index>(threads < 1 ? 1 : threads, blocks));
    if (static_cast<Eigen::Index>(x0.size()) < workers) {
      x0.resize(static_cast<std::size_t>(workers), vector<Real>(t));
      ws.resize(static_cast<std::size_t>(workers));
    }
    // Warm start of the multiplier: for a feasible r_j and a free set that does not change,
    // the root of x0 = r_j − α p̂ is ν = −α·mean_F(p̂); the mean over all slots is a cheap guess
    // (the kernel is exact from any start).
    const Real hint = -alpha * p_hat.sum() / Real(t);
    auto work = [&](Eigen::Index w, Eigen::Index b0, Eigen::Index b1) {
      step_blocks(prob, p_hat, alpha, theta, hint, b0, b1, x0[static_cast<std::size_t>(w)],
                  ws[static_cast<std::size_t>(w)]);
    };
    if (workers == 1) {
      work(0, 0, blocks);
    } else {
      std::vector<std::jthread> pool;
      pool.reserve(static_cast<std::size_t>(workers - 1));
      for (Eigen::Index w = 1; w < workers; ++w)
        pool.emplace_back(work, w, blocks * w / workers, blocks * (w + 1) / workers);
      work(0, 0, blocks / workers);
    }  // jthreads join here
    load.setZero();
    load_hat.setZero();
    for (Eigen::Index b = 0; b < blocks; ++b) {  // fixed-order reduction
      load += block_load.col(b);
      load_hat += block_load_hat.col(b);
    }
  }

 private:
  void step_blocks(const charging_problem<Real>& prob, const vector<Real>& p_hat, const Real& alpha,
                   const Real& theta, const Real& hint, Eigen::Index b0, Eigen::Index b1,
                   vector<Real>& x, projection_workspace& w_s) {
    const Eigen::Index t = prob.horizon(), n = prob.groups();
    const auto& specs = prob.specs();
    const Real keep = Real(1) - theta;
    for (Eigen::Index b = b0; b < b1; ++b) {
      Real* bl = block_load.col(b).data();
      Real* bh = block_load_hat.col(b).data();
      for (Eigen::Index i = 0; i < t; ++i) bl[i] = bh[i] = Real(0);
      const Eigen::Index j1 = std::min(n, (b + 1) * reduction_block);
      for (Eigen::Index j = b * reduction_block; j < j1; ++j) {
        Real* rj = r.col(j).data();
        Real* hj = r_hat.col(j).data();
        for (Eigen::Index i = 0; i < t; ++i) x[i] = rj[i] - alpha * p_hat[i];
        nu[j] = project_into<Real>(x.data(), specs.max_rate.col(j).data(), specs.energy[j], rj, t,
                                   hint, w_s);
        const Real wgt = static_cast<Real>(prob.multiplicity(j));
        for (Eigen::Index i = 0; i < t; ++i) {
          hj[i] = keep * hj[i] + theta * rj[i];
          bl[i] += wgt * rj[i];
          bh[i] += wgt * hj[i];
        }
      }
    }
  }
};

/// α_k = c/√k (ev §IV, Algorithm 2) or the constant c.
template <real_scalar Real>
Real step_size(const Real& c, long long k, bool constant) {
  using std::sqrt;
  return constant ? c : c / sqrt(Real(k));
}

/// Moves the final and averaged iterates of `st` into `res` after K iterations.
template <real_scalar Real, class Problem>
void finish(run_result<Real>& res, iteration_state<Real>& st, const Problem& prob, long long K) {
  res.final_load = st.load;
  res.averaged_load = st.load_hat;
  res.final_objective = prob.value(st.load);
  res.averaged_objective = prob.value(st.load_hat);
  res.final_schedules = std::move(st.r);
  res.averaged_schedules = std::move(st.r_hat);
  res.iterations = K;
  res.status = run_status::completed;
}

}  // namespace detail

}  // namespace dpref::ev
