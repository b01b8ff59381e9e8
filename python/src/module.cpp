// dpref._core: the C++ half of the Python package (spec/python.md). Thin bindings over the
// library functions the CLI uses (conformance/ops.hpp, accounting/account_report.hpp,
// audit/builtin.hpp, random/batch.hpp), so Python and `dpref` give the same bits. The pure-Python
// half (python/dpref/*.py) shapes arguments and results; everything numeric happens here.
//
// Exceptions (PY.ERRORS): accounting::budget_exceeded -> dpref.BudgetExceeded (a RuntimeError);
// std::invalid_argument and std::domain_error (incl. dpref::invalid_parameter) -> ValueError;
// any other std::exception -> RuntimeError; the message is the C++ message.
#include <pybind11/functional.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "dpref/accounting/account_report.hpp"
#include "dpref/accounting/budget_exceeded.hpp"
#include "dpref/audit/auditor.hpp"
#include "dpref/audit/builtin.hpp"
#include "dpref/audit/events.hpp"
#include "dpref/audit/report_json.hpp"
#include "dpref/conformance/check.hpp"
#include "dpref/conformance/corpus.hpp"
#include "dpref/conformance/numbers.hpp"
#include "dpref/conformance/ops.hpp"
#include "dpref/conformance/registry.hpp"
#include "dpref/io/json.hpp"
#include "dpref/io/precision.hpp"
#include "dpref/random/batch.hpp"
#include "dpref/random/ziggurat_batch.hpp"
#include "dpref/run/report.hpp"
#include "dpref/version.hpp"
#include "papers/papers.hpp"

namespace py = pybind11;

