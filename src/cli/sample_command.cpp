// `dpref sample`: reference samples of one stream address at a chosen precision, as JSON; with
// --sampler ziggurat the fast double samplers of random/ziggurat.hpp (spec/random.md
// RAND.ZIGGURAT), the same values as dpref.sample(..., sampler="ziggurat").
// Every flag is validated before the first draw (spec/hardening.md HARD.SAMPLE): integers are
// parsed as integers with range checks (no wrap), the work is bounded (count·dim ≤ 10^8 values
// unless --force), and the samples are streamed to stdout, so memory does not grow with --count.
#include <fmt/core.h>

#include <chrono>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "commands.hpp"
#include "dpref/io/number_text.hpp"
#include "dpref/random.hpp"
#include "dpref/random/secure/discrete_gaussian.hpp"
#include "dpref/random/secure/discrete_laplace.hpp"
#include "dpref/random/ziggurat.hpp"
#include "precision.hpp"
#include "scalar_format.hpp"

namespace dpref::cli {
namespace {

/// Values (count · dim) a run may produce without --force: about 2.5 GB of JSON text.
constexpr std::uint64_t max_values_unforced = 100'000'000;
/// Hard ceilings, also with --force.
constexpr std::uint64_t max_count = 1'000'000'000'000;
constexpr std::uint64_t max_dim = 10'000'000;

struct sample_text {
  std::string distribution = "laplace", precision = "double", param = "1", shape = "1";
  std::string dim = "1", seed = "0", stream = "0", substream = "0", position = "0", count = "10";
  std::string sampler = "reference";
  bool force = false;
};

struct sample_options {
  std::string distribution, param, shape;
  bool ziggurat = false;
  io::precision precision;
  std::uint64_t dim = 1, seed = 0, stream = 0, substream = 0, position = 0, count = 10;
};

bool is_vector(const std::string& d) { return d == "vector-laplace" || d == "direction"; }
bool is_discrete(const std::string& d) {
  return d == "discrete-laplace" || d == "discrete-gaussian";
}

/// Flags -> checked options; refuses before any draw. @spec HARD.SAMPLE
sample_options check(const sample_text& t) {
  sample_options o;
  o.distribution = t.distribution;  // CLI11 restricts it to the known names
  o.param = t.param;
  o.shape = t.shape;
  o.precision = io::parse_precision(t.precision, "--precision");
  if (o.precision.k == io::precision::kind::mpfr && o.precision.digits < 20)
    throw std::invalid_argument(
        "--precision mpfr:DIGITS needs DIGITS >= 20 for the samplers, got '" + t.precision + "'");
  using u64 = std::uint64_t;
  o.seed = io::parse_integer<u64>(t.seed, "--seed");
  o.stream = io::parse_integer<u64>(t.stream, "--stream");
  o.substream = io::parse_integer<u64>(t.substream, "--substream");
  o.position = io::parse_integer<u64>(t.position, "--position");
  o.count = io::parse_integer<u64>(t.count, "--count", 1, max_count);
  o.dim = io::parse_integer<u64>(t.dim, "--dim", 1, max_dim);
  o.ziggurat = t.sampler == "ziggurat";
  if (o.ziggurat && (o.precision.k != io::precision::kind::double_ ||
                     (o.distribution != "laplace" && o.distribution != "gaussian" &&
                      o.distribution != "exponential" && o.distribution != "uniform")))
    throw std::invalid_argument(
        "--sampler ziggurat draws laplace, gaussian, exponential or uniform at --precision "
        "double, got --distribution " +
        o.distribution + " --precision " + t.precision);
  if (!is_vector(o.distribution) && t.dim != "1")
    throw std::invalid_argument("--dim applies to vector-laplace and direction only, got --dim " +
                                t.dim + " with --distribution " + o.distribution);
  const u64 values = o.count * (is_vector(o.distribution) ? o.dim : 1);  // ≤ 10^19: no overflow
  if (values > max_values_unforced && !t.force)
    throw std::invalid_argument("--count " + t.count + " (x --dim " + t.dim + ") asks for " +
                                std::to_string(values) + " values, more than " +
                                std::to_string(max_values_unforced) +
                                " (about 2.5 GB of JSON); pass --force to draw them anyway");
  return o;
}

/// Streams the document {"address":…, "distribution":…, "precision":…, "samples":[…]} in the
/// layout of nlohmann's dump(2) (keys sorted), one sample at a time.
class sample_writer {
 public:
  sample_writer(const sample_options& o, const std::string& precision_label)
      : total_(o.count), start_(std::chrono::steady_clock::now()), last_(start_) {
    nlohmann::json head;
    head["address"] = {{"seed", o.seed},
                       {"stream", o.stream},
                       {"substream", o.substream},
                       {"position", o.position}};
    head["distribution"] = o.distribution;
    head["precision"] = precision_label;
    std::string text = head.dump(2);
    text.resize(text.size() - 2);  // drop "\n}"
    std::fputs(text.c_str(), stdout);
    std::fputs(",\n  \"samples\": [", stdout);
  }
  void add(const nlohmann::json& sample) {
    std::string text = sample.dump(2);
    std::string indented = "\n    ";
    for (const char c : text) {
      indented += c;
      if (c == '\n') indented += "    ";
    }
    if (done_ > 0) std::fputc(',', stdout);
    std::fputs(indented.c_str(), stdout);
    ++done_;
    if ((done_ & 0xFFFF) == 0) report_progress();
  }
  void finish() {
    std::fputs("\n  ]\n}\n", stdout);
    if (std::fflush(stdout) != 0 || std::ferror(stdout))
      throw std::runtime_error("dpref sample: writing to standard output failed");
  }

