// Test-only generator of CONF_MACHINE (spec/conformance.md CONF.MACHINE): writes corpus families
// as `dpref vectors --out OUT --only FAMILY...` does — the same library generators
// (conformance::generic_families, papers::trajectory_families, conformance::write_corpus) at the
// same reference precision — after Eigen::setCpuCacheSizes(L1, L2, L3): the blocking sizes of
// Eigen's matrix-product kernels as another CPU would report them (Eigen reads them from CPUID).
// tests/conformance/cross_conditions.py requires the bytes of the committed corpus, which
// CONF_CORPUS checks to be the default-cache `dpref vectors` run. Not part of the shipped CLI.
//
// usage: corpus_cache_sizes OUT L1,L2,L3|default FAMILY...
// Exit status 0 when written, 2 for a usage error, 1 for any other error (message on stderr).
#include <Eigen/Core>
#include <algorithm>
#include <cstdio>
#include <exception>
#include <stdexcept>
#include <string>
#include <vector>

#include "dpref/conformance/corpus.hpp"
#include "dpref/conformance/generate.hpp"
#include "dpref/io/number_text.hpp"
#include "papers/papers.hpp"

namespace {

struct usage_error : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

/// "L1,L2,L3" in bytes, each in [1024, 2^40].
std::vector<std::ptrdiff_t> parse_cache_sizes(const std::string& text) {
  std::vector<std::ptrdiff_t> out;
  std::size_t b = 0;
  while (true) {
    const std::size_t e = text.find(',', b);
    const std::string part = text.substr(b, e == std::string::npos ? std::string::npos : e - b);
    try {
      out.push_back(dpref::io::parse_integer<std::ptrdiff_t>(
          part, "cache size", std::ptrdiff_t{1024}, std::ptrdiff_t{1} << 40));
    } catch (const std::exception& x) {
      throw usage_error("L1,L2,L3 must be three sizes in bytes, each in [1024, 2^40], got '" +
                        text + "' (" + x.what() + ")");
    }
    if (e == std::string::npos) break;
    b = e + 1;
  }
  if (out.size() != 3)
    throw usage_error("L1,L2,L3 must be three sizes in bytes, got " + std::to_string(out.size()) +
                      " in '" + text + "'");
  return out;
}

void run(const std::string& out, const std::string& caches, const std::vector<std::string>& only) {
  if (only.empty()) throw usage_error("FAMILY: at least one family must be named, got none");
  if (caches != "default") {
    const auto c = parse_cache_sizes(caches);
    Eigen::setCpuCacheSizes(c[0], c[1], c[2]);
    // the condition must really hold, or the comparison would prove nothing
    if (Eigen::l1CacheSize() != c[0] || Eigen::l2CacheSize() != c[1] ||
        Eigen::l3CacheSize() != c[2])
      throw std::runtime_error("Eigen did not take the cache sizes " + caches);
  }
  std::fprintf(stderr, "corpus_cache_sizes: Eigen cache sizes L1 %td, L2 %td, L3 %td bytes\n",
               Eigen::l1CacheSize(), Eigen::l2CacheSize(), Eigen::l3CacheSize());
  // as src/cli/vectors_command.cpp: the reference precision, then the selected families
  const dpref::mpfr_precision_scope reference_precision(dpref::conformance::reference_digits);
  std::vector<dpref::conformance::family_entry> all = dpref::conformance::generic_families();
  std::vector<std::string> papers;
  for (auto& e : dpref::papers::trajectory_families()) {
    papers.push_back(e.path);
    all.push_back(std::move(e));
  }
  std::vector<dpref::conformance::family_entry> families;
  for (auto& e : all)
    if (std::find(only.begin(), only.end(), e.path) != only.end()) families.push_back(std::move(e));
  for (const auto& name : only)
    if (std::none_of(families.begin(), families.end(),
                     [&](const auto& e) { return e.path == name; }))
      throw usage_error("FAMILY must name a family of the corpus (e.g. trajectories/ev), got '" +
                        name + "'");
  const auto s = dpref::conformance::write_corpus(out, families, papers);
  std::printf("corpus_cache_sizes: wrote %zu files, %zu vectors, %zu bytes to %s\n", s.files,
              s.vectors, s.bytes, out.c_str());
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: corpus_cache_sizes OUT L1,L2,L3|default FAMILY...\n");
    return 2;
  }
  try {
    run(argv[1], argv[2], std::vector<std::string>(argv + 3, argv + argc));
  } catch (const usage_error& e) {
    std::fprintf(stderr, "corpus_cache_sizes: usage error: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "corpus_cache_sizes: %s\n", e.what());
    return 1;
  }
  return 0;
}
