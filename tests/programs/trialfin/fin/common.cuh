// common.cuh: error checking and host reference pricing shared by the apps.
#ifndef FIN_COMMON_CUH
#define FIN_COMMON_CUH
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                      \
  do {                                                                        \
    cudaError_t err__ = (call);                                               \
    if (err__ != cudaSuccess) {                                               \
      std::fprintf(stderr, "CUDA error '%s' at %s:%d: %s\n",                  \
                   cudaGetErrorString(err__), __FILE__, __LINE__, #call);     \
      std::exit(EXIT_FAILURE);                                                \
    }                                                                         \
  } while (0)

#define CHECK_LAST_KERNEL() CUDA_CHECK(cudaGetLastError())

namespace fin {

enum class OptionType : int { Call = 0, Put = 1 };

struct OptionData {
  double spot;
  double strike;
  double rate;
  double vol;
  double expiry;
  OptionType type;
};

inline double host_norm_cdf(double x) { return 0.5 * std::erfc(-x * M_SQRT1_2); }

inline double host_black_scholes(double S, double K, double r, double v, double T,
                                  OptionType type) {
  const double sqrtT = std::sqrt(T);
  const double d1 = (std::log(S / K) + (r + 0.5 * v * v) * T) / (v * sqrtT);
  const double d2 = d1 - v * sqrtT;
  const double df = std::exp(-r * T);
  if (type == OptionType::Call)
    return S * host_norm_cdf(d1) - K * df * host_norm_cdf(d2);
  return K * df * host_norm_cdf(-d2) - S * host_norm_cdf(-d1);
}

// Cox-Ross-Rubinstein tree on the host, American or European.
inline double host_crr(const OptionData &o, int steps, bool american) {
  const double dt = o.expiry / steps;
  const double u = std::exp(o.vol * std::sqrt(dt));
  const double d = 1.0 / u;
  const double disc = std::exp(-o.rate * dt);
  const double p = (std::exp(o.rate * dt) - d) / (u - d);
  double *v = new double[steps + 1];
  for (int i = 0; i <= steps; ++i) {
    double s = o.spot * std::pow(u, 2.0 * i - steps);
    v[i] = o.type == OptionType::Call ? std::fmax(s - o.strike, 0.0)
                                      : std::fmax(o.strike - s, 0.0);
  }
  for (int j = steps - 1; j >= 0; --j) {
    for (int i = 0; i <= j; ++i) {
      double cont = disc * (p * v[i + 1] + (1.0 - p) * v[i]);
      if (american) {
        double s = o.spot * std::pow(u, 2.0 * i - j);
        double ex = o.type == OptionType::Call ? s - o.strike : o.strike - s;
        cont = std::fmax(cont, ex);
      }
      v[i] = cont;
    }
  }
  double r = v[0];
  delete[] v;
  return r;
}

inline int report(const char *name, bool ok) {
  std::printf("%s: %s\n", name, ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}

} // namespace fin

#endif // FIN_COMMON_CUH
