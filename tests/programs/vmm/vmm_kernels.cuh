// vmm_kernels.cuh: the kernels of the virtual-memory tests: element-wise
// work over buffers that cuMemMap made of several physical allocations.
#ifndef VMM_KERNELS_CUH
#define VMM_KERNELS_CUH

#include <cuda_runtime.h>

// out[i] = a[i] + b[i], over a grid-stride loop.
template <typename T>
__global__ void vector_add(const T *a, const T *b, T *out, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x)
    out[i] = a[i] + b[i];
}

// a[i] = base + i.
template <typename T>
__global__ void iota(T *a, size_t n, T base) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x)
    a[i] = base + (T)i;
}

// Counts the elements equal to base + i into *good, then negates each.
template <typename T>
__global__ void check_and_negate(T *a, size_t n, T base,
                                 unsigned long long *good) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x) {
    if (a[i] == base + (T)i)
      atomicAdd(good, 1ull);
    a[i] = -a[i];
  }
}

// Sums a read-only buffer into *sum.
__global__ void sum_all(const int *a, size_t n, unsigned long long *sum) {
  unsigned long long s = 0;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x)
    s += (unsigned long long)a[i];
  atomicAdd(sum, s);
}

#endif
