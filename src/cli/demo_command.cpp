// `dpref demo`: calibrated noise scales and the first samples of one stream at double and
// 50-digit precision, side by side (the double sample is the rounding of the 50-digit one).
#include <fmt/core.h>

#include "commands.hpp"
#include "dpref/accounting/accounting.hpp"
#include "dpref/random.hpp"
#include "flags.hpp"
#include "scalar_format.hpp"

namespace dpref::cli {
namespace {

struct demo_options {
  std::uint64_t seed = 20261121;
  int count = 5;
};

// Calibrated by the accountant (rounded so the guarantee holds: noise never below exact):
// Laplace b = Δ1/ε (pure ε-DP), the classical Gaussian σ = Δ2 sqrt(2 ln(1.25/δ))/ε
// (Dwork–Roth Theorem A.1) and the exact analytic Gaussian σ (Balle–Wang 2018).
struct demo_scales {
  double b, sigma_classical, sigma_analytic;
  mp50 b50, sigma_classical50, sigma_analytic50;
};

demo_scales calibrate() {
  namespace acc = dpref::accounting;
  const double eps = 0.5, delta = 1e-5, sens = 1;
  const mp50 eps50 = mp50(1) / 2, delta50 = mp50(1) / 100000, sens50 = 1;
  return {acc::laplace_scale(sens, eps),
          acc::gaussian_sigma_classical(sens, eps, delta),
          acc::analytic_gaussian_sigma(sens, eps, delta),
          acc::laplace_scale(sens50, eps50),
          acc::gaussian_sigma_classical(sens50, eps50, delta50),
          acc::analytic_gaussian_sigma(sens50, eps50, delta50)};
}

void run_demo(const demo_options& o) {
  fmt::print("dpref demo: seed {}, stream 0\n\n", o.seed);
  fmt::print("Calibrated noise scales for sensitivity 1, eps = 1/2, delta = 1e-5:\n");
  const demo_scales c = calibrate();
  const double bd = c.b, sd = c.sigma_analytic;
  fmt::print("  Laplace  b = Δ/ε                 double {:>22}   mp50 {}\n", to_text(c.b),
             to_text(c.b50));
  fmt::print("  Gaussian σ classical (1.25/δ)    double {:>22}   mp50 {}\n",
             to_text(c.sigma_classical), to_text(c.sigma_classical50));
  fmt::print("  Gaussian σ analytic (Balle–Wang) double {:>22}   mp50 {}\n\n",
             to_text(c.sigma_analytic), to_text(c.sigma_analytic50));
  fmt::print(
      "Samples below use the double scale at both precisions, so the double sample should be\n"
      "the 50-digit sample rounded to double (in >= 99.9% of draws, RAND.PRECISION.AGREE).\n\n");
  const mp50 bw(bd), sw(sd);  // widened double scales

  auto table = [&](const char* name, auto sample_double, auto sample_mp50) {
    fmt::print("{} samples (draw i of the same stream):\n", name);
    philox_stream sd_stream(o.seed), sm_stream(o.seed);
    for (int i = 0; i < o.count; ++i) {
      const double x = sample_double(sd_stream);
      const mp50 y = sample_mp50(sm_stream);
      fmt::print("  [{}] double {:>24}   mp50 {}   {}\n", i, to_text(x), to_text(y),
                 static_cast<double>(y) == x ? "(double == round(mp50))" : "(differs in last bit)");
    }
    fmt::print("\n");
  };
  table(
      "Laplace(b)", [&](philox_stream& s) { return laplace(s, bd); },
      [&](philox_stream& s) { return laplace(s, bw); });
  table(
      "Gaussian(σ)", [&](philox_stream& s) { return gaussian(s, sd); },
      [&](philox_stream& s) { return gaussian(s, sw); });
  fmt::print("l2-Laplace vector in R^3, scale b:\n");
  philox_stream vd(o.seed, 1), vm(o.seed, 1);
  const auto wd = vector_laplace<double>(vd, 3, bd);
  const auto wm = vector_laplace<mp50>(vm, 3, bw);
  for (int i = 0; i < 3; ++i)
    fmt::print("  w[{}] double {:>24}   mp50 {}\n", i, to_text(wd[i]), to_text(wm[i]));
}

}  // namespace

void register_demo_command(CLI::App& app) {
  auto opts = std::make_shared<demo_options>();
  auto* cmd = app.add_subcommand(
      "demo", "Print calibrated noise scales and samples at double and 50 digits");
  cmd->add_option("--seed", opts->seed, "Stream seed")->check(unsigned_integer());
  cmd->add_option("--count", opts->count, "Samples per distribution")->check(CLI::Range(1, 1000));
  cmd->callback([opts] { run_demo(*opts); });
}

static const command_registrar demo_registrar(register_demo_command);

}  // namespace dpref::cli
