// The conformance families of the accountant (spec/conformance.md CONF.CORPUS): the expected
// (ε, δ) of each ledger is dpref's certified evaluation at 120 decimal digits (mpfr_real), i.e.
// the defined quantity within 10^-100 relative; tolerances are one-sided (upward).
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

// ---------------------------------------------------------------------------- accounting --

/// Expected (ε, δ) of a ledger: dpref's certified evaluation at reference_digits (mpfr_real;
/// the caller has set its precision).
inline io::json exact_account(const io::json& ledger) {
  const io::document d = io::document::from_value(ledger, "ledger");
  const accounting::account_report<mpfr_real> r =
      accounting::account_document<mpfr_real>(io::node(d));
  return {{"epsilon", str(exact(r.total.epsilon))}, {"delta", str(exact(r.total.delta))}};
}

inline family accounting_family(const std::string& path, const std::string& description,
                                const std::vector<std::pair<std::string, io::json>>& ledgers,
                                const std::vector<std::pair<std::string, io::json>>& refused) {
  family f{path, description, {}};
  const std::vector<std::pair<std::string, int>> precisions = {{"double", bits_of<double>()},
                                                               {"mp50", bits_of<mp50>()}};
  for (const auto& [name, ledger] : ledgers) {
    io::json expected;
    try {
      expected = exact_account(ledger);
    } catch (const std::exception& e) {
      throw std::logic_error("conformance generator: " + path + "/" + name + ": " + e.what());
    }
    for (const auto& [p, bits] : precisions)
      f.vectors.push_back(finish(
          {{"id", path + "/" + name + "/" + p},
           {"op", "account"},
           {"input", {{"ledger", ledger}, {"precision", p}}},
           {"expected", expected},
           {"tolerance", {{"epsilon", certified_tol(bits)}, {"delta", certified_tol(bits)}}}}));
  }
  for (const auto& [name, ledger] : refused)
    f.vectors.push_back(finish({{"id", path + "/" + name + "/refused"},
                                {"op", "account"},
                                {"input", {{"ledger", ledger}, {"precision", "double"}}},
                                {"expect_error", true}}));
  return f;
}

inline io::json ledger(io::json accounting, io::json events) {
  return {{"accounting", std::move(accounting)}, {"events", std::move(events)}};
}

/// The "sampling" object of an event: Poisson at `rate` (add/remove neighbours).
inline io::json poisson(const char* rate) {
  return {{"scheme", "poisson"}, {"rate", rate}, {"neighbouring", "add_remove"}};
}

/// The "sampling" object of an event: `sample_size` of `population` records without replacement
/// (replace-one neighbours).
inline io::json without_replacement(long long sample_size, long long population) {
  return {{"scheme", "without_replacement"},
          {"sample_size", sample_size},
          {"population", population},
          {"neighbouring", "replace_one"}};
}

inline io::json rdp_options(const char* delta = "0.00000762939453125", long long max_order = 256,
                            const char* conversion = "balle2020") {
  return {
      {"method", "rdp"}, {"delta", delta}, {"max_order", max_order}, {"conversion", conversion}};
}

