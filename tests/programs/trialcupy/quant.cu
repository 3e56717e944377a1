// quant.cu: kernels of a CuPy user's quantization module, loaded with
// cupy.RawModule(code=..., name_expressions=[...]) by test_trialcupy.py:
// a templated axpy whose tile is the macro BLOCK (set by -DBLOCK=... and
// named in a name expression), int8 quantization and its inverse, and a
// block sum over float16 with dynamic shared memory and warp shuffles.
// NVCC_OPTIONS: -I../../../fake_cupy/fake_cupy/include
#include <cuda_fp16.h>
#include <cupy/complex.cuh>

#ifndef BLOCK
#define BLOCK 128
#endif

template <typename T, int TILE>
__global__ void axpy(const T *__restrict__ x, T *__restrict__ y, T a, int n) {
  int i = blockIdx.x * TILE + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

template <typename T>
__global__ void quantize(const T *__restrict__ x, signed char *__restrict__ q,
                         float inv_scale, long long n) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int r = __float2int_rn(static_cast<float>(x[i]) * inv_scale);
  q[i] = static_cast<signed char>(max(-127, min(127, r)));
}

extern "C" __global__ void dequantize(const signed char *q, float *out,
                                      float scale, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = __int2float_rn(q[i]) * scale;
}

// Each block sums 2 * blockDim.x elements (blockDim.x a power of two, at
// least 64) into partial[blockIdx.x].
template <typename T>
__global__ void block_sum(const T *x, float *partial, int n) {
  extern __shared__ float sdata[];
  int tid = threadIdx.x;
  int i = blockIdx.x * blockDim.x * 2 + threadIdx.x;
  float s = 0.f;
  if (i < n)
    s += static_cast<float>(x[i]);
  if (i + blockDim.x < n)
    s += static_cast<float>(x[i + blockDim.x]);
  sdata[tid] = s;
  __syncthreads();
  for (unsigned int k = blockDim.x / 2; k > 32; k >>= 1) {
    if (tid < k)
      sdata[tid] += sdata[tid + k];
    __syncthreads();
  }
  if (tid < 32) {
    float v = sdata[tid] + sdata[tid + 32];
    for (int off = 16; off > 0; off >>= 1)
      v += __shfl_down_sync(0xffffffff, v, off);
    if (tid == 0)
      partial[blockIdx.x] = v;
  }
}

#ifndef __CUDACC_RTC__
// What the name expressions instantiate, for nvcc's compile of this file
// alone (NVRTC instantiates them from the expressions).
template __global__ void axpy<float, BLOCK>(const float *, float *, float, int);
template __global__ void axpy<__half, 128>(const __half *, __half *, __half, int);
template __global__ void axpy<complex<float>, 128>(const complex<float> *,
                                                   complex<float> *,
                                                   complex<float>, int);
template __global__ void quantize<float>(const float *, signed char *, float,
                                         long long);
template __global__ void block_sum<__half>(const __half *, float *, int);
#endif
