// The conformance families of the calibrations and of the capped-simplex projection
// (spec/conformance.md CONF.CORPUS): expected values are dpref's exact evaluation at 120
// decimal digits (mpfr_real).
#pragma once

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "dpref/conformance/check.hpp"
#include "dpref/conformance/gen_common.hpp"
#include "dpref/conformance/numbers.hpp"
#include "dpref/conformance/ops.hpp"
#include "dpref/conformance/registry.hpp"

namespace dpref::conformance::gen {

// --------------------------------------------------------------------------- calibration --

inline family calibration_family() {
  family f{"calibration/calibrators",
           "generic calibrators and privacy functions (ACC.LAPLACE, ACC.GAUSS.*, ACC.EXPMECH, "
           "ACC.DISCRETE.*): certified values, never below the exact one",
           {}};
  using args = std::map<std::string, std::string>;
  const std::vector<std::pair<std::string, args>> ok = {
      {"laplace_scale", {{"epsilon", "0.5"}, {"sensitivity", "1"}}},
      {"laplace_scale", {{"epsilon", "0.09375"}, {"sensitivity", "2"}}},
      {"laplace_scale", {{"epsilon", "3"}, {"sensitivity", "0.25"}}},
      {"gaussian_sigma",
       {{"epsilon", "1"}, {"delta", "0.00000762939453125"}, {"sensitivity", "1"}}},
      {"gaussian_sigma",
       {{"epsilon", "0.5"}, {"delta", "0.00000095367431640625"}, {"sensitivity", "2"}}},
      {"gaussian_sigma", {{"epsilon", "4"}, {"delta", "0.0009765625"}, {"sensitivity", "1"}}},
      {"gaussian_sigma_classical",
       {{"epsilon", "0.5"}, {"delta", "0.00000762939453125"}, {"sensitivity", "1"}}},
      {"gaussian_sigma_classical",
       {{"epsilon", "0.875"}, {"delta", "0.000000000931322574615478515625"}, {"sensitivity", "3"}}},
      {"gaussian_epsilon",
       {{"sigma", "2"}, {"delta", "0.00000762939453125"}, {"sensitivity", "1"}}},
      {"gaussian_epsilon", {{"sigma", "0.75"}, {"delta", "0.0009765625"}, {"sensitivity", "1"}}},
      {"gaussian_delta", {{"sigma", "2"}, {"epsilon", "0.5"}, {"sensitivity", "1"}}},
      {"gaussian_delta", {{"sigma", "1"}, {"epsilon", "0"}, {"sensitivity", "1"}}},
      {"laplace_epsilon", {{"scale", "3"}, {"sensitivity", "1"}}},
      {"vector_laplace_epsilon", {{"scale", "0.75"}, {"sensitivity", "2"}}},
      {"exponential_epsilon",
       {{"scale", "4"}, {"utility_sensitivity", "0.5"}, {"monotone", "false"}}},
      {"exponential_epsilon",
       {{"scale", "4"}, {"utility_sensitivity", "0.5"}, {"monotone", "true"}}},
      {"discrete_laplace_epsilon", {{"t_num", "7"}, {"t_den", "3"}, {"sensitivity", "1"}}},
      {"discrete_gaussian_delta",
       {{"var_num", "25"}, {"var_den", "4"}, {"sensitivity", "1"}, {"epsilon", "0.5"}}},
      {"discrete_gaussian_delta",
       {{"var_num", "1"}, {"var_den", "1"}, {"sensitivity", "2"}, {"epsilon", "1"}}},
  };
  const std::vector<std::pair<std::string, args>> refused = {
      {"laplace_scale", {{"epsilon", "0"}, {"sensitivity", "1"}}},
      {"gaussian_sigma_classical",
       {{"epsilon", "1.5"}, {"delta", "0.00000762939453125"}, {"sensitivity", "1"}}},
      {"gaussian_sigma", {{"epsilon", "1"}, {"delta", "0"}, {"sensitivity", "1"}}},
  };
  const std::vector<std::pair<std::string, int>> precisions = {{"double", bits_of<double>()},
                                                               {"mp50", bits_of<mp50>()}};
  int i = 0;
  for (const auto& [fn, a] : ok) {
    io::json ja = io::json::object();
    for (const auto& [k, v] : a) ja[k] = v;
    const io::json expected = {{"value", str(exact(calibrate<mpfr_real>(fn, a)))}};
    for (const auto& [p, bits] : precisions)
      f.vectors.push_back(finish({{"id", f.path + "/" + std::to_string(i) + "-" + fn + "/" + p},
                                  {"op", "calibrate"},
                                  {"input", {{"function", fn}, {"args", ja}, {"precision", p}}},
                                  {"expected", expected},
                                  {"tolerance", {{"value", certified_tol(bits)}}}}));
    ++i;
  }
  for (const auto& [fn, a] : refused) {
    io::json ja = io::json::object();
    for (const auto& [k, v] : a) ja[k] = v;
    f.vectors.push_back(
        finish({{"id", f.path + "/" + std::to_string(i++) + "-" + fn + "/refused"},
                {"op", "calibrate"},
                {"input", {{"function", fn}, {"args", ja}, {"precision", "double"}}},
                {"expect_error", true}}));
  }
  return f;
}

// ------------------------------------------------------------------------------ geometry --

inline family geometry_family() {
  family f{"geometry/capped-simplex",
           "exact Euclidean projection onto {0 <= x <= a, 1'x = b} (EV.PROJ.EXACT)",
           {}};
  struct c {
    std::vector<std::string> x0, a;
    std::string b;
  };
  // deterministic dyadic inputs: x0_i = (37 i mod 29 - 14) / 8, a_i = (1 + 13 i mod 7) / 4
  const auto make = [](std::size_t t, double fraction) {
    c out;
    double sum = 0;
    for (std::size_t i = 0; i < t; ++i) {
      const double x0 = static_cast<double>(static_cast<long>((37 * i + 5) % 29) - 14) / 8;
      const double a = static_cast<double>(1 + (13 * i + 3) % 7) / 4;
      out.x0.push_back(io::format_real(x0));
      out.a.push_back(io::format_real(a));
      sum += a;
    }
    out.b = io::format_real(std::ldexp(std::floor(std::ldexp(sum * fraction, 6)), -6));
    return out;
  };
  const std::vector<c> cases = {
      make(1, 1),
      make(2, 0.5),
      make(5, 0.3),
      make(5, 0.9),
      make(12, 0.25),
      make(12, 0.6),
      make(24, 0.1),
      make(24, 0.75),
      make(7, 0),
      {{"0.5", "0.5", "0.5", "0.5"}, {"1", "1", "1", "1"}, "2"},  // ties
      {{"3", "-2", "0.125", "7.5"}, {"0.5", "2", "1", "0.25"}, "1.75"},
  };
  const std::vector<std::pair<std::string, int>> precisions = {{"double", bits_of<double>()},
                                                               {"mp50", bits_of<mp50>()}};
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const c& x = cases[i];
    std::vector<mpfr_real> x0, a;
    for (const auto& s : x.x0) x0.push_back(io::parse_real<mpfr_real>(s, "x0"));
    for (const auto& s : x.a) a.push_back(io::parse_real<mpfr_real>(s, "a"));
    const auto [px, nu] =
        project_capped_simplex<mpfr_real>(x0, a, io::parse_real<mpfr_real>(x.b, "b"));
    io::json ex = io::json::array();
    bool free_coordinate = false;
    double scale = std::fabs(std::stod(x.b));
    for (std::size_t k = 0; k < px.size(); ++k) {
      ex.push_back(str(exact(px[k])));
      free_coordinate = free_coordinate || (px[k] > 0 && px[k] < a[k]);
      scale = std::max({scale, std::fabs(static_cast<double>(x0[k])), static_cast<double>(a[k])});
    }
    const double t = static_cast<double>(px.size());
    io::json expected = {{"x", ex}};
    if (free_coordinate) expected["nu"] = str(exact(nu));  // nu is unique
    io::json in_x0 = io::json::array(), in_a = io::json::array();
    for (const auto& s : x.x0) in_x0.push_back(s);
    for (const auto& s : x.a) in_a.push_back(s);
    for (const auto& [p, bits] : precisions) {
      // entitled error: 2 (T^2 + 2) 2^-p S, S = max(|x0|, a, b) (sums of T terms, one division)
      const mp tol_abs = mul(exact(2 * (t * t + 2) * scale), [nbits = bits] {  // clang 14: no
        mp u(reference_bits);                                                  // binding capture
        mpfr_set_ui_2exp(u.get(), 1, -nbits, MPFR_RNDN);
        return u;
      }());
      const io::json tol = {{"kind", "abs"}, {"abs", tol_abs.digits(6)}, {"bits", bits}};
      io::json tolerance = {{"x", tol}};
      if (free_coordinate) tolerance["nu"] = tol;
      f.vectors.push_back(
          finish({{"id", f.path + "/" + std::to_string(i) + "/" + p},
                  {"op", "project_capped_simplex"},
                  {"input", {{"x0", in_x0}, {"a", in_a}, {"b", x.b}, {"precision", p}}},
                  {"expected", expected},
                  {"tolerance", tolerance}}));
    }
  }
  return f;
}

}  // namespace dpref::conformance::gen