inline family accounting_events_family() {
  const io::json pure_opt = rdp_options("0");
  std::vector<std::pair<std::string, io::json>> l = {
      {"pure", ledger(pure_opt, {{{"mechanism", "pure"}, {"epsilon", "0.5"}, {"count", 3}}})},
      {"approx", ledger(pure_opt, {{{"mechanism", "approx"},
                                    {"epsilon", "0.25"},
                                    {"delta", "0.00000095367431640625"},
                                    {"count", 4}}})},
      {"rdp-curve", ledger(rdp_options("0.00000762939453125", 6),
                           {{{"mechanism", "rdp"},
                             {"orders", {"2", "3", "4", "5", "6"}},
                             {"epsilon", {"0.125", "0.1875", "0.25", "0.3125", "0.375"}},
                             {"count", 8}}})},
      {"laplace-pure",
       ledger(pure_opt,
              {{{"mechanism", "laplace"}, {"sensitivity", "1"}, {"scale", "2"}, {"count", 5}}})},
      {"laplace-rdp", ledger(rdp_options(), {{{"mechanism", "laplace"},
                                              {"sensitivity", "1"},
                                              {"scale", "2"},
                                              {"analysis", "rdp"},
                                              {"count", 5}}})},
      {"vector-laplace", ledger(pure_opt, {{{"mechanism", "vector_laplace"},
                                            {"sensitivity", "1"},
                                            {"scale", "4"},
                                            {"count", 1}}})},
      {"gaussian",
       ledger(
           rdp_options(),
           {{{"mechanism", "gaussian"}, {"sensitivity", "1"}, {"sigma", "1.5"}, {"count", 10}}})},
      {"gaussian-mironov",
       ledger(
           rdp_options("0.00000762939453125", 256, "mironov"),
           {{{"mechanism", "gaussian"}, {"sensitivity", "1"}, {"sigma", "1.5"}, {"count", 10}}})},
      {"gaussian-poisson-mtz", ledger(rdp_options(), {{{"mechanism", "gaussian"},
                                                       {"sensitivity", "1"},
                                                       {"sigma", "1.125"},
                                                       {"count", 1000},
                                                       {"sampling", poisson("0.0078125")}}})},
      {"gaussian-wor-wbk", ledger(rdp_options(), {{{"mechanism", "gaussian"},
                                                   {"sensitivity", "1"},
                                                   {"sigma", "1.25"},
                                                   {"count", 100},
                                                   {"sampling", without_replacement(64, 4096)}}})},
      {"exponential", ledger(pure_opt, {{{"mechanism", "exponential"},
                                         {"utility_sensitivity", "0.5"},
                                         {"scale", "4"},
                                         {"monotone", false},
                                         {"count", 2}}})},
      {"exponential-monotone", ledger(pure_opt, {{{"mechanism", "exponential"},
                                                  {"utility_sensitivity", "0.5"},
                                                  {"scale", "4"},
                                                  {"monotone", true},
                                                  {"count", 2}}})},
      {"randomized-response",
       ledger(pure_opt,
              {{{"mechanism", "randomized_response"}, {"epsilon", "1.25"}, {"count", 1}}})},
      {"discrete-laplace", ledger(pure_opt, {{{"mechanism", "discrete_laplace"},
                                              {"sensitivity", 1},
                                              {"scale_num", 7},
                                              {"scale_den", 3},
                                              {"count", 1}}})},
      {"discrete-gaussian", ledger(rdp_options(), {{{"mechanism", "discrete_gaussian"},
                                                    {"sensitivity", 1},
                                                    {"variance_num", 25},
                                                    {"variance_den", 4},
                                                    {"count", 20}}})},
      {"sparse-vector-laplace", ledger(rdp_options(), {{{"mechanism", "sparse_vector"},
                                                        {"noise", "laplace"},
                                                        {"sensitivity", "1"},
                                                        {"threshold_scale", "8"},
                                                        {"query_scale", "16"},
                                                        {"max_queries", 20},
                                                        {"bound", "proven"},
                                                        {"count", 3}}})},
      {"sparse-vector-laplace-pure", ledger(pure_opt, {{{"mechanism", "sparse_vector"},
                                                        {"noise", "laplace"},
                                                        {"sensitivity", "1"},
                                                        {"threshold_scale", "8"},
                                                        {"query_scale", "16"},
                                                        {"max_queries", 20},
                                                        {"bound", "proven"},
                                                        {"analysis", "pure"},
                                                        {"count", 3}}})},
      {"sparse-vector-gaussian", ledger(rdp_options(), {{{"mechanism", "sparse_vector"},
                                                         {"noise", "gaussian"},
                                                         {"sensitivity", "1"},
                                                         {"threshold_scale", "4"},
                                                         {"query_scale", "8"},
                                                         {"max_queries", 10},
                                                         {"bound", "proven"},
                                                         {"count", 2}}})},
      {"laplace-poisson-zhu-wang", ledger(rdp_options(), {{{"mechanism", "laplace"},
                                                           {"sensitivity", "1"},
                                                           {"scale", "2"},
                                                           {"analysis", "rdp"},
                                                           {"count", 200},
                                                           {"sampling", poisson("0.0625")}}})},
      {"pure-wor-amplified", ledger(pure_opt, {{{"mechanism", "pure"},
                                                {"epsilon", "1"},
                                                {"count", 10},
                                                {"sampling", without_replacement(16, 256)}}})},
      {"laplace-poisson-amplified", ledger(pure_opt, {{{"mechanism", "laplace"},
                                                       {"sensitivity", "1"},
                                                       {"scale", "0.5"},
                                                       {"count", 7},
                                                       {"sampling", poisson("0.125")}}})},
  };
  std::vector<std::pair<std::string, io::json>> refused = {
      {"gaussian-negative-sigma",
       ledger(rdp_options(),
              {{{"mechanism", "gaussian"}, {"sensitivity", "1"}, {"sigma", "-1"}, {"count", 1}}})},
      {"rdp-without-delta",
       ledger(rdp_options("0"),
              {{{"mechanism", "gaussian"}, {"sensitivity", "1"}, {"sigma", "1"}, {"count", 1}}})},
      {"unknown-mechanism",
       ledger(pure_opt, {{{"mechanism", "cauchy"}, {"scale", "1"}, {"count", 1}}})},
      {"zero-count", ledger(pure_opt, {{{"mechanism", "pure"}, {"epsilon", "1"}, {"count", 0}}})},
  };
  return accounting_family("accounting/events",
                           "one event per ledger: every mechanism kind, subsampling scheme and "
                           "conversion of the accountant (ACC.EVENT, ACC.ACCOUNT)",
                           l, refused);
}

