// The experiments of pwa §5 as one JSON document (spec/pwa.md PWA.STUDY): Figure 1 (objective vs
// k, private and regular subgradient methods), Figure 2 (vs the box size c), Figure 3 (vs the
// number of pieces m, nested instances) and the ε sweep, each point by run_study_point.
// study_config has a field list: the CLI (`dpref pwa study`) builds its flags from it and passes
// the values as a document to study_json(doc).
#pragma once

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "dpref/io/fields.hpp"
#include "dpref/io/json.hpp"
#include "dpref/params.hpp"
#include "dpref/pwa/study.hpp"
#include "dpref/run/report_json.hpp"

namespace dpref::pwa {

/// What `dpref pwa study` computes (defaults: pwa §5.1).
struct study_config {
  std::vector<int> figures{1, 2, 3, 4};  ///< 1 (k), 2 (c), 3 (m), 4 (ε)
  int m = 20, d = 2;
  double c = 1, bmax = 1;
  std::vector<long long> k_list{1, 2, 5, 10, 20, 50, 100, 200, 500};
  std::vector<double> c_list{0.25, 0.5, 1, 2, 4, 8};
  std::vector<double> m_list{5, 10, 20, 50, 100, 200};
  std::vector<double> eps_list{0.05, 0.1, 0.2, 0.5, 1, 2};
  study_options study;
  std::uint64_t data_seed = 1;

