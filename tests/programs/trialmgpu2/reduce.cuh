#ifndef TRIALMGPU2_REDUCE_CUH
#define TRIALMGPU2_REDUCE_CUH
#include <cuda_runtime.h>

template <typename T, int BLOCK>
__global__ void block_sum(const T *in, T *out, int n) {
  __shared__ T part[BLOCK];
  T acc = 0;
  for (int i = blockIdx.x * BLOCK + threadIdx.x; i < n; i += gridDim.x * BLOCK) acc += in[i];
  part[threadIdx.x] = acc;
  __syncthreads();
  for (int s = BLOCK / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) part[threadIdx.x] += part[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(out, part[0]);
}

template <typename T>
__global__ void iota_scaled(T *out, T scale, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = scale * (T)i;
}
#endif // TRIALMGPU2_REDUCE_CUH
