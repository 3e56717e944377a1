// host_util.hpp: the host side's checks against float64 references
// (absolute and relative tolerances) and seeded random inputs.
#pragma once
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

namespace mlk_host {

struct Checker {
  int failures = 0;
  void expect_close(const std::string &what, const std::vector<double> &ref,
                    const std::vector<double> &got, double atol, double rtol) {
    double worst = 0.0;
    size_t worst_i = 0, bad = 0;
    for (size_t i = 0; i < ref.size(); ++i) {
      const double err = std::fabs(ref[i] - got[i]);
      const double tol = atol + rtol * std::fabs(ref[i]);
      if (!(err <= tol)) ++bad;
      if (!(err <= worst)) { worst = err; worst_i = i; }
    }
    std::printf("%-40s max_abs_err=%.3e %s\n", what.c_str(), worst, bad ? "FAIL" : "ok");
    if (bad) {
      std::printf("  %zu of %zu outside tolerance; worst at %zu: ref=%.6f got=%.6f\n", bad,
                  ref.size(), worst_i, ref[worst_i], got[worst_i]);
      ++failures;
    }
  }
  void expect(const std::string &what, bool ok) {
    std::printf("%-40s %s\n", what.c_str(), ok ? "ok" : "FAIL");
    if (!ok) ++failures;
  }
  int finish() const {
    std::printf(failures ? "%d checks failed\n" : "all checks ok\n", failures);
    return failures ? 1 : 0;
  }
};

template <typename T, typename Conv>
std::vector<T> random_vector(size_t n, std::mt19937 &rng, float lo, float hi, Conv conv) {
  std::uniform_real_distribution<float> dist(lo, hi);
  std::vector<T> v(n);
  for (auto &x : v) x = conv(dist(rng));
  return v;
}

}  // namespace mlk_host
