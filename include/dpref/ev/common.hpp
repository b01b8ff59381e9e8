// Shared pieces of the ev algorithms (Algorithms 1–3 of ev §II, §IV): the start r_i^(1), the
// distributed update of step 3 (r_i^(k+1) = Π_{C_i}(r_i^(k) − α_k p̂^(k)),
// r̂_i^(k+1) = (1 − θ_k) r̂_i^(k) + θ_k r_i^(k+1)) with its block reduction and step sizes (the
// result of `ev::run` is in result.hpp). spec/ev.md EV.ALG1, EV.ALG2, EV.START.PUBLIC, EV.THREADS,
// EV.RESULT.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <functional>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "dpref/error.hpp"
#include "dpref/ev/params.hpp"
#include "dpref/ev/problem.hpp"
#include "dpref/ev/projection_kernel.hpp"
#include "dpref/ev/result.hpp"
#include "dpref/parallel/communicator.hpp"
#include "dpref/parallel/exact_transfer.hpp"
#include "dpref/parallel/worker_scope.hpp"
#include "dpref/run/report.hpp"

namespace dpref::ev {

/// Receives progress lines of long runs (the CLI prints them on stderr; timings never go into
/// a result).
using progress_fn = std::function<void(std::string_view)>;

/// Calls a progress_fn at most every `period` (and on demand), with the elapsed time.
class progress_meter {
 public:
  explicit progress_meter(const progress_fn& f, double period_seconds = 2.0)
      : f_(f), period_(period_seconds), t0_(clock::now()), last_(t0_) {}
  [[nodiscard]] double seconds() const {
    return std::chrono::duration<double>(clock::now() - t0_).count();
  }
  /// Reports `what` if `force` or the period has passed since the last report.
  template <class Text>
  void report(Text&& what, bool force = false) {
    if (!f_) return;
    const auto now = clock::now();
    if (!force && std::chrono::duration<double>(now - last_).count() < period_) return;
    last_ = now;
    const std::string line = std::string(what()) + " (" + std::to_string(seconds()) + " s)";
    f_(line);
  }