 private:
  /// Progress on stderr every 5 s for long runs (HARD.SAMPLE).
  void report_progress() {
    const auto now = std::chrono::steady_clock::now();
    if (now - last_ < std::chrono::seconds(5)) return;
    last_ = now;
    const double elapsed = std::chrono::duration<double>(now - start_).count();
    const double left = elapsed * static_cast<double>(total_ - done_) / static_cast<double>(done_);
    fmt::print(stderr, "dpref sample: {} / {} samples, {:.0f} s elapsed, ~{:.0f} s left\n", done_,
               total_, elapsed, left);
  }
  std::uint64_t total_, done_ = 0;
  std::chrono::steady_clock::time_point start_, last_;
};

/// "p/q" or "p" as a positive rational of 64-bit integers.
std::pair<std::int64_t, std::int64_t> parse_rational(const std::string& text) {
  const auto slash = text.find('/');
  try {
    const std::int64_t num = io::parse_integer<std::int64_t>(text.substr(0, slash), "p");
    const std::int64_t den = slash == std::string::npos
                                 ? 1
                                 : io::parse_integer<std::int64_t>(text.substr(slash + 1), "q");
    return {num, den};
  } catch (const std::invalid_argument&) {
    throw std::invalid_argument(
        "dpref sample: --param must be an integer ratio p/q for the discrete samplers, got '" +
        text + "'");
  }
}

/// Secure integer samplers (random/secure/): exact, integer arithmetic only.
void draw_discrete(const sample_options& o) {
  philox_stream s(o.seed, o.stream, o.substream, o.position);
  const auto [num, den] = parse_rational(o.param);
  const bool laplace = o.distribution == "discrete-laplace";
  // The first draw validates the parameters before anything is written.
  std::int64_t first =
      laplace ? secure::discrete_laplace(s, num, den) : secure::discrete_gaussian(s, num, den);
  sample_writer w(o, "exact integer");
  w.add(first);
  for (std::uint64_t i = 1; i < o.count; ++i)
    w.add(laplace ? secure::discrete_laplace(s, num, den) : secure::discrete_gaussian(s, num, den));
  w.finish();
}

template <real_scalar Real>
nlohmann::json draw_one(const sample_options& o, philox_stream& s, const Real& param,
                        const Real& shape) {
  const std::string& d = o.distribution;
  if constexpr (std::is_same_v<Real, double>) {
    if (o.ziggurat) {
      if (d == "laplace") return to_text(ziggurat::laplace(s, param));
      if (d == "gaussian") return to_text(ziggurat::gaussian(s, param));
      if (d == "exponential") return to_text(ziggurat::exponential(s, param));
      return to_text(ziggurat::uniform01(s));
    }
  }
  if (d == "laplace") return to_text(laplace<Real>(s, param));
  if (d == "gaussian") return to_text(gaussian<Real>(s, param));
  if (d == "exponential") return to_text(exponential<Real>(s, param));
  if (d == "uniform") return to_text(uniform01<Real>(s));
  if (d == "bernoulli") return bernoulli<Real>(s, param);
  if (d == "gamma") return to_text(gamma<Real>(s, shape, param));
  const auto dim = static_cast<Eigen::Index>(o.dim);
  const vector<Real> w =
      d == "direction" ? uniform_direction<Real>(s, dim) : vector_laplace<Real>(s, dim, param);
  nlohmann::json row = nlohmann::json::array();
  for (Eigen::Index j = 0; j < w.size(); ++j) row.push_back(to_text(w[j]));
  return row;
}

template <real_scalar Real>
void draw_all(const sample_options& o) {
  philox_stream s(o.seed, o.stream, o.substream, o.position);
  const Real param = parse_scalar<Real>(o.param, "--param");
  const Real shape = parse_scalar<Real>(o.shape, "--shape");
  // The first draw validates the parameters (the samplers refuse bad ones, naming them) before
  // anything is written.
  nlohmann::json first = draw_one<Real>(o, s, param, shape);
  sample_writer w(o, o.precision.name() + (o.ziggurat ? " (ziggurat sampler)" : ""));
  w.add(first);
  for (std::uint64_t i = 1; i < o.count; ++i) w.add(draw_one<Real>(o, s, param, shape));
  w.finish();
}

void run_sample(const sample_text& t) {
  const sample_options o = check(t);
  if (is_discrete(o.distribution)) return draw_discrete(o);
  io::with_precision(o.precision, [&]<real_scalar Real>() { draw_all<Real>(o); });
}

}  // namespace

void register_sample_command(CLI::App& app) {
  auto t = std::make_shared<sample_text>();
  auto* cmd = app.add_subcommand("sample", "Reference samples of one stream address, as JSON");
  cmd->add_option("--distribution,-d", t->distribution,
                  "laplace | gaussian | exponential | uniform | bernoulli | gamma | "
                  "vector-laplace | direction | discrete-laplace | discrete-gaussian")
      ->check(
          CLI::IsMember({"laplace", "gaussian", "exponential", "uniform", "bernoulli", "gamma",
                         "vector-laplace", "direction", "discrete-laplace", "discrete-gaussian"}));
  cmd->add_option("--param,-p", t->param,
                  "b (laplace, vector-laplace), sigma (gaussian), rate (exponential), p "
                  "(bernoulli), theta (gamma); decimal text, parsed at the chosen precision; for "
                  "discrete-laplace the scale t and for discrete-gaussian the variance, as p/q");
  cmd->add_option("--shape", t->shape, "gamma shape");
  cmd->add_option("--dim", t->dim, "dimension (vector-laplace, direction), 1 to 10^7");
  cmd->add_option("--precision", t->precision, "double | long-double | mp50 | mpfr:DIGITS");
  cmd->add_option("--seed", t->seed, "seed, an integer in [0, 2^64)");
  cmd->add_option("--stream", t->stream, "stream, an integer in [0, 2^64)");
  cmd->add_option("--substream", t->substream, "substream, an integer in [0, 2^64)");
  cmd->add_option("--position", t->position, "first draw, an integer in [0, 2^64)");
  cmd->add_option("--count,-n", t->count,
                  "number of samples, 1 to 10^12 (count x dim above 10^8 needs --force); "
                  "streamed to standard output");
  cmd->add_flag("--force", t->force, "draw more than 10^8 values");
  cmd->add_option("--sampler", t->sampler,
                  "reference (default: correctly rounded inversion) or ziggurat (fast double "
                  "samplers: laplace, gaussian, exponential, uniform; spec/random.md "
                  "RAND.ZIGGURAT)")
      ->check(CLI::IsMember({"reference", "ziggurat"}));
  cmd->callback([t] { run_sample(*t); });
}

static const command_registrar sample_registrar(register_sample_command);

}  // namespace dpref::cli
