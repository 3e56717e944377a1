// Digital down-converter: NCO + mixer, CIC decimator, FM discriminator.
#ifndef SIG_DDC_KERNELS_CUH
#define SIG_DDC_KERNELS_CUH
#include <cstdint>
#include <cuda_runtime.h>

struct NcoConfig {
  double phase0;   // radians
  double dphase;   // radians per sample
};

// One row per channel: z[c][n] = x[n] * exp(-j (phase0 + n dphase)).
__global__ void nco_mix_kernel(const float *__restrict__ x, float2 *__restrict__ z,
                               const NcoConfig *__restrict__ cfg, int n) {
  const int c = blockIdx.y;
  const NcoConfig nco = cfg[c];
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    double ph = fmod(nco.phase0 + (double)i * nco.dphase, 2.0 * 3.141592653589793);
    float s, co;
    sincosf((float)ph, &s, &co);
    const float v = x[i];
    z[(size_t)c * n + i] = make_float2(v * co, -v * s);
  }
}

// Quantize to Q1.15 integers.
__device__ __forceinline__ int32_t to_q15(float v) {
  return __float2int_rn(fminf(fmaxf(v, -1.0f), 1.0f) * 32767.0f);
}

// CIC decimator with STAGES integrators and combs (differential delay 1),
// decimation R, one thread per (channel, I/Q) sequence. Integrators wrap
// around modulo 2^32 on purpose: the combs undo the wrap.
template <int STAGES, int R>
__global__ void cic_decimate_kernel(const float2 *__restrict__ z, int2 *__restrict__ out,
                                    int n, int nchan) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const int c = t >> 1, comp = t & 1;
  if (c >= nchan) return;
  uint32_t integ[STAGES] = {};
  uint32_t comb_prev[STAGES] = {};
  const float2 *row = z + (size_t)c * n;
  int m = 0;
  for (int i = 0; i < n; ++i) {
    float2 v = row[i];
    uint32_t s = (uint32_t)to_q15(comp ? v.y : v.x);
#pragma unroll
    for (int k = 0; k < STAGES; ++k) { integ[k] += s; s = integ[k]; }
    if ((i + 1) % R == 0) {
      uint32_t y = s;
#pragma unroll
      for (int k = 0; k < STAGES; ++k) { uint32_t d = y - comb_prev[k]; comb_prev[k] = y; y = d; }
      int32_t r = (int32_t)y;
      int2 *o = &out[(size_t)c * (n / R) + m];
      if (comp) o->y = r; else o->x = r;
      ++m;
    }
  }
}

// FM discriminator: angle of z[m] * conj(z[m-1]).
__global__ void fm_demod_kernel(const int2 *__restrict__ zq, float *__restrict__ f, int n, int nchan) {
  const int c = blockIdx.y;
  for (int m = blockIdx.x * blockDim.x + threadIdx.x; m < n; m += blockDim.x * gridDim.x) {
    if (c >= nchan) return;
    const int2 a = zq[(size_t)c * n + m];
    const int2 b = m > 0 ? zq[(size_t)c * n + m - 1] : a;
    const float ar = (float)a.x, ai = (float)a.y, br = (float)b.x, bi = (float)b.y;
    const float re = ar * br + ai * bi;   // Re(a conj b)
    const float im = ai * br - ar * bi;   // Im(a conj b)
    f[(size_t)c * n + m] = atan2f(im, re);
  }
}
#endif  // SIG_DDC_KERNELS_CUH
