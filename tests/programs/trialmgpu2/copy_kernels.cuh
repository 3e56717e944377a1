#ifndef TRIALMGPU2_COPY_KERNELS_CUH
#define TRIALMGPU2_COPY_KERNELS_CUH
#include <cuda_runtime.h>

// Copies with a kernel, reading through a peer mapping when src is remote.
template <typename T>
__global__ void copy_kernel(T *__restrict__ dst, const T *__restrict__ src, size_t n) {
  size_t stride = (size_t)gridDim.x * blockDim.x;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    dst[i] = src[i];
}

template <typename T>
__global__ void fill_kernel(T *dst, T base, size_t n) {
  size_t stride = (size_t)gridDim.x * blockDim.x;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    dst[i] = base + (T)i;
}

__global__ void spin_flag(volatile int *flag, unsigned long long limit) {
  unsigned long long n = 0;
  while (*flag == 0 && n < limit) ++n;
}
#endif // TRIALMGPU2_COPY_KERNELS_CUH
