// `dpref sample`: reference samples of one stream address at a chosen precision, as JSON.
#include <fmt/core.h>

#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

#include "commands.hpp"
#include "dpref/random.hpp"
#include "dpref/random/secure/discrete_gaussian.hpp"
#include "dpref/random/secure/discrete_laplace.hpp"
#include "scalar_format.hpp"

namespace dpref::cli {
namespace {

struct sample_options {
  std::string distribution = "laplace";
  std::string precision = "double";
  std::string param = "1";
  std::string shape = "1";
  std::size_t dim = 1;
  std::uint64_t seed = 0, stream = 0, substream = 0, position = 0;
  std::size_t count = 10;
};

/// "p/q" or "p" as a positive rational of 64-bit integers.
std::pair<std::int64_t, std::int64_t> parse_rational(const std::string& text) {
  const auto slash = text.find('/');
  std::size_t used = 0;
  try {
    const std::int64_t num = std::stoll(text.substr(0, slash), &used);
    if (used != (slash == std::string::npos ? text.size() : slash)) throw std::invalid_argument("");
    std::int64_t den = 1;
    if (slash != std::string::npos) {
      den = std::stoll(text.substr(slash + 1), &used);
      if (used != text.size() - slash - 1) throw std::invalid_argument("");
    }
    return {num, den};
  } catch (const std::exception&) {
    throw std::invalid_argument(
        "dpref sample: --param must be an integer ratio p/q for the "
        "discrete samplers, got '" +
        text + "'");
  }
}

/// Secure integer samplers (random/secure/): exact, integer arithmetic only.
nlohmann::json draw_discrete(const sample_options& o) {
  philox_stream s(o.seed, o.stream, o.substream, o.position);
  const auto [num, den] = parse_rational(o.param);
  nlohmann::json out = nlohmann::json::array();
  for (std::size_t i = 0; i < o.count; ++i)
    out.push_back(o.distribution == "discrete-laplace" ? secure::discrete_laplace(s, num, den)
                                                       : secure::discrete_gaussian(s, num, den));
  return out;
}

template <real_scalar Real>
nlohmann::json draw_all(const sample_options& o) {
  philox_stream s(o.seed, o.stream, o.substream, o.position);
  const Real param = parse_scalar<Real>(o.param, "--param");
  nlohmann::json out = nlohmann::json::array();
  for (std::size_t i = 0; i < o.count; ++i) {
    const std::string& d = o.distribution;
    if (d == "laplace")
      out.push_back(to_text(laplace<Real>(s, param)));
    else if (d == "gaussian")
      out.push_back(to_text(gaussian<Real>(s, param)));
    else if (d == "exponential")
      out.push_back(to_text(exponential<Real>(s, param)));
    else if (d == "uniform")
      out.push_back(to_text(uniform01<Real>(s)));
    else if (d == "bernoulli")
      out.push_back(bernoulli<Real>(s, param));
    else if (d == "gamma")
      out.push_back(to_text(gamma<Real>(s, parse_scalar<Real>(o.shape, "--shape"), param)));
    else if (d == "vector-laplace" || d == "direction") {
      const vector<Real> w = d == "direction" ? uniform_direction<Real>(s, o.dim)
                                              : vector_laplace<Real>(s, o.dim, param);
      nlohmann::json row = nlohmann::json::array();
      for (Eigen::Index j = 0; j < w.size(); ++j) row.push_back(to_text(w[j]));
      out.push_back(row);
    } else {
      throw std::invalid_argument(
          "dpref sample: --distribution must be one of laplace, gaussian, "
          "exponential, uniform, bernoulli, gamma, vector-laplace, "
          "direction; got " +
          d);
    }
  }
  return out;
}

void run_sample(const sample_options& o) {
  nlohmann::json j;
  j["distribution"] = o.distribution;
  j["precision"] = o.precision;
  j["address"] = {
      {"seed", o.seed}, {"stream", o.stream}, {"substream", o.substream}, {"position", o.position}};
  if (o.distribution == "discrete-laplace" || o.distribution == "discrete-gaussian") {
    j["precision"] = "exact integer";
    j["samples"] = draw_discrete(o);
  } else if (o.precision == "double") {
    j["samples"] = draw_all<double>(o);
  } else if (o.precision == "long-double")
    j["samples"] = draw_all<long double>(o);
  else if (o.precision == "mp50")
    j["samples"] = draw_all<mp50>(o);
  else if (o.precision.rfind("mpfr:", 0) == 0) {
    const int digits = std::stoi(o.precision.substr(5));
    if (digits < 20 || digits > 10000)
      throw std::invalid_argument(
          "dpref sample: --precision mpfr:DIGITS needs 20 <= DIGITS <= 10000");
    mpfr_real::default_precision(static_cast<unsigned>(digits));
    j["samples"] = draw_all<mpfr_real>(o);
  } else {
    throw std::invalid_argument(
        "dpref sample: --precision must be double, long-double, mp50 or "
        "mpfr:DIGITS; got " +
        o.precision);
  }
  fmt::print("{}\n", j.dump(2));
}

}  // namespace

void register_sample_command(CLI::App& app) {
  auto o = std::make_shared<sample_options>();
  auto* cmd = app.add_subcommand("sample", "Reference samples of one stream address, as JSON");
  cmd->add_option("--distribution,-d", o->distribution,
                  "laplace | gaussian | exponential | uniform | bernoulli | gamma | "
                  "vector-laplace | direction | discrete-laplace | discrete-gaussian");
  cmd->add_option("--param,-p", o->param,
                  "b (laplace, vector-laplace), sigma (gaussian), rate (exponential), p "
                  "(bernoulli), theta (gamma); decimal text, parsed at the chosen precision; for "
                  "discrete-laplace the scale t and for discrete-gaussian the variance, as p/q");
  cmd->add_option("--shape", o->shape, "gamma shape");
  cmd->add_option("--dim", o->dim, "dimension (vector-laplace, direction)");
  cmd->add_option("--precision", o->precision, "double | long-double | mp50 | mpfr:DIGITS");
  cmd->add_option("--seed", o->seed);
  cmd->add_option("--stream", o->stream);
  cmd->add_option("--substream", o->substream);
  cmd->add_option("--position", o->position, "first draw");
  cmd->add_option("--count,-n", o->count);
  cmd->callback([o] { run_sample(*o); });
}

static const command_registrar sample_registrar(register_sample_command);

}  // namespace dpref::cli