inline family accounting_compositions_family() {
  const io::json sgd = {{"mechanism", "gaussian"},
                        {"sensitivity", "1"},
                        {"sigma", "1.125"},
                        {"count", 10000},
                        {"sampling", poisson("0.0078125")}};
  const io::json lap = {
      {"mechanism", "laplace"}, {"sensitivity", "1"}, {"scale", "20"}, {"count", 5}};
  const io::json expm = {{"mechanism", "exponential"},
                         {"utility_sensitivity", "0.5"},
                         {"scale", "10"},
                         {"monotone", false},
                         {"count", 1}};
  const io::json gau = {
      {"mechanism", "gaussian"}, {"sensitivity", "1"}, {"sigma", "20"}, {"count", 3}};
  const io::json apx = {{"mechanism", "approx"},
                        {"epsilon", "0.0625"},
                        {"delta", "0.000000007450580596923828125"},
                        {"count", 1}};
  const io::json svt = {{"mechanism", "sparse_vector"},
                        {"noise", "laplace"},
                        {"sensitivity", "1"},
                        {"threshold_scale", "40"},
                        {"query_scale", "80"},
                        {"max_queries", 20},
                        {"bound", "proven"},
                        {"count", 10}};
  std::vector<std::pair<std::string, io::json>> l = {
      {"dp-sgd", ledger(rdp_options("0.0000095367431640625"), {sgd})},
      {"mixed", ledger(rdp_options("0.0000095367431640625"), {sgd, lap, expm, gau, svt, apx})},
      {"mixed-mironov", ledger(rdp_options("0.0000095367431640625", 256, "mironov"),
                               {sgd, lap, expm, gau, svt, apx})},
      {"mixed-max-order-64", ledger(rdp_options("0.0000095367431640625", 64), {sgd, gau, svt})},
      {"mixed-max-order-1024", ledger(rdp_options("0.0000095367431640625", 1024), {sgd, gau, svt})},
      {"pure-and-approx", ledger(rdp_options("0"), {lap, expm, apx})},
      {"million-steps", ledger(rdp_options("0.00000762939453125"), {{{"mechanism", "gaussian"},
                                                                     {"sensitivity", "1"},
                                                                     {"sigma", "64"},
                                                                     {"count", 1000000}}})},
  };
  return accounting_family("accounting/compositions",
                           "ledgers of several events: sequential composition of the pure, "
                           "approximate and Rényi parts (ACC.ACCOUNT, ACC.COMP.*)",
                           l, {});
}

}  // namespace dpref::conformance::gen
