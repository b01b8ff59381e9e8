// mpfr_real's precision is per thread and set only by scopes (spec/architecture.md
// ARCH.MPFR.SCOPE): concurrent threads at different precisions, restore on exit, inheritance by
// the library's workers, and bit-identity with Boost's own runtime-precision mpfr_float.
#include <gtest/gtest.h>

#include <barrier>
#include <boost/math/constants/constants.hpp>
#include <boost/math/special_functions/expm1.hpp>
#include <boost/math/special_functions/log1p.hpp>
#include <string>
#include <thread>
#include <vector>

#include "dpref/parallel/worker_scope.hpp"
#include "dpref/scalar.hpp"

namespace {

using namespace dpref;
namespace bmp = boost::multiprecision;

/// Significand bits of a new mpfr_real on this thread.
int new_value_bits() { return static_cast<int>(mpfr_get_prec(mpfr_real(1).backend().data())); }

TEST(ARCH_MPFR_SCOPE, ScopesNestAndRestore) {
  const unsigned outer = mpfr_precision_scope::current();
  {
    const mpfr_precision_scope a(60);
    EXPECT_EQ(mpfr_precision_scope::current(), 60U);
    EXPECT_EQ(binary_digits<mpfr_real>(), static_cast<int>(bmp::detail::digits10_2_2(60)));
    {
      const mpfr_precision_scope b(200);
      EXPECT_EQ(new_value_bits(), static_cast<int>(bmp::detail::digits10_2_2(200)));
      // an arithmetic result takes the scope's precision, not its operands'
      const mpfr_real third = mpfr_real(1) / 3;
      EXPECT_EQ(mpfr_get_prec(third.backend().data()), bmp::detail::digits10_2_2(200));
    }
    EXPECT_EQ(mpfr_precision_scope::current(), 60U);
  }
  EXPECT_EQ(mpfr_precision_scope::current(), outer);
  EXPECT_THROW(mpfr_precision_scope(0), std::domain_error);
}

TEST(ARCH_MPFR_SCOPE, TwoThreadsAtTwoPrecisionsAtOnce) {
  // Both threads hold their scope while the other computes (the barrier makes the overlap
  // certain); with a process-wide precision one of them would see the other's.
  std::barrier sync(2);
  std::string low, high;
  int low_bits = 0, high_bits = 0;
  const auto body = [&sync](unsigned digits, std::string& text, int& bits) {
    const mpfr_precision_scope scope(digits);
    sync.arrive_and_wait();
    mpfr_real x(1);
    for (int i = 0; i < 200; ++i) x = (x + mpfr_real(1) / 3) / 2;
    sync.arrive_and_wait();
    bits = static_cast<int>(mpfr_get_prec(x.backend().data()));
    text = x.str(0, std::ios_base::scientific);
    mpfr_free_cache2(MPFR_FREE_LOCAL_CACHE);
  };
  {
    std::jthread a([&] { body(30, low, low_bits); });
    std::jthread b([&] { body(90, high, high_bits); });
  }
  EXPECT_EQ(low_bits, static_cast<int>(bmp::detail::digits10_2_2(30)));
  EXPECT_EQ(high_bits, static_cast<int>(bmp::detail::digits10_2_2(90)));
  // each equals the same computation run alone at its precision
  const auto alone = [](unsigned digits) {
    const mpfr_precision_scope scope(digits);
    mpfr_real x(1);
    for (int i = 0; i < 200; ++i) x = (x + mpfr_real(1) / 3) / 2;
    return x.str(0, std::ios_base::scientific);
  };
  EXPECT_EQ(low, alone(30));
  EXPECT_EQ(high, alone(90));
  EXPECT_NE(low, high);
}

TEST(ARCH_MPFR_SCOPE, LibraryWorkersInheritTheCallersPrecisionAPlainThreadDoesNot) {
  const mpfr_precision_scope caller(77);
  const accounting::working_precision_scope work(512);
  const parallel::thread_numerics numerics = parallel::thread_numerics::current();
  int worker_bits = 0, worker_work_bits = 0, plain_bits = 0;
  {
    std::jthread w([&] {
      const parallel::worker_scope scope(numerics);
      worker_bits = new_value_bits();
      worker_work_bits = accounting::working_precision_scope::bits();
    });
    // negative control: a thread without the worker scope starts at Boost's default precision
    std::jthread plain([&] {
      plain_bits = new_value_bits();
      mpfr_free_cache2(MPFR_FREE_LOCAL_CACHE);
    });
  }
  EXPECT_EQ(worker_bits, static_cast<int>(bmp::detail::digits10_2_2(77)));
  EXPECT_EQ(worker_work_bits, 512);
  EXPECT_EQ(
      plain_bits,
      static_cast<int>(bmp::detail::digits10_2_2(BOOST_MULTIPRECISION_MPFR_DEFAULT_PRECISION)));
  EXPECT_NE(plain_bits, worker_bits);
}

/// Values of a fixed set of operations, as exact decimal text (every significant bit).
template <class R>
std::vector<std::string> operation_values() {
  using std::atan2;
  using std::exp;
  using std::log;
  using std::pow;
  using std::sqrt;
  const R x = R(1) / 3, y("2.5"), z(0.1);
  const std::vector<R> v{x + y,
                         x * y - z,
                         exp(x),
                         log(y),
                         pow(x, y),
                         sqrt(y),
                         erf(x),
                         erfc(y),
                         lgamma(y),
                         tgamma(x),
                         atan2(x, y),
                         boost::math::log1p(x),
                         boost::math::expm1(x),
                         boost::math::constants::pi<R>(),
                         boost::math::constants::root_pi<R>(),
                         ldexp(x, 7),
                         round(y * 3),
                         R(12345678901234567LL)};
  std::vector<std::string> out;
  for (const R& r : v) out.push_back(r.str(0, std::ios_base::scientific));
  return out;
}

TEST(ARCH_MPFR_SCOPE, ResultsAreBoostsMpfrFloatBitForBit) {
  // The reference is Boost's own runtime-precision mpfr_float at the same precision (its
  // process-wide default is set here, in a test, and restored).
  using boost_mpfr = bmp::number<bmp::mpfr_float_backend<0>, bmp::et_off>;
  const unsigned saved = boost_mpfr::default_precision();
  for (const unsigned digits : {20U, 60U, 120U}) {
    boost_mpfr::default_precision(digits);
    const std::vector<std::string> expected = operation_values<boost_mpfr>();
    const mpfr_precision_scope scope(digits);
    EXPECT_EQ(operation_values<mpfr_real>(), expected) << digits << " digits";
    // negative control: one more digit changes the values
    const mpfr_precision_scope wider(digits + 1);
    EXPECT_NE(operation_values<mpfr_real>(), expected) << digits << " digits";
  }
  boost_mpfr::default_precision(saved);
}

}  // namespace
