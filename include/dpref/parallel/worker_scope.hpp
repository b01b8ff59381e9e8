// The scope of a worker thread the library starts (spec/architecture.md ACC.CERT.THREADS).
// MPFR keeps per-thread caches (constants such as log 2 and π at the precisions used, the
// mpfr_real and certified-accounting work); a thread that ends without freeing them leaks them
// (MPFR manual, mpfr_free_cache2; LeakSanitizer reports it). Every worker body the library runs
// on its own thread holds a worker_scope, whose destructor frees that thread's caches.
#pragma once

#include <mpfr.h>

namespace dpref::parallel {

/// RAII: frees the calling thread's MPFR caches when the worker body ends (normally or by an
/// exception). Hold one at the top of every function run on a thread the library creates; never
/// on the caller's thread (its caches belong to the caller).
class worker_scope {
 public:
  worker_scope() = default;
  worker_scope(const worker_scope&) = delete;
  worker_scope& operator=(const worker_scope&) = delete;
  ~worker_scope() { mpfr_free_cache2(MPFR_FREE_LOCAL_CACHE); }
};

}  // namespace dpref::parallel
