/*
 * cuemu_launch_ex_api.h: cudaLaunchKernelEx (its C form cudaLaunchKernelExC
 * and CUDA's C++ templates) with cudaLaunchConfig_t and every launch
 * attribute of CUDA 13, the device-side calls of programmatic dependent
 * launches, and the configuration calls around launches: the cache and
 * shared-memory-bank preferences of the device and of kernels, stream
 * attributes and the persisting L2 cache. Each call forwards to libcuemu
 * (cuemu/cuemu_runtime_host.h says what each attribute does). Included by
 * cuemu_host_api.h.
 */
#ifndef CUEMU_LAUNCH_EX_API_H
#define CUEMU_LAUNCH_EX_API_H

#include <cstddef>
#include <type_traits>
#include <utility>

#include <cuemu/cuemu_runtime.h>
#include <cuemu/cuemu_runtime_host.h>
#include <cuemu/cuemu_status.h>

#include "cuemu_qualifiers.h"
#include "driver_types.h"
#include "vector_types.h"

#include "cuemu_launch_types.h"

/* Defined in cuemu_kernel_thunks.h: the descriptor of a kernel of type F
 * called through a pointer. Hidden, as there (CUEMU_PER_MODULE): the first
 * declaration gives the visibility, and a default one made its descriptor a
 * GNU unique symbol, which keeps a shared library from being unloaded. */
namespace cuemu {
template <typename F_>
__attribute__((visibility("hidden"))) const cuemu_kernel_desc *pointer_desc();
} // namespace cuemu

namespace cuemu {
namespace rt {

/* The address of a kernel given as a function, or as any other pointer
 * (then `known` is 0: it must be a registered kernel). */
template <typename T> inline const void *kernel_address(T *f, int *known) {
  *known = std::is_function<T>::value ? 1 : 0;
  return const_cast<const void *>(
      reinterpret_cast<const volatile void *>(f));
}

inline cuemu_uint3 dim_of(dim3 d) { return cuemu_uint3{d.x, d.y, d.z}; }

/* Launches through libcuemu's cudaLaunchKernelEx; records an execution
 * error as sticky (as launch() does). */
inline cudaError_t launch_ex(const cudaLaunchConfig_t *config,
                             const void *func,
                             const cuemu_kernel_desc *fallback, void **args) {
  if (!config)
    return static_cast<cudaError_t>(cuemu_rt_error(cudaErrorInvalidValue));
  int status = CUEMU_SUCCESS;
  cudaError_t e = static_cast<cudaError_t>(cuemu_rt_launch_kernel_ex(
      func, fallback, dim_of(config->gridDim), dim_of(config->blockDim),
      config->dynamicSmemBytes, config->stream, config->attrs,
      config->numAttrs, args, &status));
  if (e == cudaSuccess)
    cuemu_rt_record_launch_status(status);
  return e;
}

} // namespace rt
} // namespace cuemu

/* By address: a registered kernel of the program. */
inline cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *config,
                                       const void *func, void **args) {
  return cuemu::rt::launch_ex(config, func, nullptr, args);
}

/* A kernel given as a function: its arguments converted to the kernel's
 * parameter types, as CUDA's template does; a kernel template's instance
 * runs through its pointer descriptor. */
template <typename... ExpTypes, typename... ActTypes>
inline cudaError_t cudaLaunchKernelEx(const cudaLaunchConfig_t *config,
                                      void (*kernel)(ExpTypes...),
                                      ActTypes &&...args) {
  return [&](ExpTypes... coerced) {
    void *all[sizeof...(ExpTypes) + 1] = {
        const_cast<void *>(static_cast<const volatile void *>(&coerced))...,
        reinterpret_cast<void *>(kernel)};
    return cuemu::rt::launch_ex(config, reinterpret_cast<const void *>(kernel),
                                cuemu::pointer_desc<void (*)(ExpTypes...)>(),
                                all);
  }(std::forward<ActTypes>(args)...);
}

template <typename... ActTypes>
inline cudaError_t cudaLaunchKernelEx(const cudaLaunchConfig_t *config,
                                      const cudaKernel_t kernel,
                                      ActTypes &&...args) {
  void *all[sizeof...(ActTypes) + 1] = {
      const_cast<void *>(static_cast<const volatile void *>(&args))...,
      nullptr};
  return cudaLaunchKernelExC(config, reinterpret_cast<const void *>(kernel),
                             all);
}

/* ---- Cluster occupancy ---------------------------------------------------- */

namespace cuemu {
namespace rt {
inline cudaError_t clusters(int *__cuemu_out, const void *func, int known,
                            const cudaLaunchConfig_t *config, int active) {
  if (!config)
    return static_cast<cudaError_t>(cuemu_rt_error(cudaErrorInvalidValue));
  return static_cast<cudaError_t>(cuemu_rt_occupancy_clusters(
      __cuemu_out, func, known, dim_of(config->blockDim), config->dynamicSmemBytes,
      config->attrs, config->numAttrs, active));
}
} // namespace rt
} // namespace cuemu

inline cudaError_t
cudaOccupancyMaxPotentialClusterSize(int *clusterSize, const void *func,
                                     const cudaLaunchConfig_t *launchConfig) {
  return cuemu::rt::clusters(clusterSize, func, 0, launchConfig, 0);
}

