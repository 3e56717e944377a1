/*
 * cuemu_cccl_standins.h: the few runtime calls that Thrust's and CUB's
 * device-wide algorithms need and other parts of the shims provide in
 * full (issue 16's host API). Each part
 * stands in only until its owner's header is in the shims: where that
 * header exists, it is included instead and nothing of the part is
 * defined here.
 *
 * - cudaLaunchKernelEx (cuemu_launch_ex_api.h): Thrust's and CUB's launcher
 *   (triple_chevron) launches with the attribute
 *   cudaLaunchAttributeProgrammaticStreamSerialization, which lets a kernel
 *   overlap the one before it in its stream; the emulator runs the
 *   launches of a stream in order, which that attribute allows. Any other
 *   attribute is refused with cudaErrorNotSupported. In kernels,
 *   cudaGridDependencySynchronize() has nothing to wait for (the previous
 *   kernel has finished) and cudaTriggerProgrammaticLaunchCompletion() has
 *   nothing to start early.
 * - cudaMallocAsync and cudaFreeAsync (cuemu_mempool_api.h), as Thrust's
 *   temporary buffers use them: the allocation is made at once, and a
 *   free waits for the stream's work first, which stream order allows.
 * - CUDARTAPI, the calling convention CUDA's headers name (empty here).
 */
#ifndef CUEMU_CCCL_STANDINS_H
#define CUEMU_CCCL_STANDINS_H

#include <cstddef>
#include <utility>

#include "cuemu_kernel_thunks.h"

#ifndef CUDARTAPI
#define CUDARTAPI
#endif

#if __has_include("cuemu_launch_ex_api.h")
#include "cuemu_launch_ex_api.h"
#else
enum cudaLaunchAttributeID {
  cudaLaunchAttributeIgnore = 0,
  cudaLaunchAttributeProgrammaticStreamSerialization = 6
};

union cudaLaunchAttributeValue {
  char pad[64];
  int programmaticStreamSerializationAllowed;
};

struct cudaLaunchAttribute_st {
  cudaLaunchAttributeID id;
  char pad[8 - sizeof(cudaLaunchAttributeID)];
  cudaLaunchAttributeValue val;
};
typedef cudaLaunchAttribute_st cudaLaunchAttribute;

typedef struct cudaLaunchConfig_st {
  dim3 gridDim;
  dim3 blockDim;
  size_t dynamicSmemBytes;
  cudaStream_t stream;
  cudaLaunchAttribute *attrs;
  unsigned int numAttrs;
} cudaLaunchConfig_t;

template <typename... ExpTypes, typename... ActTypes>
inline cudaError_t cudaLaunchKernelEx(const cudaLaunchConfig_t *config,
                                      void (*kernel)(ExpTypes...),
                                      ActTypes &&...args) {
  if (!config)
    return static_cast<cudaError_t>(cuemu_rt_error(cudaErrorInvalidValue));
  for (unsigned i = 0; i < config->numAttrs; ++i)
    if (config->attrs[i].id != cudaLaunchAttributeIgnore &&
        config->attrs[i].id !=
            cudaLaunchAttributeProgrammaticStreamSerialization)
      return static_cast<cudaError_t>(cuemu_rt_error(cudaErrorNotSupported));
  ::cuemu::launch_dynamic(kernel, config->gridDim, config->blockDim,
                          config->dynamicSmemBytes,
                          config->stream)(std::forward<ActTypes>(args)...);
  return cudaPeekAtLastError();
}

__device__ inline void cudaGridDependencySynchronize(void) {}
__device__ inline void cudaTriggerProgrammaticLaunchCompletion(void) {}

#endif /* no cuemu_launch_ex_api.h */

#if __has_include("cuemu_mempool_api.h")
#include "cuemu_mempool_api.h"
#else
inline cudaError_t cudaMallocAsync(void **ptr, size_t size,
                                   cudaStream_t stream) {
  (void)stream;
  return cudaMalloc(ptr, size);
}
template <class T>
inline cudaError_t cudaMallocAsync(T **ptr, size_t size,
                                   cudaStream_t stream) {
  return cudaMallocAsync(reinterpret_cast<void **>(ptr), size, stream);
}
inline cudaError_t cudaFreeAsync(void *ptr, cudaStream_t stream) {
  cudaError_t e = cudaStreamSynchronize(stream);
  return e == cudaSuccess ? cudaFree(ptr) : e;
}
#endif /* no cuemu_mempool_api.h */

#endif /* CUEMU_CCCL_STANDINS_H */