namespace dpref::python {
namespace {

using conformance::sample_kind;
using conformance::sample_request;

io::precision precision_of(const std::string& text) {
  return io::parse_precision(text, "precision");
}

/// Runs f with the GIL released. Every precision may: mpfr_real's precision is this thread's,
/// set by io::with_precision's scope (ARCH.MPFR.SCOPE), so another Python thread cannot change it.
template <class F>
decltype(auto) nogil(F&& f) {
  py::gil_scoped_release release;
  return f();
}

/// Exact parts of a multiprecision value for mpmath: (text, negative, mantissa hex, exponent)
/// with value = (-1)^negative * mantissa * 2^exponent; text = the CLI's decimal text.
template <real_scalar Real>
py::tuple parts(const Real& x) {
  const conformance::mp m = conformance::exact(x);
  mpz_t z;
  mpz_init(z);
  const mpfr_exp_t e = mpfr_get_z_2exp(z, m.get());
  const bool negative = mpz_sgn(z) < 0;
  mpz_abs(z, z);
  char* hex = mpz_get_str(nullptr, 16, z);
  std::string h(hex);
  void (*freefunc)(void*, size_t);
  mp_get_memory_functions(nullptr, nullptr, &freefunc);
  freefunc(hex, std::strlen(hex) + 1);
  mpz_clear(z);
  return py::make_tuple(io::format_real(x), negative, h, static_cast<long>(e));
}

/// A real result for Python: float for double, numpy.longdouble for long double, exact parts
/// (see parts) for the multiprecision types.
template <real_scalar Real>
py::object real_out(const Real& x) {
  if constexpr (std::is_same_v<Real, double>) {
    return py::float_(x);
  } else if constexpr (std::is_same_v<Real, long double>) {
    py::array_t<long double> a(1);
    a.mutable_data()[0] = x;
    return a[py::int_(0)];
  } else {
    return parts(x);
  }
}

sample_request request(const std::string& dist, std::size_t n,
                       const std::map<std::string, std::string>& params, std::uint64_t seed,
                       std::uint64_t stream, std::uint64_t substream, std::uint64_t position) {
  sample_request r;
  r.distribution = dist;
  r.params = params;
  r.at = {seed, stream, substream, position};
  r.count = n;
  (void)conformance::info_of(r);  // validates the name and the parameter names
  return r;
}

template <real_scalar Real>
py::object sample_at(const sample_request& r) {
  const auto& info = conformance::info_of(r);
  const std::size_t n = r.count;
  if (info.kind == sample_kind::boolean) {
    py::array_t<bool> out(static_cast<py::ssize_t>(n));
    std::vector<std::uint8_t> v(n);
    nogil([&] { conformance::sample_booleans<Real>(r, v); });
    bool* o = out.mutable_data();
    for (std::size_t i = 0; i < n; ++i) o[i] = v[i] != 0;
    return out;
  }
  if (info.kind == sample_kind::real) {
    if constexpr (std::is_floating_point_v<Real>) {
      py::array_t<Real> out(static_cast<py::ssize_t>(n));
      Real* o = out.mutable_data();
      nogil([&] { conformance::sample_reals<Real>(r, std::span<Real>(o, n)); });
      return out;
    } else {
      std::vector<Real> v(n);
      nogil([&] { conformance::sample_reals<Real>(r, v); });
      py::list out;
      for (const Real& x : v) out.append(parts(x));
      return out;
    }
  }
  // vectors
  const std::size_t dim = conformance::sample_dim(r);
  if constexpr (std::is_floating_point_v<Real>) {
    py::array_t<Real> out({static_cast<py::ssize_t>(n), static_cast<py::ssize_t>(dim)});
    Real* o = out.mutable_data();
    nogil([&] { conformance::sample_vectors<Real>(r, std::span<Real>(o, n * dim)); });
    return out;
  } else {
    std::vector<Real> v(n * dim);
    nogil([&] { conformance::sample_vectors<Real>(r, v); });
    py::list out;
    for (std::size_t i = 0; i < n; ++i) {
      py::list row;
      for (std::size_t j = 0; j < dim; ++j) row.append(parts(v[i * dim + j]));
      out.append(row);
    }
    return out;
  }
}

py::object sample(const std::string& dist, std::size_t n,
                  const std::map<std::string, std::string>& params, std::uint64_t seed,
                  std::uint64_t stream, std::uint64_t substream, std::uint64_t position,
                  const std::string& precision, const std::string& kernel) {
  const sample_request r = request(dist, n, params, seed, stream, substream, position);
  const auto& info = conformance::info_of(r);
  if (info.kind == sample_kind::integer) {
    py::array_t<std::int64_t> out(static_cast<py::ssize_t>(n));
    std::int64_t* o = out.mutable_data();
    {
      py::gil_scoped_release release;
      conformance::sample_integers(r, std::span<std::int64_t>(o, n));
    }
    return out;
  }
  const io::precision p = precision_of(precision);
  if (p.k == io::precision::kind::mpfr && p.digits < 20)
    throw std::invalid_argument(
        "dpref sample: --precision mpfr:DIGITS needs 20 <= DIGITS <= 10000");
  if (p.k == io::precision::kind::double_ && info.kind == sample_kind::real &&
      kernel != "automatic") {
    if (kernel != "portable" && kernel != "avx512")
      throw std::invalid_argument(
          "dpref.sample: kernel must be automatic, portable or avx512, got '" + kernel + "'");
    py::array_t<double> out(static_cast<py::ssize_t>(n));
    double* o = out.mutable_data();
    const auto k = kernel == "portable" ? batch::kernel::portable : batch::kernel::avx512;
    {
      py::gil_scoped_release release;
      conformance::sample_reals<double>(r, std::span<double>(o, n), k);
    }
    return out;
  }
  return io::with_precision(p, [&]<class Real>() { return sample_at<Real>(r); });
}

/// The ziggurat samplers (random/ziggurat_batch.hpp, spec/random.md RAND.ZIGGURAT): double
/// Gaussian, exponential, Laplace and uniform, `threads` threads (0: all cores), the GIL
/// released; the values do not depend on the kernel or the thread count.
py::array_t<double> sample_ziggurat(const std::string& dist, std::size_t n, double param,
                                    std::uint64_t seed, std::uint64_t stream,
                                    std::uint64_t substream, std::uint64_t position,
                                    const std::string& kernel, unsigned threads) {
  ziggurat::batch_options o;
  o.threads = threads;
  if (kernel == "automatic")
    o.k = ziggurat::kernel::automatic;
  else if (kernel == "portable")
    o.k = ziggurat::kernel::portable;
  else if (kernel == "avx2")
    o.k = ziggurat::kernel::avx2;
  else if (kernel == "avx512")
    o.k = ziggurat::kernel::avx512;
  else
    throw std::invalid_argument(
        "dpref.sample: kernel must be automatic, portable, avx2 or avx512, got '" + kernel + "'");
  if (dist != "gaussian" && dist != "exponential" && dist != "laplace" && dist != "uniform")
    throw std::invalid_argument(
        "dpref.sample: sampler 'ziggurat' draws gaussian, exponential, laplace or uniform, got '" +
        dist + "'");
  philox_stream s(seed, stream, substream, position);
  py::array_t<double> out(static_cast<py::ssize_t>(n));
  const std::span<double> o_span(out.mutable_data(), n);
  {
    py::gil_scoped_release release;
    if (dist == "gaussian")
      ziggurat::gaussian(s, param, o_span, o);
    else if (dist == "exponential")
      ziggurat::exponential(s, param, o_span, o);
    else if (dist == "laplace")
      ziggurat::laplace(s, param, o_span, o);
    else
      ziggurat::uniform01(s, o_span, o);
  }
  return out;
}

/// The scalar (non-batch) reference sampler at double, one draw at a time (for tests of
/// RAND.BATCH from Python).
py::array_t<double> sample_scalar_reference(const std::string& dist, std::size_t n,
                                            const std::map<std::string, std::string>& params,
                                            std::uint64_t seed, std::uint64_t stream,
                                            std::uint64_t substream, std::uint64_t position) {
  const sample_request r = request(dist, n, params, seed, stream, substream, position);
  if (dist != "laplace" && dist != "exponential" && dist != "uniform")
    throw std::invalid_argument("sample_scalar_reference: laplace, exponential or uniform");
  philox_stream s(seed, stream, substream, position);
  py::array_t<double> out(static_cast<py::ssize_t>(n));
  double* o = out.mutable_data();
  const auto& info = conformance::info_of(r);
  const double param = dist == "uniform"
                           ? 1.0
                           : conformance::detail::real_param<double>(r, info, info.params[0].first);
  for (std::size_t i = 0; i < n; ++i)
    o[i] = dist == "laplace"       ? laplace<double>(s, param)
           : dist == "exponential" ? exponential<double>(s, param)
                                   : uniform01<double>(s);
  return out;
}

py::array_t<std::uint64_t> philox_words(std::uint64_t seed, std::uint64_t stream,
                                        std::uint64_t substream, std::uint64_t position,
                                        unsigned lane, std::size_t count) {
  const auto w = conformance::philox_words({seed, stream, substream, position}, lane, count);
  py::array_t<std::uint64_t> out(static_cast<py::ssize_t>(w.size()));
  std::copy(w.begin(), w.end(), out.mutable_data());
  return out;
}

int bits(const std::string& precision) {
  const io::precision p = precision_of(precision);
  return io::with_precision(p, []<class Real>() { return binary_digits<Real>(); });
}

/// `dpref account --json` of a ledger (JSON text, or a file when `path` is set), optionally
/// against a budget (plan_privacy: BudgetExceeded when the guarantee exceeds it).
std::string account(const std::string& text, const std::string& source, bool is_path,
                    const std::string& precision, const std::map<std::string, std::string>& options,
                    const std::optional<std::pair<std::string, std::string>>& budget) {
  const io::precision p = precision_of(precision);
  io::document doc = is_path ? io::document::from_file(text) : io::document::parse(text, source);
  if (!options.empty()) {
    // the options override /accounting like the CLI's --delta / --max-order / ... flags
    io::json root = doc.root();
    if (!root.is_object())
      throw std::invalid_argument(doc.source() + ": (top level) must be a JSON object");
    for (const auto& [k, v] : options) root["accounting"][k] = v;
    doc = io::document::rebuild(doc, std::move(root));
    for (const auto& [k, v] : options) doc.set_display_name("/accounting/" + k, k);
  }
  return nogil([&] {
    return io::with_precision(p, [&]<class Real>() {
      const auto r = accounting::account_document<Real>(io::node(doc));
      if (budget) {
        privacy_budget_request<Real> req;
        req.epsilon = io::parse_real<Real>(budget->first, "budget epsilon");
        req.delta = io::parse_real<Real>(budget->second, "budget delta");
        req.validate(param_checker("dpref.account budget"));
        (void)plan_privacy(r.l, req, "dpref.account");
      }
      return r.json.dump();
    });
  });
}

py::object calibrate(const std::string& name, const std::map<std::string, std::string>& args,
                     const std::string& precision) {
  const io::precision p = precision_of(precision);
  return io::with_precision(p, [&]<class Real>() -> py::object {
    Real v;
    nogil([&] { v = conformance::calibrate<Real>(name, args); });
    return real_out(v);
  });
}

py::tuple project(const std::vector<std::string>& x0, const std::vector<std::string>& a,
                  const std::string& b, const std::string& precision) {
  const io::precision p = precision_of(precision);
  return io::with_precision(p, [&]<class Real>() -> py::tuple {
    std::vector<Real> rx0, ra;
    for (std::size_t i = 0; i < x0.size(); ++i)
      rx0.push_back(io::parse_real<Real>(x0[i], "x0[" + std::to_string(i) + "]"));
    for (std::size_t i = 0; i < a.size(); ++i)
      ra.push_back(io::parse_real<Real>(a[i], "a[" + std::to_string(i) + "]"));
    const Real rb = io::parse_real<Real>(b, "b");
    const auto [x, nu] = conformance::project_capped_simplex<Real>(rx0, ra, rb);
    if constexpr (std::is_floating_point_v<Real>) {
      py::array_t<Real> out(static_cast<py::ssize_t>(x.size()));
      std::copy(x.begin(), x.end(), out.mutable_data());
      return py::make_tuple(out, real_out(nu));
    } else {
      py::list out;
      for (const Real& v : x) out.append(parts(v));
      return py::make_tuple(out, real_out(nu));
    }
  });
}

std::string audit_builtin(const std::string& mechanism, double epsilon, double delta,
                          std::uint64_t samples, std::uint64_t seed, double alpha, unsigned threads,
                          std::size_t dim, std::size_t candidates) {
  audit::builtin_options o;
  o.mechanism = mechanism;
  o.epsilon = epsilon;
  o.delta = delta;
  o.samples = samples;
  o.seed = seed;
  o.alpha = alpha;
  o.threads = threads;
  o.dim = dim;
  o.candidates = candidates;
  py::gil_scoped_release release;
  std::string sampler;
  const audit::audit_report r = audit::run_builtin(o, sampler);
  return audit::builtin_report_json(o, r, sampler).dump();
}

/// Seed handed to a Python mechanism for one chunk: the first lane-0 word of the chunk's stream
/// philox_stream(seed, audit_stream_id(phase, pair, side), chunk) (the plan of AUDIT.THREADS).
std::uint64_t chunk_seed(std::uint64_t seed, unsigned phase, std::size_t pair, unsigned side,
                         std::uint64_t chunk) {
  philox_stream s(seed, audit::audit_stream_id(phase, pair, side), chunk);
  return s();
}

/// Audit of a Python mechanism `f(pair, side, n, seed) -> array of n floats` (pair and side in
/// {0, 1}); threshold events on [lo, hi) with `bins` cells (and the low-order-bit events).
/// Single-threaded with the GIL held: every chunk is one call of f.
std::string audit_callable(const py::function& f, const std::vector<std::string>& pairs,
                           double epsilon, double delta, std::uint64_t search, std::uint64_t test,
                           std::uint64_t seed, double alpha, std::uint64_t chunk, double lo,
                           double hi, std::size_t bins, bool lowbits) {
  audit::audit_config cfg;
  cfg.seed = seed;
  cfg.search_samples = search;
  cfg.test_samples = test;
  cfg.alpha = alpha;
  cfg.epsilon = epsilon;
  cfg.delta = delta;
  cfg.threads = 1;
  cfg.chunk = chunk;
  const auto id = [](double y) { return y; };
  std::vector<audit::event_family<double>> fams = {
      audit::threshold_family<double>("threshold", id, lo, hi, bins)};
  if (lowbits) fams.push_back(audit::lowbits_family<double>("low-order bits", id, {-40, 8, 52}));
  const auto count = [&](unsigned phase, std::size_t p, unsigned side, std::uint64_t n,
                         const std::vector<audit::event_family<double>>& families) {
    const auto fill = [&](philox_stream& s, std::uint64_t m, std::vector<double>& out) {
      const std::uint64_t rng_seed = s();
      py::object r = f(p, side, m, rng_seed);
      const auto a = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(r);
      if (!a || a.ndim() != 1 || static_cast<std::uint64_t>(a.shape(0)) != m)
        throw std::invalid_argument("dpref.audit: the mechanism must return a 1-D array of " +
                                    std::to_string(m) + " numbers (pair " + std::to_string(p) +
                                    ", side " + std::to_string(side) + ")");
      const double* d = a.data();
      out.insert(out.end(), d, d + m);
    };
    return audit::count_cells_batched<double>(fill, families, n, cfg.seed,
                                              audit::audit_stream_id(phase, p, side), 1, cfg.chunk);
  };
  const audit::audit_report r = audit::run_audit_counts<double>(
      pairs, [&](std::size_t) { return fams; }, count, cfg);
  nlohmann::json j = audit::report_json(r, seed, search, test);
  j["mechanism"] = "python callable";
  j["seconds"] = r.seconds;
  return j.dump();
}

// ------------------------------------------------------------------ papers (PY.RUN) --

/// The papers' runners (src/papers/papers.hpp).
const std::vector<conformance::paper_runner>& runners() { return papers::runners(); }

}  // namespace
}  // namespace dpref::python

