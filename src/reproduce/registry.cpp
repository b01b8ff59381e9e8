// The jobs of `dpref reproduce`, in report order (src/reproduce/claims.hpp).
#include <cstdio>

#include "reproduce/claims.hpp"

namespace dpref::reproduce {

std::string fmt(double x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.4g", x);
  return buf;
}

std::vector<job> all_jobs() {
  std::vector<job> all;
  for (auto* f : {ev_jobs, pwa_jobs, accel_jobs, linesearch_jobs, dda_jobs, accounting_jobs,
                  audit_jobs, random_jobs, perf_jobs})
    for (auto& j : f()) all.push_back(std::move(j));
  return all;
}

}  // namespace dpref::reproduce
