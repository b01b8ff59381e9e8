// The scope of a worker thread the library starts (spec/architecture.md ACC.CERT.THREADS,
// ARCH.MPFR.SCOPE).
// - Numeric context: the precision of new mpfr_real values and of certified-accounting work_real
//   values is per thread (scalar_mpfr.hpp, accounting/work_real.hpp); a worker computes at its
//   parent's, so the parent captures thread_numerics::current() and the worker holds a
//   worker_scope built from it (the same bytes for any thread count).
// - MPFR keeps per-thread caches (constants such as log 2 and π at the precisions used); a thread
//   that ends without freeing them leaks them (MPFR manual, mpfr_free_cache2; LeakSanitizer
//   reports it): the worker_scope's destructor frees that thread's caches.
#pragma once

#include <mpfr.h>

#include "dpref/accounting/work_real.hpp"
#include "dpref/scalar.hpp"

namespace dpref::parallel {

/// The per-thread numeric settings a worker inherits from the thread that starts it.
struct thread_numerics {
  unsigned mpfr_digits10 = 0;  ///< mpfr_real's precision (decimal digits)
  int work_bits = 0;           ///< work_real's working precision (bits)

  /// The calling thread's settings (capture them before starting a worker).
  [[nodiscard]] static thread_numerics current() {
    return {mpfr_precision_scope::current(), accounting::working_precision_scope::bits()};
  }
};

/// RAII for a worker body: sets the parent's numeric settings on this thread and frees this
/// thread's MPFR caches when the body ends (normally or by an exception). Hold one at the top of
/// every function run on a thread the library creates; never on the caller's thread.
class worker_scope {
 public:
  explicit worker_scope(const thread_numerics& parent)
      : mpfr_(parent.mpfr_digits10), work_(parent.work_bits) {}
  worker_scope(const worker_scope&) = delete;
  worker_scope& operator=(const worker_scope&) = delete;
  ~worker_scope() { mpfr_free_cache2(MPFR_FREE_LOCAL_CACHE); }

 private:
  mpfr_precision_scope mpfr_;
  accounting::working_precision_scope work_;
};

}  // namespace dpref::parallel
