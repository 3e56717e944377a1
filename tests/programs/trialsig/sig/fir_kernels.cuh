// FIR filter bank kernels: taps in constant memory, shared-memory tiles
// holding each block's input and the filter's history.
#ifndef SIG_FIR_KERNELS_CUH
#define SIG_FIR_KERNELS_CUH
#include <cuda_fp16.h>

#ifndef FIR_MAX_TAPS
#define FIR_MAX_TAPS 128
#endif

__constant__ float c_taps[FIR_MAX_TAPS];
__constant__ __half2 c_taps_h2[FIR_MAX_TAPS];
__constant__ int c_ntaps;

// Direct-form FIR, one output per thread: y[n] = sum_k h[k] x[n-k], x[<0] = 0.
template <int BLOCK>
__global__ void fir_float_kernel(const float *__restrict__ x, float *__restrict__ y, int n) {
  extern __shared__ float tile[];  // BLOCK + ntaps - 1 samples
  const int ntaps = c_ntaps;
  const int base = blockIdx.x * BLOCK;
  const int hist = ntaps - 1;
  for (int i = threadIdx.x; i < BLOCK + hist; i += BLOCK) {
    int src = base - hist + i;
    tile[i] = (src >= 0 && src < n) ? x[src] : 0.0f;
  }
  __syncthreads();
  const int out = base + threadIdx.x;
  if (out >= n) return;
  float acc = 0.0f;
#pragma unroll 8
  for (int k = 0; k < ntaps; ++k)
    acc = fmaf(c_taps[k], tile[threadIdx.x + hist - k], acc);
  y[out] = acc;
}

// Half-precision FIR on two independent channels packed in a __half2.
template <int BLOCK>
__global__ void fir_half2_kernel(const __half2 *__restrict__ x, __half2 *__restrict__ y, int n) {
  extern __shared__ __half2 tile_h2[];
  const int ntaps = c_ntaps;
  const int base = blockIdx.x * BLOCK;
  const int hist = ntaps - 1;
  for (int i = threadIdx.x; i < BLOCK + hist; i += BLOCK) {
    int src = base - hist + i;
    tile_h2[i] = (src >= 0 && src < n) ? x[src] : __float2half2_rn(0.0f);
  }
  __syncthreads();
  const int out = base + threadIdx.x;
  if (out >= n) return;
  // Accumulate in fp16 pairs in short chunks, then sum the chunks in float.
  float2 acc = make_float2(0.f, 0.f);
  for (int k0 = 0; k0 < ntaps; k0 += 8) {
    __half2 part = __float2half2_rn(0.0f);
    for (int k = k0; k < k0 + 8 && k < ntaps; ++k)
      part = __hfma2(c_taps_h2[k], tile_h2[threadIdx.x + hist - k], part);
    acc.x += __low2float(part);
    acc.y += __high2float(part);
  }
  __half2 gain = __float2half2_rn(1.0f);
  y[out] = __hmul2(__floats2half2_rn(acc.x, acc.y), gain);
}

// Polyphase decimator: y[m] = sum_k h[k] x[m*M - k]. Each block computes
// BLOCK outputs; the input span it needs is staged in shared memory.
template <int M, int BLOCK>
__global__ void polyphase_decimate_kernel(const float *__restrict__ x, float *__restrict__ y,
                                          int n_in, int n_out) {
  extern __shared__ float span[];
  const int ntaps = c_ntaps;
  const int hist = ntaps - 1;
  const int first_in = blockIdx.x * BLOCK * M - hist;
  const int span_len = BLOCK * M + hist;
  for (int i = threadIdx.x; i < span_len; i += blockDim.x) {
    int src = first_in + i;
    span[i] = (src >= 0 && src < n_in) ? x[src] : 0.f;
  }
  __syncthreads();
  const int m = blockIdx.x * BLOCK + threadIdx.x;
  if (m >= n_out) return;
  // Sub-filter p takes taps p, p+M, p+2M ...
  float acc = 0.f;
  const int centre = threadIdx.x * M + hist;
#pragma unroll
  for (int p = 0; p < M; ++p) {
    for (int k = p; k < ntaps; k += M) acc += c_taps[k] * span[centre - k];
  }
  y[m] = acc;
}
#endif  // SIG_FIR_KERNELS_CUH