template <class T>
inline cudaError_t
cudaOccupancyMaxPotentialClusterSize(int *clusterSize, T *func,
                                     const cudaLaunchConfig_t *config) {
  int known = 0;
  const void *address = cuemu::rt::kernel_address(func, &known);
  return cuemu::rt::clusters(clusterSize, address, known, config, 0);
}

inline cudaError_t
cudaOccupancyMaxActiveClusters(int *numClusters, const void *func,
                               const cudaLaunchConfig_t *launchConfig) {
  return cuemu::rt::clusters(numClusters, func, 0, launchConfig, 1);
}

template <class T>
inline cudaError_t cudaOccupancyMaxActiveClusters(
    int *numClusters, T *func, const cudaLaunchConfig_t *config) {
  int known = 0;
  const void *address = cuemu::rt::kernel_address(func, &known);
  return cuemu::rt::clusters(numClusters, address, known, config, 1);
}

/* ---- Programmatic dependent launch (device code) -------------------------- */

/* The previous kernel of the stream has finished before this one starts,
 * so there is nothing to wait for and nobody to signal. */
__device__ inline void cudaGridDependencySynchronize(void) {}
__device__ inline void cudaTriggerProgrammaticLaunchCompletion(void) {}

/* ---- Cache and shared-memory configuration -------------------------------- */

inline cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache cacheConfig) {
  return static_cast<cudaError_t>(
      cuemu_rt_device_set_cache_config(cacheConfig));
}

inline cudaError_t cudaDeviceGetCacheConfig(enum cudaFuncCache *pCacheConfig) {
  int config = 0;
  if (!pCacheConfig)
    return static_cast<cudaError_t>(cuemu_rt_error(cudaErrorInvalidValue));
  cudaError_t e =
      static_cast<cudaError_t>(cuemu_rt_device_get_cache_config(&config));
  *pCacheConfig = static_cast<enum cudaFuncCache>(config);
  return e;
}

/* cuemu-status: no effect (banks are 4 bytes wide from sm_50 on) */
[[deprecated("deprecated in CUDA 13: shared memory banks are 4 bytes wide")]]
inline cudaError_t cudaDeviceSetSharedMemConfig(
    enum cudaSharedMemConfig config) {
  return static_cast<cudaError_t>(
      cuemu_rt_device_set_shared_mem_config(config));
}

[[deprecated("deprecated in CUDA 13: shared memory banks are 4 bytes wide")]]
inline cudaError_t cudaDeviceGetSharedMemConfig(
    enum cudaSharedMemConfig *pConfig) {
  int config = 0;
  if (!pConfig)
    return static_cast<cudaError_t>(cuemu_rt_error(cudaErrorInvalidValue));
  cudaError_t e =
      static_cast<cudaError_t>(cuemu_rt_device_get_shared_mem_config(&config));
  *pConfig = static_cast<enum cudaSharedMemConfig>(config);
  return e;
}

inline cudaError_t cudaFuncSetCacheConfig(const void *func,
                                          enum cudaFuncCache cacheConfig) {
  return static_cast<cudaError_t>(
      cuemu_rt_func_set_cache_config(func, cacheConfig, 0));
}

template <class T>
inline cudaError_t cudaFuncSetCacheConfig(T *func,
                                          enum cudaFuncCache cacheConfig) {
  int known = 0;
  const void *address = cuemu::rt::kernel_address(func, &known);
  return static_cast<cudaError_t>(
      cuemu_rt_func_set_cache_config(address, cacheConfig, known));
}

/* cuemu-status: no effect (recorded; banks are 4 bytes wide) */
[[deprecated("deprecated in CUDA 13: shared memory banks are 4 bytes wide")]]
inline cudaError_t cudaFuncSetSharedMemConfig(const void *func,
                                              enum cudaSharedMemConfig config) {
  return static_cast<cudaError_t>(
      cuemu_rt_func_set_shared_mem_config(func, config, 0));
}

/* cuemu-status: no effect */
template <class T>
[[deprecated("deprecated in CUDA 13: shared memory banks are 4 bytes wide")]]
inline cudaError_t cudaFuncSetSharedMemConfig(T *func,
                                              enum cudaSharedMemConfig config) {
  int known = 0;
  const void *address = cuemu::rt::kernel_address(func, &known);
  return static_cast<cudaError_t>(
      cuemu_rt_func_set_shared_mem_config(address, config, known));
}

/* cuemu-status: no effect (nothing persists in an emulated L2) */
inline cudaError_t cudaCtxResetPersistingL2Cache(void) {
  return static_cast<cudaError_t>(cuemu_rt_ctx_reset_persisting_l2_cache());
}

/* ---- Stream attributes ---------------------------------------------------- */

inline cudaError_t cudaStreamSetAttribute(cudaStream_t hStream,
                                          cudaLaunchAttributeID attr,
                                          const cudaLaunchAttributeValue *value) {
  return static_cast<cudaError_t>(
      cuemu_rt_stream_set_attribute(hStream, attr, value));
}

inline cudaError_t cudaStreamGetAttribute(cudaStream_t hStream,
                                          cudaLaunchAttributeID attr,
                                          cudaLaunchAttributeValue *value_out) {
  return static_cast<cudaError_t>(
      cuemu_rt_stream_get_attribute(hStream, attr, value_out));
}

inline cudaError_t cudaStreamCopyAttributes(cudaStream_t dst,
                                            cudaStream_t src) {
  return static_cast<cudaError_t>(cuemu_rt_stream_copy_attributes(dst, src));
}

#endif /* CUEMU_LAUNCH_EX_API_H */
