// The conformance kit's library (spec/conformance.md): numbers, the checker, the ops and the
// trajectory registry. The corpus itself is checked by ctests (tests/cmake/conformance.cmake).
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <string>

#include "dpref/conformance/check.hpp"
#include "dpref/conformance/corpus.hpp"
#include "dpref/conformance/generate.hpp"
#include "dpref/conformance/numbers.hpp"
#include "dpref/conformance/ops.hpp"
#include "dpref/conformance/registry.hpp"
#include "dpref/conformance/sha256.hpp"
#include "dpref/random.hpp"

// A paper-like namespace with a run_json<Real> entry point (ARCH.RUN), to exercise the
// one-line registration of src/papers/papers.hpp without a paper.
namespace conformance_test_paper {
template <class Real>
dpref::io::json run_json(const dpref::io::document& config) {
  const dpref::io::node n(config);
  const Real x = n.at("x").template real<Real>();
  // a "trajectory": x_{k+1} = x_k / 3 + 1, three steps
  dpref::io::json it = dpref::io::json::array();
  Real v = x;
  for (int k = 0; k < 3; ++k) {
    v = v / Real(3) + Real(1);
    it.push_back(dpref::io::real_value(v));
  }
  return {{"schema", "dpref.result/1"}, {"iterates", {{"x", it}}}};
}
}  // namespace conformance_test_paper

