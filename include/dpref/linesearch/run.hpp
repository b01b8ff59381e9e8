// The one entry point of the linesearch paper (spec/architecture.md ARCH.RUN):
//   result<Real> run(const problem<Real>&, const params<Real>&, const philox_stream&)
// with params.algorithm selecting DP-BLSGD, DP-BLSGD-AC, DP-BLGD, DP-SGD, DP-AGD, OUTPERT, OBJPERT,
// NON-PRIVATE or MAJORITY on a linear ERM problem (problem<Real> = problems::linear_erm<Real>);
// the same run() accepts the §5.7 MLP (problems::mlp_classifier<Real>) for the algorithms that
// are generic over the problem (blsgd, blsgd_ac, blgd, dpsgd). make_problem builds the problem
// from its public description (problem_spec). spec/linesearch.md LS.API.
#pragma once

#include <cmath>
#include <string>
#include <type_traits>

#include "dpref/io/dataset.hpp"
#include "dpref/linesearch/baselines.hpp"
#include "dpref/linesearch/dp_blsgd.hpp"
#include "dpref/linesearch/params.hpp"
#include "dpref/linesearch/result.hpp"
#include "dpref/problems/mlp.hpp"
#include "dpref/random/uniform.hpp"

namespace dpref::linesearch {

/// The problem of the paper's convex experiments (§5.1): L2-regularised linear ERM.
template <real_scalar Real>
using problem = problems::linear_erm<Real>;

/// Synthetic binary data: x ∈ [0, 1]^d, labels from a planted w ∈ [−2, 2]^d with 10% of the
/// labels flipped, drawn from the stream (synthetic_seed ⊕ 0x5EED, 77).
template <real_scalar Real>
problem<Real> synthetic_problem(const problem_spec<Real>& s) {
  philox_stream st(s.synthetic_seed ^ 0x5EEDull, 77);
  matrix<Real> X(s.synthetic_d, s.synthetic_n);
  vector<Real> y(s.synthetic_n), w0(s.synthetic_d);
  // not privacy noise: synthetic data generation (public seed)
  for (auto& v : w0) v = Real(4) * uniform01<Real>(st) - Real(2);
  for (Eigen::Index i = 0; i < X.cols(); ++i) {
    // not privacy noise: synthetic data generation (public seed)
    for (Eigen::Index j = 0; j < X.rows(); ++j) X(j, i) = uniform01<Real>(st);
    Real m = X.col(i).dot(w0) - w0.sum() / 2;
    // not privacy noise: synthetic data generation (public seed)
    if (uniform01<Real>(st) < Real(1) / 10) m = -m;
    y[i] = m > Real(0) ? Real(1) : Real(-1);
  }
  return problem<Real>(std::move(X), std::move(y), margin_loss_of<Real>(s.loss), s.mu);
}

/// Builds the problem: the data file (CSV label,features or LIBSVM ".svm"; every k-th row kept
/// when max_rows is given) or synthetic data. The dense data are bounded by n·d <= 2^26 values
/// (checked before allocating). @throws invalid_parameter / std::invalid_argument naming the
/// field or the file @spec LS.API
template <real_scalar Real>
problem<Real> make_problem(const problem_spec<Real>& s) {
  s.validate();
  if (s.data.empty()) return synthetic_problem(s);
  io::dataset_limits lim;
  lim.max_cells = problem_spec<Real>::max_cells;
  matrix<Real> X;
  vector<Real> y;
  if (s.data.size() > 4 && s.data.substr(s.data.size() - 4) == ".svm") {
    auto d = io::read_libsvm<Real>(s.data, 0, lim);
    param_checker("linesearch::problem")
        .require(
            d.X.rows() <= problem_spec<Real>::max_cells / std::max<Eigen::Index>(1, d.X.cols()),
            "data", "a data set with n·d <= 2^26 (memory bound)", s.data);
    X = matrix<Real>(d.X);
    y = std::move(d.y);
  } else {
    auto d = io::read_csv_binary<Real>(s.data, lim);
    X = std::move(d.X);
    y = std::move(d.y);
  }
  if (s.max_rows && X.cols() > *s.max_rows) {
    const Eigen::Index stride = (X.cols() + *s.max_rows - 1) / *s.max_rows;
    const Eigen::Index m = (X.cols() + stride - 1) / stride;
    matrix<Real> X2(X.rows(), m);
    vector<Real> y2(m);
    for (Eigen::Index k = 0; k < m; ++k) {
      X2.col(k) = X.col(k * stride);
      y2[k] = y[k * stride];
    }
    X = std::move(X2);
    y = std::move(y2);
  }
  return problem<Real>(std::move(X), std::move(y), margin_loss_of<Real>(s.loss), s.mu);
}

/// Runs params.algorithm on P (see the file comment). Non-private algorithms report
/// privacy.is_private = false and keep their output in the diagnostics; a private run computes
/// the non-private diagnostics (F(w), training accuracy, the objective trace) only when
/// params.diagnostics asks for them (spec/privacy_bounds.md PRIV.RELEASE), and lists its public
/// constants with their enforcement in privacy.enforced (PRIV.BOUNDS).
/// @throws invalid_parameter for invalid parameters (the message names the field);
/// accounting::budget_exceeded before anything is released when a fixed plan exceeds the
/// request without allow_over_budget
/// @spec ARCH.RUN LS.API
template <real_scalar Real, linesearch_problem<Real> Problem>
result<Real> run(const Problem& P, const params<Real>& p, const philox_stream& stream) {
  p.validate();
  constexpr bool linear = std::is_same_v<Problem, problems::linear_erm<Real>>;
  const param_checker chk("linesearch::params");
  if (p.algorithm != algorithm::outpert && p.algorithm != algorithm::objpert &&
      is_private(p.algorithm)) {  // RDP accounting: the request must be attainable on the grid
    try {
      (void)rdp_budget_for_dp(p.epsilon, p.delta,
                              accounting::integer_orders<Real>(2, static_cast<int>(p.max_order)));
    } catch (const std::domain_error&) {
      chk.fail("epsilon",
               "attainable at delta = " + io::format_real(p.delta) + " on the RDP orders 2.." +
                   std::to_string(p.max_order) + " (raise max_order or epsilon)",
               p.epsilon);
    }
  }
  result<Real> r;
  switch (p.algorithm) {
    case algorithm::blsgd:
    case algorithm::blsgd_ac:
    case algorithm::blgd:
      r = dp_blsgd(P, p, stream);
      break;
    case algorithm::dpsgd:
      r = dp_sgd(P, p, stream);
      break;
    default:
      if constexpr (!linear) {
        chk.fail("algorithm", "blsgd, blsgd_ac, blgd or dpsgd for the MLP problem",
                 std::string(io::enum_to_string(p.algorithm)));
      } else {
        const param_checker pc("linesearch::problem");
        using std::sqrt;
        const Real R = p.R ? *p.R : Real(sqrt(Real(static_cast<long long>(P.dimension()))));
        switch (p.algorithm) {
          case algorithm::dpagd:
            r = dp_agd(P, p, stream);
            break;
          case algorithm::outpert:
          case algorithm::objpert:
            pc.require(P.mu() > Real(0), "mu", "> 0 for outpert and objpert (strong convexity)",
                       P.mu());
            r = p.algorithm == algorithm::outpert
                    ? output_perturbation(smooth_surrogate(P), p, R, stream)
                    : objective_perturbation(smooth_surrogate(P), p, R, stream);
            break;
          case algorithm::nonprivate: {
            const auto m = minimize_smooth(
                smooth_surrogate(P), vector<Real>(vector<Real>::Zero(P.dimension())), Real(0));
            r.privacy = ::dpref::non_private<Real>();
            r.status = m.converged ? status::converged : status::iteration_limit;
            r.message = m.converged ? "Newton-CG met its gradient-norm test"
                                    : "Newton-CG stopped at its iteration cap";
            r.diagnostics.minimiser = m.w;
            r.diagnostics.objective = P.value(m.w);
            r.diagnostics.accuracy = Real(P.accuracy(m.w));
            return r;
          }
          case algorithm::majority: {
            r.privacy = ::dpref::non_private<Real>();
            r.status = status::completed;
            r.message = "the training majority class (not private)";
            r.diagnostics.majority_class = majority_class(P.labels());
            r.diagnostics.accuracy = Real(majority_accuracy(P.labels(), P.labels()));
            return r;
          }
          default:
            break;
        }
      }
  }
  if (r.w.size() > 0 && p.diagnostics) {  // PRIV.RELEASE: only when asked for
    r.diagnostics.objective = P.value(r.w);
    r.diagnostics.accuracy = Real(P.accuracy(r.w));
  }
  return r;
}

}  // namespace dpref::linesearch
