// libFuzzer target: the strict JSON parser and the ledger reader + accountant (spec/hardening.md
// HARD.FUZZ). Any input must either be accepted or refused with std::invalid_argument /
// std::domain_error; anything else (a crash, a sanitizer report, another exception) is a bug.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string_view>

#include "dpref/accounting/ledger_json.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const dpref::io::document d = dpref::io::document::parse(text, "fuzz.json");
    auto l = dpref::accounting::read_ledger<double>(dpref::io::node(d), 64);
    auto opt = l.options();
    if (opt.max_order > 64) opt.max_order = 64;  // keep one input's work bounded
    l.set_options(opt);
    (void)l.total();
  } catch (const std::invalid_argument&) {
  } catch (const std::domain_error&) {
  }
  return 0;
}