 private:
  using clock = std::chrono::steady_clock;
  const progress_fn& f_;
  double period_;
  clock::time_point t0_, last_;
};

namespace detail {

/// Validates the start against the problem and materialises r^(1) (T × N).
/// @throws invalid_parameter naming params.start_vector (size != T)
template <real_scalar Real>
matrix<Real> initial_schedules(const problem<Real>& prob, start_kind start,
                               const std::vector<Real>& start_vector) {
  const Eigen::Index t = prob.horizon(), n = prob.groups();
  matrix<Real> r(t, n);
  switch (start) {
    case start_kind::zero:
      r.setZero();
      break;
    case start_kind::public_vector: {
      param_checker("ev::params")
          .require(static_cast<Eigen::Index>(start_vector.size()) == t, "start_vector",
                   "of size T = " + std::to_string(t), start_vector.size());
      vector<Real> v(t);
      for (Eigen::Index i = 0; i < t; ++i) {
        v[i] = start_vector[static_cast<std::size_t>(i)];
        param_checker("ev::params").finite("start_vector", v[i]);
      }
      for (Eigen::Index j = 0; j < n; ++j) r.col(j) = v;
      break;
    }
    case start_kind::projected_zero: {
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

}  // namespace detail

/// State of the distributed iteration (allocated once per run): the schedules of the held
/// columns, the per-block load sums of every block and the loads. One iteration of step 3 is
/// `step_range` on every block (any split of the blocks into contiguous ranges, on any threads
/// or processes) followed by `reduce`; `step` does both on `threads` std::jthread workers. The
/// distributed step (spec/distributed.md DIST.EV) gives each process whole blocks (column ranges
/// split at multiples of reduction_block, `owned_columns`), calls step_range on its blocks,
/// gathers the block sums and adds them in global block order. The problem may be the whole
/// database (every column held) or the rank's slice (only its owned columns: memory O(T·N/P)).
/// @spec EV.THREADS DIST.EV
template <real_scalar Real>
class iteration_state {
 public:
  matrix<Real> r, r_hat;                    ///< T × held columns (global column first_ + l)
  vector<Real> nu;                          ///< last multiplier per held column (warm start)
  vector<Real> load, load_hat;              ///< Σ_j mult_j r_j, Σ_j mult_j r̂_j (all N columns)
  matrix<Real> block_load, block_load_hat;  ///< T × blocks: per-block partial sums

  /// @param comm the ranks of a distributed run; with a slice `prob` (the rank's owned
  /// columns), the initial load Σ_j mult_j r_j^(1) is summed in column order along the ranks
  /// (rank q adds its columns to the partial sum of rank q − 1), as problem::load does serially.
  /// @throws std::logic_error if a slice is not the owned columns of this rank
  iteration_state(const problem<Real>& prob, matrix<Real> start,
                  const parallel::communicator& comm = parallel::serial())
      : r(std::move(start)),
        r_hat(r),
        nu(vector<Real>::Zero(prob.groups())),
        first_(prob.first_column()),
        total_(prob.total_columns()) {
    const Eigen::Index blocks = block_count(total_);
    block_load.resize(prob.horizon(), blocks);
    block_load_hat.resize(prob.horizon(), blocks);
    if (prob.is_slice()) {
      const parallel::range own = owned_columns(total_, comm.size(), comm.rank());
      if (own.begin != first_ || own.size() != prob.groups())
        throw std::logic_error("ev::iteration_state: the problem is not this rank's slice");
      load = vector<Real>::Zero(prob.horizon());
      if (comm.rank() > 0) {  // the partial sum of the columns before ours
        const int prev[] = {comm.rank() - 1};
        const auto in = comm.exchange({}, prev);
        std::size_t pos = 0;
        parallel::unpack_all(load, in.at(0), pos);
      }
      for (Eigen::Index j = 0; j < r.cols(); ++j)
        load += Real(prob.multiplicity(j)) * r.col(j);  // the expression of problem::load
      if (comm.rank() + 1 < comm.size()) {
        parallel::message out{comm.rank() + 1, {}};
        parallel::pack_all(load, out.data);
        (void)comm.exchange(std::span<const parallel::message>(&out, 1), {});
      }
      parallel::share_from(comm, load, comm.size() - 1);
    } else {
      load = prob.load(r);
    }
    load_hat = load;
    reserve_workers(1, prob.horizon());
  }

  /// Number of reduction blocks of N columns.
  [[nodiscard]] static Eigen::Index block_count(Eigen::Index columns) {
    return reduction_blocks(columns);
  }
  [[nodiscard]] Eigen::Index blocks() const { return block_load.cols(); }
  /// Global columns [first, second) of block b.
  [[nodiscard]] std::pair<Eigen::Index, Eigen::Index> block_columns(Eigen::Index b) const {
    return {b * reduction_block, std::min<Eigen::Index>(total_, (b + 1) * reduction_block)};
  }
  /// Global index of held column 0, and N.
  [[nodiscard]] Eigen::Index first_column() const { return first_; }
  [[nodiscard]] Eigen::Index total_columns() const { return total_; }
  /// Scratch buffers for `workers` concurrent step_range callers (call before they start).
  void reserve_workers(std::size_t workers, Eigen::Index horizon) {
    if (x0_.size() < workers) {
      x0_.resize(workers, vector<Real>(horizon));
      ws_.resize(workers);
    }
  }

  /// The multiplier warm start shared by every column of one iteration: for a feasible r_j and
  /// a free set that does not change, the root of x0 = r_j − α p̂ is ν = −α·mean_F(p̂); the mean
  /// over all slots is a cheap guess (the kernel is exact from any start).
  [[nodiscard]] static Real hint(const vector<Real>& p_hat, const Real& alpha) {
    return -alpha * p_hat.sum() / Real(p_hat.size());
  }

  /// ev Algorithm 2 step 3 (Algorithm 1 (3) when θ = 1) on the columns of blocks [b0, b1):
  /// r_j ← Π_{C_j}(r_j − α p̂), r̂_j ← (1 − θ) r̂_j + θ r_j, and the block sums of those blocks.
  /// Concurrent callers must use distinct `worker` slots and disjoint block ranges; the blocks'
  /// columns must be held.
  void step_range(const problem<Real>& prob, const vector<Real>& p_hat, const Real& alpha,
                  const Real& theta, Eigen::Index b0, Eigen::Index b1, std::size_t worker = 0) {
    if (worker >= x0_.size() || b0 < 0 || b1 > blocks() || b0 > b1)
      throw std::logic_error("ev::iteration_state::step_range: bad worker or block range");
    if (b0 < b1 && (block_columns(b0).first < first_ || block_end(b1) > first_ + r.cols()))
      throw std::logic_error("ev::iteration_state::step_range: blocks not held here");
    const Eigen::Index t = prob.horizon();
    const auto& specs = prob.specs();
    const Real keep = Real(1) - theta;
    const Real h = hint(p_hat, alpha);
    vector<Real>& x = x0_[worker];
    projection_workspace& w_s = ws_[worker];
    for (Eigen::Index b = b0; b < b1; ++b) {
      Real* bl = block_load.col(b).data();
      Real* bh = block_load_hat.col(b).data();
      for (Eigen::Index i = 0; i < t; ++i) bl[i] = bh[i] = Real(0);
      const auto [j0, j1] = block_columns(b);
      for (Eigen::Index j = j0 - first_; j < j1 - first_; ++j) {  // held (local) columns
        Real* rj = r.col(j).data();
        Real* hj = r_hat.col(j).data();
        for (Eigen::Index i = 0; i < t; ++i) x[i] = rj[i] - alpha * p_hat[i];
        nu[j] = project_into<Real>(x.data(), specs.max_rate.col(j).data(), specs.energy[j], rj, t,
                                   h, w_s);
        const Real wgt = static_cast<Real>(prob.multiplicity(j));
        for (Eigen::Index i = 0; i < t; ++i) {
          hj[i] = keep * hj[i] + theta * rj[i];
          bl[i] += wgt * rj[i];
          bh[i] += wgt * hj[i];
        }
      }
    }
  }

  /// First global column after blocks [.., b1) (b1 = blocks(): N).
  [[nodiscard]] Eigen::Index block_end(Eigen::Index b1) const {
    return std::min<Eigen::Index>(total_, b1 * reduction_block);
  }

  /// step_range on blocks [b0, b1), split into contiguous ranges over `threads` std::jthread
  /// workers (no reduction).
  void step_blocks(const problem<Real>& prob, const vector<Real>& p_hat, const Real& alpha,
                   const Real& theta, Eigen::Index b0, Eigen::Index b1, int threads) {
    const Eigen::Index nb = b1 - b0;
    const Eigen::Index workers =
        std::max<Eigen::Index>(1, std::min<Eigen::Index>(threads < 1 ? 1 : threads, nb));
    reserve_workers(static_cast<std::size_t>(workers), prob.horizon());
    if (workers == 1) {
      step_range(prob, p_hat, alpha, theta, b0, b1, 0);
      return;
    }
    std::vector<std::jthread> pool;
    pool.reserve(static_cast<std::size_t>(workers - 1));
    const parallel::thread_numerics numerics = parallel::thread_numerics::current();
    for (Eigen::Index w = 1; w < workers; ++w)
      pool.emplace_back([&, w] {
        const parallel::worker_scope scope(numerics);
        step_range(prob, p_hat, alpha, theta, b0 + nb * w / workers, b0 + nb * (w + 1) / workers,
                   static_cast<std::size_t>(w));
      });
    step_range(prob, p_hat, alpha, theta, b0, b0 + nb / workers, 0);
  }  // jthreads join here

  /// load = Σ_b block_load(b), load_hat likewise, added in block order (fixed-order reduction).
  void reduce() {
    load.setZero();
    load_hat.setZero();
    for (Eigen::Index b = 0; b < blocks(); ++b) {
      load += block_load.col(b);
      load_hat += block_load_hat.col(b);
    }
  }

  /// One iteration of step 3 on every block: the blocks are split into contiguous ranges over
  /// `threads` std::jthread workers, then reduced in block order.
  void step(const problem<Real>& prob, const vector<Real>& p_hat, const Real& alpha,
            const Real& theta, int threads = 1) {
    step_blocks(prob, p_hat, alpha, theta, 0, blocks(), threads);
    reduce();
  }

  /// Blocks [first, second) of `rank` among `ranks` processes (contiguous, block-aligned).
  [[nodiscard]] std::pair<Eigen::Index, Eigen::Index> owned_blocks(int ranks, int rank) const {
    const parallel::range rg = parallel::block_range(blocks(), ranks, rank);
    return {static_cast<Eigen::Index>(rg.begin), static_cast<Eigen::Index>(rg.end)};
  }

  /// One iteration of step 3 distributed over the ranks of `comm` (spec/distributed.md
  /// DIST.EV): each rank steps the columns of its blocks (owned_blocks, on `threads` workers),
  /// the per-block sums are all-gathered exactly (rank order = block order) and every rank adds
  /// them in block order (`reduce`), so load and load_hat are bit-identical to `step` for any
  /// number of ranks. r, r̂ of other ranks' columns are not updated here (`collect`).
  void step(const problem<Real>& prob, const vector<Real>& p_hat, const Real& alpha,
            const Real& theta, int threads, const parallel::communicator& comm) {
    if (comm.size() == 1) {
      step(prob, p_hat, alpha, theta, threads);
      return;
    }
    const auto [b0, b1] = owned_blocks(comm.size(), comm.rank());
    step_blocks(prob, p_hat, alpha, theta, b0, b1, threads);
    std::vector<double> mine;
    for (Eigen::Index b = b0; b < b1; ++b) parallel::pack_all(block_load.col(b), mine);
    for (Eigen::Index b = b0; b < b1; ++b) parallel::pack_all(block_load_hat.col(b), mine);
    const std::vector<double> all = comm.allgather(mine);
    std::size_t pos = 0;
    for (int q = 0; q < comm.size(); ++q) {
      const auto [c0, c1] = owned_blocks(comm.size(), q);
      for (Eigen::Index b = c0; b < c1; ++b) parallel::unpack_all(block_load.col(b), all, pos);
      for (Eigen::Index b = c0; b < c1; ++b) parallel::unpack_all(block_load_hat.col(b), all, pos);
    }
    reduce();
  }

  /// The held schedules `m` (r or r̂, moved from) after distributed steps (DIST.EV): on rank 0
  /// all N columns, the other ranks' owned columns gathered exactly to rank 0 only, in rounds of
  /// at most ~2^24 values received; on the other ranks their owned columns only (global columns
  /// owned_columns(N, P, rank)). Serially: m itself.
  [[nodiscard]] matrix<Real> collect(matrix<Real>& m, const parallel::communicator& comm) const {
    const int ranks = comm.size();
    if (ranks == 1) return std::move(m);
    const Eigen::Index t = m.rows();
    const parallel::range own = owned_columns(total_, ranks, comm.rank());
    Eigen::Index widest = 0;
    for (int q = 0; q < ranks; ++q)
      widest = std::max<Eigen::Index>(widest, owned_columns(total_, ranks, q).size());
    const Eigen::Index chunk =
        std::max<Eigen::Index>(1, (Eigen::Index(1) << 24) / (Eigen::Index(ranks) * (t + 1)));
    const Eigen::Index rounds = (widest + chunk - 1) / chunk;
    // rank 0 owns columns [0, ..): its held columns stay in place and the matrix grows to N
    // (a realloc for double: no copy of the held part)
    if (comm.is_root() && m.cols() != total_) m.conservativeResize(t, total_);
    for (Eigen::Index k = 0; k < rounds; ++k) {
      std::vector<double> mine;
      if (!comm.is_root()) {
        const Eigen::Index a = own.begin + k * chunk, e = std::min(own.end, a + chunk);
        for (Eigen::Index j = a; j < e; ++j) parallel::pack_all(m.col(j - first_), mine);
      }
      const std::vector<double> all = comm.gather(mine, 0);
      if (!comm.is_root()) continue;
      std::size_t pos = 0;
      for (int q = 1; q < ranks; ++q) {
        const parallel::range o = owned_columns(total_, ranks, q);
        const Eigen::Index a = o.begin + k * chunk, e = std::min(o.end, a + chunk);
        for (Eigen::Index j = a; j < e; ++j) parallel::unpack_all(m.col(j), all, pos);
      }
    }
    if (comm.is_root()) return std::move(m);
    if (first_ == own.begin && m.cols() == own.size()) return std::move(m);  // a slice
    matrix<Real> mine = m.middleCols(own.begin - first_, own.size());        // whole problem held
    m.resize(0, 0);
    return mine;
  }

 private:
  std::vector<vector<Real>> x0_;          // one buffer per worker
  std::vector<projection_workspace> ws_;  // one per worker
  Eigen::Index first_ = 0, total_ = 0;    // global index of held column 0; N
};

namespace detail {

/// α_k = c/√k (ev §IV, Algorithms 2 and 3) or the constant c (Algorithm 1 option).
template <real_scalar Real>
Real step_size(const Real& c, long long k, bool constant) {
  using std::sqrt;
  return constant ? c : c / sqrt(Real(k));
}

/// θ_k = (η+1)/(η+k).
template <real_scalar Real>
Real averaging_weight(const Real& eta, long long k) {
  return (eta + Real(1)) / (eta + Real(k));
}

/// Whether α·p̂ is finite and small enough (|α p̂_t| <= 1e300) for step 3 to stay finite; the
/// run stops with status diverged (and the last finite iterate) otherwise.
template <real_scalar Real>
bool step_is_finite(const vector<Real>& p_hat, const Real& alpha) {
  for (Eigen::Index i = 0; i < p_hat.size(); ++i) {
    const Real v = alpha * p_hat[i];
    if (!is_finite_value(v) || v > Real(1e300) || v < Real(-1e300)) return false;
  }
  return true;
}

/// Moves the final and averaged iterates of `st` into `res`.
template <real_scalar Real>
void finish(result<Real>& res, iteration_state<Real>& st, const problem<Real>& prob,
            const parallel::communicator& comm = parallel::serial()) {
  res.final_load = st.load;
  res.averaged_load = st.load_hat;
  res.final_objective = prob.value(st.load);
  res.averaged_objective = prob.value(st.load_hat);
  // DIST.EV: rank 0 receives every column; the other ranks keep their owned columns
  res.final_schedules = st.collect(st.r, comm);
  res.averaged_schedules = st.collect(st.r_hat, comm);
  res.schedules_first_column =
      comm.is_root() ? 0 : owned_columns(st.total_columns(), comm.size(), comm.rank()).begin;
}

}  // namespace detail

}  // namespace dpref::ev
