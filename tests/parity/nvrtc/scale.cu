// scale.cu: kernels for the tests of the NVRTC and GPU legs
// (tests/check_parity_gpu.c): a plain kernel, a template, an extern "C"
// kernel, one in a namespace, one using dynamic shared memory and one that
// never ends. It needs -DSCALE_BIAS=... and -I<this folder>/include, as a
// parity case's options would give them.
#include <cuda_runtime.h>

#include "scale_bias.cuh"

#ifndef SCALE_BIAS
#error "SCALE_BIAS must be defined (-DSCALE_BIAS=...)"
#endif

// out[i] = i + SCALE_BIAS for every i < n.
__global__ void fill(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = i + SCALE_BIAS;
}

// x[i] = N * x[i] + bias for every i < n.
template <typename T, int N> __global__ void scale(T *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = add_bias(static_cast<T>(N) * x[i]);
}

extern "C" __global__ void add_one(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] += 1.0f;
}

namespace kernels {
// Stores value at out[index]. An index far outside the allocation faults on
// a GPU, which the GPU test uses to check that the fault is reported and
// that the next run starts with a clean context.
__global__ void store_at(int *out, long long index, int value) {
  out[index] = value;
}
} // namespace kernels

// out[0] = 0 + 1 + ... + (blockDim.x - 1), summed through the dynamic shared
// memory buffer, which must hold 16 * blockDim.x ints (every 16th is used).
// The GPU test gives it 64 KiB with 1024 threads, more than the 48 KiB a
// kernel gets without opting in.
__global__ void block_total(long long *out) {
  extern __shared__ int values[];
  values[16 * threadIdx.x] = threadIdx.x;
  __syncthreads();
  if (threadIdx.x == 0) {
    long long total = 0;
    for (unsigned i = 0; i < blockDim.x; ++i)
      total += values[16 * i];
    *out = total;
  }
}

// Waits until *flag is set, which nothing does: the GPU test's kernel that
// outlives its time limit.
__global__ void spin(volatile int *flag) {
  while (*flag == 0) {
  }
}
