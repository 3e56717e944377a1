// math.cuh: cumulative normal distribution on the device, three ways.
#ifndef FIN_MATH_CUH
#define FIN_MATH_CUH
#include <cuda_runtime.h>

namespace fin {

// Abramowitz & Stegun 26.2.17 polynomial, as the classic SDK sample style.
template <typename Real>
__host__ __device__ __forceinline__ Real cnd_poly(Real d) {
  const Real A1 = Real(0.31938153), A2 = Real(-0.356563782), A3 = Real(1.781477937);
  const Real A4 = Real(-1.821255978), A5 = Real(1.330274429);
  const Real RSQRT2PI = Real(0.39894228040143267793994605993438);
  Real K = Real(1.0) / (Real(1.0) + Real(0.2316419) * fabs(d));
  Real cnd = RSQRT2PI * exp(Real(-0.5) * d * d) *
             (K * (A1 + K * (A2 + K * (A3 + K * (A4 + K * A5)))));
  if (d > 0) cnd = Real(1.0) - cnd;
  return cnd;
}

enum class CndMethod { Poly, NormCdf, Erfc };

template <typename Real, CndMethod M> struct Cnd;

template <> struct Cnd<float, CndMethod::Poly> {
  __device__ static float eval(float x) { return cnd_poly<float>(x); }
};
template <> struct Cnd<double, CndMethod::Poly> {
  __device__ static double eval(double x) { return cnd_poly<double>(x); }
};
template <> struct Cnd<float, CndMethod::NormCdf> {
  __device__ static float eval(float x) { return normcdff(x); }
};
template <> struct Cnd<double, CndMethod::NormCdf> {
  __device__ static double eval(double x) { return normcdf(x); }
};
template <> struct Cnd<float, CndMethod::Erfc> {
  __device__ static float eval(float x) { return 0.5f * erfcf(-x * 0.70710678118654752f); }
};
template <> struct Cnd<double, CndMethod::Erfc> {
  __device__ static double eval(double x) { return 0.5 * erfc(-x * M_SQRT1_2); }
};

} // namespace fin

#endif // FIN_MATH_CUH
