// Overlap-save building blocks.
#ifndef SIG_OLS_KERNELS_CUH
#define SIG_OLS_KERNELS_CUH
#include <cuComplex.h>
#include <cufft.h>

// Segment s takes input samples [s*L - (P-1), s*L - (P-1) + N), zero outside.
__global__ void ols_gather(const float *__restrict__ x, int n, cufftComplex *__restrict__ seg,
                           int N, int L, int P, int nseg) {
  const int s = blockIdx.y;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += blockDim.x * gridDim.x) {
    long src = (long)s * L - (P - 1) + i;
    float v = (src >= 0 && src < n) ? x[src] : 0.f;
    if (s < nseg) seg[(size_t)s * N + i] = make_cuFloatComplex(v, 0.f);
  }
}

// Multiply every segment's spectrum by the filter's spectrum. The filter is
// stored time-reversed and conjugated (a correlation kernel), so its
// spectrum is conj'ed back here; the 1/N of the inverse FFT is folded in.
__global__ void ols_multiply(cufftComplex *__restrict__ seg, const cufftComplex *__restrict__ H,
                             int N, int nseg, float scale) {
  size_t total = (size_t)N * nseg;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < total;
       i += (size_t)blockDim.x * gridDim.x) {
    cuFloatComplex h = H[i % N];
    cuFloatComplex p = cuCmulf(seg[i], h);
    seg[i] = make_cuFloatComplex(cuCrealf(p) * scale, cuCimagf(p) * scale);
  }
}

__global__ void conj_inplace(cufftComplex *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = cuConjf(v[i]);
}

// Keep the last L samples of each segment.
__global__ void ols_scatter(const cufftComplex *__restrict__ seg, float *__restrict__ y, int n_out,
                            int N, int L, int P, int nseg) {
  const int s = blockIdx.y;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < L; i += blockDim.x * gridDim.x) {
    long dst = (long)s * L + i;
    if (s < nseg && dst < n_out) y[dst] = cuCrealf(seg[(size_t)s * N + (P - 1) + i]);
  }
}
#endif  // SIG_OLS_KERNELS_CUH