namespace dpref::conformance {
namespace {

io::json answer(io::json output) { return {{"output", std::move(output)}}; }

TEST(CONF_NUMBERS, ExactConversionsAndDigits) {
  EXPECT_EQ(exact(0.1).digits(30), "1.00000000000000005551115123126e-1");
  EXPECT_EQ(exact(-3.0L).digits(3), "-3.00e0");
  const mp50 third = mp50(1) / 3;
  const mp x = exact(third);
  EXPECT_EQ(compare(round_to(x, binary_digits<mp50>()), x), 0) << "mp50 converts exactly";
  EXPECT_EQ(x.digits(10), "3.333333333e-1");
  const mpfr_precision_scope digits60(60);
  const mpfr_real y = mpfr_real(2) / 7;
  EXPECT_EQ(exact(y).digits(20), exact(y).digits(20));
  EXPECT_EQ(compare(exact(y, 400), exact(y)), 0);
  EXPECT_EQ(exact(0.0).digits(5), "0");
  // ulp of a p-bit format: 2^(floor(log2 x) - p + 1)
  EXPECT_EQ(ulp(exact(1.0), 53).to_double(), std::ldexp(1.0, -52));
  EXPECT_EQ(ulp(exact(0.75), 53).to_double(), std::ldexp(1.0, -53));
  EXPECT_TRUE(ulp(exact(0.0), 53).is_zero());
  // parsing rounds to nearest at the given bits
  EXPECT_EQ(mp::parse("0.1", 53, "t").to_double(), 0.1);
  EXPECT_THROW(mp::parse("0x1p3", 53, "t"), std::invalid_argument);
  // inverse error functions at the reference precision
  const mp z = inverse_erf(exact(0.25), true);
  mp back(reference_bits);
  mpfr_erfc(back.get(), z.get(), MPFR_RNDN);
  EXPECT_LT(std::fabs(sub(back, exact(0.25)).to_double()), 1e-150);
}

TEST(CONF_CHECK, UlpsExactRelAbsAndDirections) {
  const io::json ulps = {{"id", "u"},
                         {"expected", {{"y", {"1.00000000000000000001", "2"}}}},
                         {"tolerance", {{"y", {{"kind", "ulps"}, {"ulps", 1}, {"bits", 53}}}}}};
  EXPECT_TRUE(check(ulps, answer({{"y", {1.0, 2.0}}})).pass);
  EXPECT_TRUE(check(ulps, answer({{"y", {1.0, std::nextafter(2.0, 3.0)}}})).pass);
  const verdict far =
      check(ulps, answer({{"y", {1.0, std::nextafter(std::nextafter(2.0, 3.0), 3.0)}}}));
  EXPECT_FALSE(far.pass);
  EXPECT_EQ(far.worst_key, "y/1");
  EXPECT_NEAR(far.worst_error, 2.0, 1e-12);
  EXPECT_FALSE(check(ulps, answer({{"y", {1.0}}})).pass) << "shape mismatch";
  EXPECT_FALSE(check(ulps, answer({{"z", 1}})).pass) << "missing key";
  EXPECT_FALSE(check(ulps, {{"error", "nope"}}).pass);
  // 0 ulps: the answer must be the expected value rounded to the precision
  const io::json zero = {
      {"id", "z"},
      {"expected", {{"y", "0.1000000000000000055511151231257827021181583404541015625"}}},
      {"tolerance", {{"y", {{"kind", "ulps"}, {"ulps", 0}, {"bits", 53}}}}}};
  EXPECT_TRUE(check(zero, answer({{"y", 0.1}})).pass);
  EXPECT_FALSE(check(zero, answer({{"y", std::nextafter(0.1, 1.0)}})).pass);
  // rel, up: certified upper bounds may not be below the exact value
  const io::json up = {
      {"id", "r"},
      {"expected", {{"eps", "1.5"}}},
      {"tolerance",
       {{"eps", {{"kind", "rel"}, {"rel", "1e-9"}, {"bits", 53}, {"direction", "up"}}}}}};
  EXPECT_TRUE(check(up, answer({{"eps", 1.5}})).pass);
  EXPECT_TRUE(check(up, answer({{"eps", "1.5000000001"}})).pass);
  const verdict below = check(up, answer({{"eps", std::nextafter(1.5, 0.0)}}));
  EXPECT_FALSE(below.pass);
  EXPECT_NE(below.problem.find("BELOW the exact value"), std::string::npos);
  EXPECT_FALSE(check(up, answer({{"eps", 1.51}})).pass);
  const io::json ab = {{"id", "a"},
                       {"expected", {{"x", {"0", "1"}}}},
                       {"tolerance", {{"x", {{"kind", "abs"}, {"abs", "1e-12"}, {"bits", 53}}}}}};
  EXPECT_TRUE(check(ab, answer({{"x", {1e-13, 1.0}}})).pass);
  EXPECT_FALSE(check(ab, answer({{"x", {1e-11, 1.0}}})).pass);
  // exact: hex words compare as integers, anything else as JSON
  const io::json ex = {{"id", "e"},
                       {"expected", {{"w", {"0x00ff", true, 3}}}},
                       {"tolerance", {{"w", {{"kind", "exact"}}}}}};
  EXPECT_TRUE(check(ex, answer({{"w", {"0xFF", true, 3}}})).pass);
  EXPECT_FALSE(check(ex, answer({{"w", {"0xFF", false, 3}}})).pass);
  // refusals
  const io::json refuse = {{"id", "x"}, {"expect_error", true}};
  EXPECT_TRUE(check(refuse, {{"error", "refused"}}).pass);
  EXPECT_FALSE(check(refuse, answer({{"eps", 1}})).pass);
  // JSON pointers into the output (trajectories)
  const io::json ptr = {
      {"id", "p"},
      {"expected", {{"/iterates/x", {"1"}}}},
      {"tolerance", {{"/iterates/x", {{"kind", "ulps"}, {"ulps", 1}, {"bits", 53}}}}}};
  EXPECT_TRUE(check(ptr, answer({{"iterates", {{"x", {1.0}}}}})).pass);
  EXPECT_FALSE(check(ptr, answer({{"iterates", {{"y", {1.0}}}}})).pass);
}

io::json eval(const std::string& op, const io::json& input,
              const std::vector<paper_runner>& runners = {}) {
  const io::document d = io::document::from_value(input, "test");
  return evaluate(op, io::node(d), runners);
}

TEST(CONF_OPS, EvaluateIsTheLibrary) {
  const io::json w = eval(
      "philox",
      {{"seed", 1}, {"stream", 2}, {"substream", 3}, {"position", 4}, {"lane", 1}, {"count", 3}});
  const philox_stream s(1, 2, 3);
  ASSERT_EQ(w.at("words").size(), 3u);
  EXPECT_EQ(std::stoull(w.at("words")[2].get<std::string>(), nullptr, 16), s.word_at(6, 1));
  const io::json lap =
      eval("sample", {{"distribution", "laplace"},
                      {"params", {{"b", "2.5"}}},
                      {"address", {{"seed", 5}, {"stream", 0}, {"substream", 0}, {"position", 9}}},
                      {"count", 4}});
  philox_stream t(5, 0, 0, 9);
  for (int i = 0; i < 4; ++i)
    EXPECT_EQ(lap.at("samples")[i].get<double>(), laplace<double>(t, 2.5));
  const io::json mp =
      eval("sample", {{"distribution", "gaussian"},
                      {"precision", "mp50"},
                      {"address", {{"seed", 5}, {"stream", 0}, {"substream", 0}, {"position", 0}}},
                      {"count", 1}});
  philox_stream u(5);
  EXPECT_EQ(mp.at("samples")[0].get<std::string>(), io::format_real(gaussian<mp50>(u, mp50(1))));
  const io::json cal =
      eval("calibrate", {{"function", "laplace_scale"}, {"args", {{"epsilon", 0.5}}}});
  EXPECT_EQ(cal.at("value").get<double>(), 2.0);
  EXPECT_THROW(eval("calibrate", {{"function", "laplace_scale"}, {"args", {{"epsilon", "0"}}}}),
               std::domain_error);
  EXPECT_THROW(eval("calibrate", {{"function", "nope"}, {"args", io::json::object()}}),
               std::invalid_argument);
  const io::json acc =
      eval("account", {{"ledger",
                        {{"accounting", {{"delta", 0}}},
                         {"events", {{{"mechanism", "pure"}, {"epsilon", 0.25}, {"count", 4}}}}}}});
  EXPECT_EQ(acc.at("epsilon").get<double>(), 1.0);
  const io::json proj =
      eval("project_capped_simplex", {{"x0", {"0.5", "0.5"}}, {"a", {1, 1}}, {"b", 1}});
  EXPECT_EQ(proj.at("x")[0].get<double>(), 0.5);
  EXPECT_THROW(eval("nope", io::json::object()), std::invalid_argument);
  EXPECT_THROW(eval("sample", {{"distribution", "laplace"},
                               {"params", {{"scale", 1}}},
                               {"address", {{"seed", 0}}},
                               {"count", 1}}),
               std::invalid_argument)
      << "unknown parameter names are refused";
}

TEST(CONF_TRAJECTORY, OneLineRegistrationAndTrajectoryVectors) {
  const std::vector<paper_runner> runners = {
      DPREF_PAPER_RUNNER("test-paper", ::conformance_test_paper)};
  EXPECT_EQ(find_runner(runners, "test-paper").name, "test-paper");
  try {
    (void)find_runner({}, "ev");
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "dpref.run: paper must be one of (none registered yet), got 'ev'");
  }
  const io::json out = eval(
      "run", {{"paper", "test-paper"}, {"config", {{"x", "2"}}}, {"precision", "mp50"}}, runners);
  EXPECT_EQ(out.at("iterates").at("x").size(), 3u);
  const io::json v =
      trajectory_vector("trajectories/test-paper/0", runners[0], {{"x", "2"}}, {"/iterates/x"},
                        {{"kind", "ulps"}, {"ulps", 2}, {"bits", 53}}, "double", "mpfr:60");
  EXPECT_EQ(v.at("op"), "run");
  EXPECT_TRUE(v.contains("reference"));
  EXPECT_TRUE(check(v, v.at("reference")).pass);
  // a wrong implementation of the trajectory fails it
  io::json wrong = v.at("reference");
  wrong["output"]["iterates"]["x"][2] = 1.75;
  EXPECT_FALSE(check(v, wrong).pass);
}

TEST(CONF_CHECK, UnsupportedNonFiniteAndWrongSide) {
  const io::json up = {
      {"id", "r"},
      {"expected", {{"eps", "1.5"}}},
      {"tolerance",
       {{"eps", {{"kind", "ulps"}, {"ulps", 64}, {"bits", 53}, {"direction", "up"}}}}}};
  // "unsupported": neither passed nor failed
  const verdict u = check(up, {{"unsupported", "no such event kind"}});
  EXPECT_FALSE(u.pass);
  EXPECT_TRUE(u.unsupported);
  EXPECT_EQ(u.to_json().at("status"), "unsupported");
  // a non-finite answer fails the vector (it does not throw)
  for (const char* t : {"inf", "-inf", "nan", "Infinity"}) {
    const verdict v = check(up, answer({{"eps", t}}));
    EXPECT_FALSE(v.pass) << t;
    EXPECT_FALSE(v.unsupported);
    EXPECT_NE(v.problem.find("not a finite number"), std::string::npos) << v.problem;
    EXPECT_EQ(v.to_json().at("status"), "fail");
  }
  // below the exact value by one ulp: a wrong-side failure, not a tiny in-tolerance error
  const verdict below = check(up, answer({{"eps", std::nextafter(1.5, 0.0)}}));
  EXPECT_FALSE(below.pass);
  EXPECT_TRUE(below.wrong_side);
  EXPECT_NE(below.problem.find("BELOW the exact value by 1 ulps"), std::string::npos)
      << below.problem;
  EXPECT_TRUE(below.to_json().at("wrong_side").get<bool>());
  const verdict fine = check(up, answer({{"eps", std::nextafter(1.5, 2.0)}}));
  EXPECT_TRUE(fine.pass);
  EXPECT_FALSE(fine.wrong_side);
}

TEST(CONF_MANIFEST, Sha256KnownAnswers) {
  EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(sha256_hex(std::string(1000000, 'a')),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

namespace fs = std::filesystem;

/// A two-family corpus written by write_corpus into a fresh folder.
fs::path small_corpus(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("dpref_conf_manifest_" + name);
  fs::remove_all(dir);
  const auto vec = [](const std::string& id, const char* precision) {
    return io::json{{"id", id},
                    {"op", "calibrate"},
                    {"input",
                     {{"function", "laplace_scale"},
                      {"args", {{"epsilon", "0.5"}, {"sensitivity", "1"}}},
                      {"precision", precision}}},
                    {"expected", {{"value", "2"}}},
                    {"tolerance", {{"value", gen::ulps_tol(1, 53)}}}};
  };
  const std::vector<family_entry> fams = {
      {"a/one",
       [&] {
         return family{"a/one", "one", {vec("a/1", "double"), vec("a/2", "mp50")}};
       }},
      {"b/two", [&] {
         return family{"b/two", "two", {vec("b/1", "double")}};
       }}};
  (void)write_corpus(dir, fams, {});
  return dir;
}

std::string refusal(const fs::path& p, const std::vector<std::string>& ids = {},
                    const std::vector<std::string>& precisions = {}) {
  try {
    (void)load_corpus(p, ids, precisions);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

void rewrite(const fs::path& p, const std::string& from, const std::string& to) {
  std::ifstream in(p);
  std::string s((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto at = s.find(from);
  ASSERT_NE(at, std::string::npos) << from;
  s.replace(at, from.size(), to);
  std::ofstream(p, std::ios::binary | std::ios::trunc) << s;
}

TEST(CONF_MANIFEST, LoadsAndSelects) {
  const fs::path dir = small_corpus("ok");
  const corpus_selection all = load_corpus(dir);
  EXPECT_EQ(all.manifest_vectors, 3u);
  EXPECT_EQ(all.selected, 3u);
  EXPECT_TRUE(all.whole());
  const corpus_selection dbl = load_corpus(dir, {}, {"double"});
  EXPECT_EQ(dbl.selected, 2u);
  EXPECT_FALSE(dbl.whole());
  const corpus_selection one = load_corpus(dir / "a", {"a/2"});
  ASSERT_EQ(one.families.size(), 1u);
  EXPECT_EQ(one.selected, 1u);
  EXPECT_EQ(load_corpus(dir / "b" / "two.json").families.at(0).family, "b/two");
  EXPECT_NE(refusal(dir, {}, {"float"})
                .find("--precision must be a precision the corpus has "
                      "vectors for (double, mp50), got 'float'"),
            std::string::npos);
  EXPECT_NE(refusal(dir, {"zz"}).find("--ids must name vectors of the corpus, got 'zz'"),
            std::string::npos);
  fs::remove_all(dir);
}

TEST(CONF_MANIFEST, RefusesCorruptedCorpora) {
  struct corruption {
    std::string name;
    std::function<void(const fs::path&)> apply;
    std::string message;
  };
  const std::vector<corruption> cases = {
      {"missing", [](const fs::path& d) { fs::remove(d / "b" / "two.json"); },
       "lists family 'b/two' but"},
      {"extra",
       [](const fs::path& d) { fs::copy_file(d / "b" / "two.json", d / "b" / "three.json"); },
       "three.json': an extra family file: MANIFEST.json does not list it"},
      {"truncated", [](const fs::path& d) { fs::resize_file(d / "MANIFEST.json", 100); },
       "MANIFEST.json': not valid JSON (truncated?)"},
      {"count",
       [](const fs::path& d) { rewrite(d / "MANIFEST.json", "\"vectors\": 1", "\"vectors\": 2"); },
       "two.json': 1 vectors, MANIFEST.json lists 2"},
      {"digest", [](const fs::path& d) { rewrite(d / "b" / "two.json", "\"0.5\"", "\"0.6\""); },
       "differs from MANIFEST.json's"},
      {"bytes", [](const fs::path& d) { rewrite(d / "b" / "two.json", "\"two\"", "\"two!\""); },
       "bytes, MANIFEST.json lists"},
      {"schema",
       [](const fs::path& d) {
         rewrite(d / "MANIFEST.json", "dpref.vectors/2", "dpref.vectors/1");
       },
       "schema must be \"dpref.vectors/2\""},
      {"none", [](const fs::path& d) { fs::remove(d / "MANIFEST.json"); }, "no MANIFEST.json in"},
  };
  for (const auto& c : cases) {
    const fs::path dir = small_corpus(c.name);
    c.apply(dir);
    const std::string why = refusal(dir);
    EXPECT_NE(why.find(c.message), std::string::npos) << c.name << ": " << why;
    fs::remove_all(dir);
  }
  // vector-level defects, written with a consistent manifest
  const auto with_vectors = [](const std::string& name, std::vector<io::json> vs) {
    const fs::path dir = fs::temp_directory_path() / ("dpref_conf_manifest_" + name);
    fs::remove_all(dir);
    (void)write_corpus(dir, {{"x/f", [&] { return family{"x/f", "f", vs}; }}}, {});
    return dir;
  };
  const io::json good = {{"id", "x/1"},
                         {"op", "philox"},
                         {"input", {{"seed", 0}}},
                         {"expected", {{"words", {"0x1"}}}},
                         {"tolerance", {{"words", gen::exact_tol()}}}};
  io::json noid = good;
  noid.erase("id");
  io::json notol = good;
  notol["tolerance"] = io::json::object();
  io::json badtol = good;
  badtol["tolerance"]["words"] = {{"kind", "approx"}};
  const std::vector<std::pair<std::vector<io::json>, std::string>> defects = {
      {{}, "\"vectors\" must be a non-empty array (an empty family is refused)"},
      {{good, good}, "duplicate vector id 'x/1'"},
      {{good, noid}, "vector 1 has no id (a non-empty string)"},
      {{notol}, "vector 'x/1': no tolerance for \"words\""},
      {{badtol}, "vector 'x/1': tolerance of \"words\": tolerance kind must be exact, ulps, rel"},
  };
  int k = 0;
  for (const auto& [vs, message] : defects) {
    const fs::path dir = with_vectors("v" + std::to_string(k++), vs);
    const std::string why = refusal(dir);
    EXPECT_NE(why.find(message), std::string::npos) << why;
    EXPECT_NE(why.find("f.json"), std::string::npos) << "names the file: " << why;
    fs::remove_all(dir);
  }
}

}  // namespace
}  // namespace dpref::conformance