  template <class V>
  void fields(V&& v) {
    v("figures", figures, "1 (k), 2 (c), 3 (m), 4 (ε): a subset");
    v("m", m, "pieces (Figures 1, 2, 4), in [1, 1e5]");
    v("d", d, "dimension, in [1, 1000]");
    v("c", c, "box half-width (Figures 1, 3, 4), in [1e-6, 1e6]");
    v("bmax", bmax, "bmax of the generated instances, in [1e-6, 1e6]");
    v("k_list", k_list, "Figure 1 iteration counts, each in [1, 1e7]");
    v("c_list", c_list, "Figure 2 box sizes, each in [1e-6, 1e6]");
    v("m_list", m_list, "Figure 3 piece counts (nested instances), whole numbers in [1, 1e5]");
    v("eps_list", eps_list, "ε sweep, each in [1e-9, 1e6]");
    v("study", study, "settings of every point");
    v("data_seed", data_seed, "seed of the generated instances");
  }
};

namespace detail {

inline io::json stat_value(const study_stat& s) {
  return {{"mean", s.mean}, {"two_sigma", s.two_sigma}, {"suboptimality", s.suboptimality}};
}

/// Appends a study point to per-mechanism arrays.
inline void append_point(io::json& mech, const study_point& pt) {
  const auto add = [&](const char* name, const study_stat& s) {
    for (const char* key : {"mean", "two_sigma", "suboptimality"})
      mech[name][key].push_back(stat_value(s)[key]);
  };
  add("M_P", pt.mp);
  add("M_S", pt.ms);
  add("subgradient", pt.sub);
  if (pt.has_me) add("M_E", pt.me);
  mech["bounds"]["theorem17"].push_back(pt.thm17);
  mech["bounds"]["theorem24_best_iterate"].push_back(pt.thm24);  // errata PWA-E3
}

/// One sweep of `param` ∈ {c, m, epsilon} over `values`; point i uses point id point_base + i.
inline io::json study_sweep(const study_config& o, const std::string& param,
                            const std::vector<double>& values, std::uint64_t point_base) {
  io::json fig;
  fig["parameter"] = param;
  fig["values"] = values;
  fig["fopt"] = io::json::array();
  io::json mech = io::json::object();
  std::uint64_t id = point_base;
  for (const double v : values) {
    int m = o.m;
    double c = o.c;
    study_options so = o.study;
    if (param == "c") c = v;
    if (param == "m") m = static_cast<int>(v);
    if (param == "epsilon") so.epsilon = v;
    const auto prob = gaussian_instance<double>(o.data_seed, m, o.d, c, o.bmax);
    const auto pt = run_study_point(prob, so, id++);
    fig["fopt"].push_back(pt.fopt);
    append_point(mech, pt);
  }
  fig["mechanisms"] = mech;
  return fig;
}

/// Figure 1: the mean objective of `runs` private subgradient runs for each k, and the regular
/// (non-private) method. Run r for the i-th k reads philox_stream(seed, 5000 + i, r).
inline io::json study_iterations(const study_config& o) {
  io::json fig;
  const auto prob = gaussian_instance<double>(o.data_seed, o.m, o.d, o.c, o.bmax);
  fig["parameter"] = "k";
  fig["values"] = o.k_list;
  fig["fopt"] = solve(prob).value;
  io::json priv_mean = io::json::array(), priv_2s = io::json::array(), regular = io::json::array();
  std::uint64_t id = 0;
  for (const long long k : o.k_list) {
    subgradient_params<double> p;
    p.epsilon = o.study.epsilon;
    p.iterations = k;
    p.rule = step_rule::constant;
    p.step = o.study.step_for(prob, k);
    p.projection = o.study.project ? projection_mode::box : projection_mode::none;
    p.trace = false;
    std::vector<double> vals;
    for (long long r = 0; r < o.study.runs; ++r) {
      philox_stream s(o.study.seed, 5000 + id, static_cast<std::uint64_t>(r));
      vals.push_back(private_subgradient(s, prob, p).objective);
    }
    ++id;
    const auto st = summarize(vals, 0.0);
    priv_mean.push_back(st.mean);
    priv_2s.push_back(st.two_sigma);
    regular.push_back(regular_subgradient(prob, p).objective);
  }
  fig["private"] = {{"mean", priv_mean}, {"two_sigma", priv_2s}};
  fig["regular"] = regular;
  return fig;
}

}  // namespace detail

/// The study document {"command", "setup", "figure1_iterations", "figure2_box_size",
/// "figure3_pieces", "epsilon_sweep"} (the figures requested).
/// @throws std::invalid_argument for runs < 2 or an unknown figure
/// @spec PWA.STUDY
/// Every count and list entry of the study checked before any work, and the work bound
/// (HARD.WORK): runs × d × Σ_points k·m (the subgradient methods' objective evaluations) at
/// most 1e11. @throws invalid_parameter "pwa::study.<field> must be ..., got ..."
inline void validate_study(const study_config& o) {
  o.study.validate();
  const param_checker c("pwa::study");
  c.require(!o.figures.empty() && o.figures.size() <= 4, "figures",
            "a non-empty subset of 1, 2, 3, 4", o.figures.size());
  for (std::size_t i = 0; i < o.figures.size(); ++i) {
    c.at_least<int>("figures", o.figures[i], 1, 4);
    for (std::size_t j = 0; j < i; ++j)
      c.require(o.figures[j] != o.figures[i], "figures", "without repetitions", o.figures[i]);
  }
  c.at_least<int>("m", o.m, 1, 100000);
  c.at_least<int>("d", o.d, 1, 1000);
  c.in_closed("c", o.c, 1e-6, 1e6, "finite and in [1e-6, 1e6]");
  c.in_closed("bmax", o.bmax, 1e-6, 1e6, "finite and in [1e-6, 1e6]");
  const auto list = [&](std::string_view name, std::size_t n) {
    c.require(n >= 1 && n <= 100, name, "a list of 1 to 100 values", n);
  };
  list("k_list", o.k_list.size());
  for (const long long k : o.k_list) c.at_least<long long>("k_list", k, 1, 10000000);
  list("c_list", o.c_list.size());
  for (const double x : o.c_list) c.in_closed("c_list", x, 1e-6, 1e6, "values in [1e-6, 1e6]");
  list("m_list", o.m_list.size());
  for (const double x : o.m_list)
    c.require(x >= 1 && x <= 100000 && x == std::floor(x), "m_list", "whole numbers in [1, 100000]",
              x);
  list("eps_list", o.eps_list.size());
  for (const double x : o.eps_list) c.in_closed("eps_list", x, 1e-9, 1e6, "values in [1e-9, 1e6]");
  double km = 0;
  const double k = static_cast<double>(o.study.iterations), m = o.m;
  for (const int f : o.figures) {
    if (f == 1)
      for (const long long x : o.k_list) km += static_cast<double>(x) * m;
    if (f == 2) km += static_cast<double>(o.c_list.size()) * k * m;
    if (f == 3)
      for (const double x : o.m_list) km += k * x;
    if (f == 4) km += static_cast<double>(o.eps_list.size()) * k * m;
  }
  const double work = static_cast<double>(o.study.runs) * o.d * km;
  param_checker("pwa").require(work <= 1e11, "study.runs",
                               "such that runs × d × Σ_points k·m <= 1e11 (the work bound; got " +
                                   io::format_real(work) + ")",
                               o.study.runs);
}

inline io::json study_json(const study_config& o) {
  validate_study(o);
  io::json out;
  out["command"] = "dpref pwa study";
  out["setup"] = {{"m", o.m},
                  {"d", o.d},
                  {"c", o.c},
                  {"bmax", o.bmax},
                  {"epsilon", o.study.epsilon},
                  {"runs", o.study.runs},
                  {"iterations", o.study.iterations},
                  {"step", o.study.step_rule == study_step_rule::constant
                               ? io::json(o.study.step)
                               : io::json("constant R/(G sqrt(k)) (public: minimises Theorem "
                                          "24's first term)")},
                  {"projection", o.study.project ? "box" : "none (paper)"},
                  {"M_S_noise", "Theorem 9 scale diam(P)/eps (errata PWA-E4)"},
                  {"M_E", study_has_exponential_mechanism && o.study.exponential
                              ? "exact rejection sampler (pwa Theorem 19)"
                              : "not included"},
                  {"error_bars", "2 sigma = 2 * sample std / sqrt(runs)"},
                  {"seed", o.study.seed},
                  {"data_seed", o.data_seed}};
  for (const int f : o.figures) {
    if (f == 1)
      out["figure1_iterations"] = detail::study_iterations(o);
    else if (f == 2)
      out["figure2_box_size"] = detail::study_sweep(o, "c", o.c_list, 100);
    else if (f == 3)
      out["figure3_pieces"] = detail::study_sweep(o, "m", o.m_list, 200);
    else if (f == 4)
      out["epsilon_sweep"] = detail::study_sweep(o, "epsilon", o.eps_list, 300);
    else
      throw std::invalid_argument("dpref pwa study: --figures entries must be 1, 2, 3 or 4");
  }
  return out;
}

/// `dpref pwa study`: the configuration read from `doc` (field list of study_config),
/// validated with the JSON pointer of the offending field, then study_json.
/// @spec PWA.STUDY
inline io::json study_json(const io::document& doc) {
  study_config cfg;
  io::read_fields(io::node(doc), cfg);
  at_path(doc, "/study", [&] { cfg.study.validate(); });
  at_path(doc, "", [&] { validate_study(cfg); });
  return study_json(cfg);
}

}  // namespace dpref::pwa