PYBIND11_MODULE(_core, m) {
  using namespace dpref::python;
  namespace dp = dpref;
  m.doc() = "dpref._core: C++ bindings of dpref (use the dpref package, not this module)";
  m.attr("__version__") = dp::version;

  static py::exception<dp::accounting::budget_exceeded> budget_exc(m, "BudgetExceeded",
                                                                   PyExc_RuntimeError);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (py::error_already_set&) {
      throw;  // a Python exception raised in a callback: pass it on unchanged
    } catch (const py::builtin_exception&) {
      throw;
    } catch (const dp::accounting::budget_exceeded& e) {
      budget_exc(e.what());
    } catch (const std::invalid_argument& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const std::domain_error& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const std::bad_alloc&) {
      PyErr_SetString(PyExc_MemoryError, "out of memory");
    } catch (const std::exception& e) {
      PyErr_SetString(PyExc_RuntimeError, e.what());
    }
  });

  m.def("bits", &bits, "Significand bits of a precision name.", py::arg("precision"));
  m.def("philox_words", &philox_words, py::arg("seed"), py::arg("stream"), py::arg("substream"),
        py::arg("position"), py::arg("lane"), py::arg("count"));
  m.def("sample", &sample, py::arg("dist"), py::arg("n"), py::arg("params"), py::arg("seed"),
        py::arg("stream"), py::arg("substream"), py::arg("position"), py::arg("precision"),
        py::arg("kernel") = "automatic");
  m.def("sample_scalar_reference", &sample_scalar_reference, py::arg("dist"), py::arg("n"),
        py::arg("params"), py::arg("seed"), py::arg("stream"), py::arg("substream"),
        py::arg("position"));
  m.def("sample_ziggurat", &sample_ziggurat, py::arg("dist"), py::arg("n"), py::arg("param"),
        py::arg("seed"), py::arg("stream"), py::arg("substream"), py::arg("position"),
        py::arg("kernel"), py::arg("threads"));
  m.def("ziggurat_kernel", [] { return dp::ziggurat::kernel_name(); });
  m.def("avx512_available", &dp::batch::avx512_available);
  m.def("distributions", [] {
    py::list out;
    for (const auto& d : dp::conformance::distributions()) {
      py::list params;
      for (const auto& [n, def] : d.params) params.append(py::make_tuple(n, def));
      const char* kind = d.kind == sample_kind::real      ? "real"
                         : d.kind == sample_kind::boolean ? "boolean"
                         : d.kind == sample_kind::vector  ? "vector"
                                                          : "integer";
      out.append(py::make_tuple(d.name, kind, params));
    }
    return out;
  });
  m.def("account", &account, py::arg("text"), py::arg("source"), py::arg("is_path"),
        py::arg("precision"), py::arg("options"), py::arg("budget"));
  m.def("calibrators", [] {
    py::list out;
    for (const auto& c : dp::conformance::calibrators())
      out.append(py::make_tuple(c.name, c.args, c.what));
    return out;
  });
  m.def("calibrate", &calibrate, py::arg("name"), py::arg("args"), py::arg("precision"));
  m.def("project_capped_simplex", &project, py::arg("x0"), py::arg("a"), py::arg("b"),
        py::arg("precision"));
  m.def("audit_mechanisms", [] { return dp::audit::builtin_mechanisms(); });
  m.def("audit_builtin", &audit_builtin, py::arg("mechanism"), py::arg("epsilon"), py::arg("delta"),
        py::arg("samples"), py::arg("seed"), py::arg("alpha"), py::arg("threads"), py::arg("dim"),
        py::arg("candidates"));
  m.def("audit_callable", &audit_callable, py::arg("f"), py::arg("pairs"), py::arg("epsilon"),
        py::arg("delta"), py::arg("search"), py::arg("test"), py::arg("seed"), py::arg("alpha"),
        py::arg("chunk"), py::arg("lo"), py::arg("hi"), py::arg("bins"), py::arg("lowbits"));
  m.def("chunk_seed", &chunk_seed, py::arg("seed"), py::arg("phase"), py::arg("pair"),
        py::arg("side"), py::arg("chunk"));
  m.def(
      "conformance_evaluate",
      [](const std::string& op, const std::string& input) {
        const dp::io::document d = dp::io::document::parse(input, "input");
        return nogil(
            [&] { return dp::conformance::evaluate(op, dp::io::node(d), runners()).dump(); });
      },
      py::arg("op"), py::arg("input"));
  m.def(
      "conformance_check",
      [](const std::string& vector, const std::string& answer) {
        return dp::conformance::check(dp::io::json::parse(vector), dp::io::json::parse(answer))
            .to_json()
            .dump();
      },
      py::arg("vector"), py::arg("answer"));
  m.def(
      "conformance_load",
      [](const std::string& path, const std::vector<std::string>& ids,
         const std::vector<std::string>& precisions) {
        const auto sel = dp::conformance::load_corpus(path, ids, precisions);
        dp::io::json fams = dp::io::json::array();
        for (const auto& f : sel.families)
          fams.push_back({{"family", f.family},
                          {"file", f.file},
                          {"listed", f.listed},
                          {"vectors", f.vectors}});
        return dp::io::json{{"root", sel.root.string()},
                            {"manifest_vectors", sel.manifest_vectors},
                            {"selected", sel.selected},
                            {"families", std::move(fams)}}
            .dump();
      },
      py::arg("path"), py::arg("ids"), py::arg("precisions"));
  m.def("papers", [] {
    std::vector<std::string> out;
    for (const auto& r : runners()) out.push_back(r.name);
    return out;
  });
  m.def(
      "run_json",
      [](const std::string& paper, const std::string& config, const std::string& precision) {
        const dp::conformance::paper_runner& r = dp::conformance::find_runner(runners(), paper);
        const dp::io::precision p = precision_of(precision);
        const dp::io::document d = dp::io::document::parse(config, "config");
        return nogil([&] { return r.run(d, p).dump(); });
      },
      py::arg("paper"), py::arg("config"), py::arg("precision"));
}
