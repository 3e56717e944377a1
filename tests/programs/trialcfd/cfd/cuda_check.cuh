// Error checking and small helpers shared by every solver.
#ifndef CFD_CUDA_CHECK_CUH
#define CFD_CUDA_CHECK_CUH

#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                       \
  do {                                                                         \
    cudaError_t err__ = (call);                                                \
    if (err__ != cudaSuccess) {                                                \
      std::fprintf(stderr, "CUDA error '%s' (%s) at %s:%d\n",                  \
                   cudaGetErrorString(err__), cudaGetErrorName(err__),         \
                   __FILE__, __LINE__);                                        \
      std::exit(EXIT_FAILURE);                                                 \
    }                                                                          \
  } while (0)

#define CUDA_CHECK_KERNEL()                                                    \
  do {                                                                         \
    CUDA_CHECK(cudaGetLastError());                                            \
    CUDA_CHECK(cudaDeviceSynchronize());                                       \
  } while (0)

namespace cfd {

inline int div_up(int a, int b) { return (a + b - 1) / b; }

__host__ __device__ __forceinline__ int idx2(int i, int j, int nx) {
  return j * nx + i;
}

// Pointer to row j of a pitched 2D allocation.
template <typename T>
__host__ __device__ __forceinline__ T *pitched_row(T *base, size_t pitch,
                                                   int j) {
  return reinterpret_cast<T *>(reinterpret_cast<char *>(base) + j * pitch);
}
template <typename T>
__host__ __device__ __forceinline__ const T *pitched_row(const T *base,
                                                         size_t pitch, int j) {
  return reinterpret_cast<const T *>(reinterpret_cast<const char *>(base) +
                                     j * pitch);
}

inline void print_device_banner() {
  int dev = 0;
  cudaDeviceProp prop;
  CUDA_CHECK(cudaGetDevice(&dev));
  CUDA_CHECK(cudaGetDeviceProperties(&prop, dev));
  std::printf("Device %d: %s (sm_%d%d, %d SMs)\n", dev, prop.name, prop.major,
              prop.minor, prop.multiProcessorCount);
}

} // namespace cfd

#endif // CFD_CUDA_CHECK_CUH
