// black_scholes.cuh: closed-form European pricing kernels.
#ifndef FIN_BLACK_SCHOLES_CUH
#define FIN_BLACK_SCHOLES_CUH
#include "math.cuh"
#include "common.cuh"

namespace fin {

constexpr int kBsThreads = 256;

template <typename Real, CndMethod M>
__device__ __forceinline__ void bs_body(Real &call, Real &put, Real S, Real X, Real T, Real R,
                                        Real V) {
  Real sqrtT = sqrt(T);
  Real d1 = (log(S / X) + (R + Real(0.5) * V * V) * T) / (V * sqrtT);
  Real d2 = d1 - V * sqrtT;
  Real cndD1 = Cnd<Real, M>::eval(d1);
  Real cndD2 = Cnd<Real, M>::eval(d2);
  Real expRT = exp(-R * T);
  call = S * cndD1 - X * expRT * cndD2;
  put = X * expRT * (Real(1.0) - cndD2) - S * (Real(1.0) - cndD1);
}

// One option per thread, grid-stride loop so any grid covers any size.
template <typename Real, CndMethod M>
__global__ void __launch_bounds__(kBsThreads, 2)
    black_scholes_kernel(Real *__restrict__ d_call, Real *__restrict__ d_put,
                         const Real *__restrict__ d_spot, const Real *__restrict__ d_strike,
                         const Real *__restrict__ d_expiry, Real riskfree, Real vol, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    Real c, p;
    bs_body<Real, M>(c, p, __ldg(&d_spot[i]), __ldg(&d_strike[i]), __ldg(&d_expiry[i]),
                     riskfree, vol);
    d_call[i] = c;
    d_put[i] = p;
  }
}

// The library entry point (src/black_scholes.cu in the trial project).
template <typename Real>
void launch_black_scholes(CndMethod method, Real *d_call, Real *d_put, const Real *d_spot,
                          const Real *d_strike, const Real *d_expiry, Real riskfree, Real vol,
                          int n, cudaStream_t stream = 0) {
  int device = 0, sms = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  int blocks = (n + kBsThreads - 1) / kBsThreads;
  if (blocks > 4 * sms) blocks = 4 * sms; // grid-stride covers the rest
  switch (method) {
  case CndMethod::Poly:
    black_scholes_kernel<Real, CndMethod::Poly><<<blocks, kBsThreads, 0, stream>>>(
        d_call, d_put, d_spot, d_strike, d_expiry, riskfree, vol, n);
    break;
  case CndMethod::NormCdf:
    black_scholes_kernel<Real, CndMethod::NormCdf><<<blocks, kBsThreads, 0, stream>>>(
        d_call, d_put, d_spot, d_strike, d_expiry, riskfree, vol, n);
    break;
  case CndMethod::Erfc:
    black_scholes_kernel<Real, CndMethod::Erfc>
        <<<blocks, kBsThreads, 0, stream>>>(d_call, d_put, d_spot, d_strike, d_expiry, riskfree,
                                           vol, n);
    break;
  }
  CHECK_LAST_KERNEL();
}

} // namespace fin

#endif // FIN_BLACK_SCHOLES_CUH
