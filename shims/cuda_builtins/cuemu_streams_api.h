/*
 * cuemu_streams_api.h: streams, events, cudaLaunchKernel and
 * cudaLaunchCooperativeKernel, function attributes, occupancy and symbols
 * of the CUDA runtime API. Each CUDA name forwards to libcuemu
 * (cuemu/cuemu_runtime_streams.h, which says what runs when: stream work
 * runs asynchronously, in stream order). Included at the end of
 * cuda_runtime_api.h.
 *
 * Types and flags that CUDA declares in driver_types.h are in
 * cuemu_stream_types.h (C and C++): the flag macros under #ifndef, the
 * callback typedefs, and cudaFuncAttributes / cudaFuncAttribute unless
 * CUEMU_HAVE_CUDA_FUNC_ATTRIBUTES is defined.
 */
#ifndef CUEMU_STREAMS_API_H
#define CUEMU_STREAMS_API_H
/* A system header: its C++17 forms that C++14 accepts (if constexpr, inline
 * variables, fold expressions) give no warning in a C++14 build of a .cpp
 * file (docs/dialects.md). */
#pragma GCC system_header

#include <cstddef>
#include <type_traits>

#include <cuemu/cuemu_device.h>
#include <cuemu/cuemu_runtime.h>
#include <cuemu/cuemu_runtime_graph.h>
#include <cuemu/cuemu_runtime_streams.h>

#include "cuda_runtime_api.h"
#include "driver_types.h"
#include "vector_types.h"

#include "cuemu_stream_types.h"

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

/* The address of a kernel given as a pointer to a function or as any
 * other pointer. The function-attribute and occupancy calls below pass it
 * with `known` 0, a typed pointer too: it must be a registered kernel, so
 * that a host function of a kernel's type is cudaErrorInvalidDeviceFunction,
 * as CUDA answers (the driver passes 1 for a module's kernels, which no
 * program table holds). */
template <typename T> inline const void *function_address(T *f) {
  if constexpr (std::is_function<T>::value)
    return reinterpret_cast<const void *>(f);
  else
    return static_cast<const void *>(f);
}

/* The number of parameters of a function type. */
template <typename F_> struct arity;
template <typename... P_> struct arity<void(P_...)> {
  static constexpr std::size_t value = sizeof...(P_);
};
/* A noexcept kernel (its type differs from C++17 on). */
#if defined(__cpp_noexcept_function_type)
template <typename... P_>
struct arity<void(P_...) noexcept> : arity<void(P_...)> {};
#endif

inline cuemu_uint3 uint3_of(dim3 d) { return cuemu_uint3{d.x, d.y, d.z}; }

/* Launches through libcuemu; records an execution error as sticky. */
inline cudaError_t launch(const void *func, const cuemu_kernel_desc *fallback,
                          dim3 __cuemu_grid, dim3 __cuemu_block, void **args,
                          std::size_t __cuemu_shmem, cudaStream_t stream,
                          int cooperative) {
  int status = CUEMU_SUCCESS;
  cudaError_t e = static_cast<cudaError_t>(cuemu_rt_launch_kernel(
      func, fallback, uint3_of(__cuemu_grid), uint3_of(__cuemu_block), args, __cuemu_shmem, stream,
      cooperative, &status));
  if (e == cudaSuccess)
    cuemu_rt_record_launch(status);
  return e;
}

/* A kernel of type T: found in the program's registry, or else run
 * through its pointer (a kernel template's instance, say), which the
 * pointer descriptor reads after the arguments. */
template <typename T>
inline cudaError_t launch_typed(T *func, dim3 __cuemu_grid, dim3 __cuemu_block,
                                void **args, std::size_t __cuemu_shmem,
                                cudaStream_t stream, int cooperative) {
  if constexpr (std::is_function<T>::value) {
    constexpr std::size_t n = arity<T>::value;
    if (n > 0 && !args)
      return static_cast<cudaError_t>(cuemu_rt_error(cudaErrorInvalidValue));
    void *all[n + 1];
    for (std::size_t __cuemu_i = 0; __cuemu_i < n; ++__cuemu_i)
      all[__cuemu_i] = args[__cuemu_i];
    all[n] = reinterpret_cast<void *>(func);
    return launch(reinterpret_cast<const void *>(func), pointer_desc<T *>(),
                  __cuemu_grid, __cuemu_block, all, __cuemu_shmem, stream, cooperative);
  } else {
    return launch(static_cast<const void *>(func), nullptr, __cuemu_grid, __cuemu_block, args,
                  __cuemu_shmem, stream, cooperative);
  }
}

inline void stream_callback(void *stream, int status, void *callback,
                            void *data) {
  reinterpret_cast<cudaStreamCallback_t>(callback)(
      static_cast<cudaStream_t>(stream), static_cast<cudaError_t>(status),
      data);
}

/* A symbol is the variable itself; a const void * is taken for the
 * address of one (of unknown size), as CUDA's C function takes it. A
 * void * is a variable like any other: CUDA's C++ template binds to it (an
 * identity conversion beats the C function's const void *) and passes the
 * pointer's own address, which is no symbol. */
template <typename T> constexpr bool is_address() {
  return std::is_same<T, const void *>::value;
}
template <typename T> inline void *symbol_address(const T &symbol) {
  if constexpr (is_address<T>())
    return const_cast<void *>(static_cast<const void *>(symbol));
  else
    return const_cast<void *>(
        static_cast<const volatile void *>(__builtin_addressof(symbol)));
}
template <typename T> constexpr std::size_t symbol_size() {
  if constexpr (is_address<T>())
    return CUEMU_RT_SYMBOL_SIZE_UNKNOWN;
  else
    return sizeof(T);
}

inline cudaError_t func_attributes(cudaFuncAttributes *attr, const void *func,
                                   int known) {
  if (!attr)
    return static_cast<cudaError_t>(cuemu_rt_error(cudaErrorInvalidValue));
  cuemu_rt_func_attributes a;
  cudaError_t e =
      static_cast<cudaError_t>(cuemu_rt_func_get_attributes(&a, func, known));
  if (e != cudaSuccess)
    return e;
  *attr = cudaFuncAttributes();
  attr->sharedSizeBytes = a.shared_size_bytes;
  attr->constSizeBytes = a.const_size_bytes;
  attr->localSizeBytes = a.local_size_bytes;
  attr->maxThreadsPerBlock = a.max_threads_per_block;
  attr->numRegs = a.num_regs;
  attr->ptxVersion = a.ptx_version;
  attr->binaryVersion = a.binary_version;
  attr->cacheModeCA = a.cache_mode_ca;
  attr->maxDynamicSharedSizeBytes = a.max_dynamic_shared_size_bytes;
  attr->preferredShmemCarveout = a.preferred_shmem_carveout;
  attr->clusterDimMustBeSet = a.cluster_dim_must_be_set;
  attr->requiredClusterWidth = a.required_cluster_width;
  attr->requiredClusterHeight = a.required_cluster_height;
  attr->requiredClusterDepth = a.required_cluster_depth;
  attr->clusterSchedulingPolicyPreference =
      a.cluster_scheduling_policy_preference;
  attr->nonPortableClusterSizeAllowed = a.non_portable_cluster_size_allowed;
  return cudaSuccess;
}

} // namespace rt
} // namespace cuemu

/* ---- Streams -------------------------------------------------------------- */

inline cudaError_t cudaStreamCreate(cudaStream_t *pStream) {
  return static_cast<cudaError_t>(
      cuemu_rt_stream_create(reinterpret_cast<void **>(pStream), 0, 0));
}

inline cudaError_t cudaStreamCreateWithFlags(cudaStream_t *pStream,
                                             unsigned int flags) {
  return static_cast<cudaError_t>(
      cuemu_rt_stream_create(reinterpret_cast<void **>(pStream), flags, 0));
}

inline cudaError_t cudaStreamCreateWithPriority(cudaStream_t *pStream,
                                                unsigned int flags,
                                                int priority) {
  return static_cast<cudaError_t>(cuemu_rt_stream_create(
      reinterpret_cast<void **>(pStream), flags, priority));
}

inline cudaError_t cudaDeviceGetStreamPriorityRange(int *leastPriority,
                                                    int *greatestPriority) {
  return static_cast<cudaError_t>(
      cuemu_rt_device_stream_priority_range(leastPriority, greatestPriority));
}

inline cudaError_t cudaStreamDestroy(cudaStream_t stream) {
  return static_cast<cudaError_t>(cuemu_rt_stream_destroy(stream));
}

inline cudaError_t cudaStreamSynchronize(cudaStream_t stream) {
  return static_cast<cudaError_t>(cuemu_rt_stream_synchronize(stream));
}

inline cudaError_t cudaStreamQuery(cudaStream_t stream) {
  return static_cast<cudaError_t>(cuemu_rt_stream_query(stream));
}

inline cudaError_t cudaStreamGetFlags(cudaStream_t hStream,
                                      unsigned int *flags) {
  return static_cast<cudaError_t>(cuemu_rt_stream_get_flags(hStream, flags));
}

inline cudaError_t cudaStreamGetPriority(cudaStream_t hStream, int *priority) {
  return static_cast<cudaError_t>(
      cuemu_rt_stream_get_priority(hStream, priority));
}

/* The device a stream belongs to (CUDA 12.8). */
inline cudaError_t cudaStreamGetDevice(cudaStream_t hStream, int *device) {
  return static_cast<cudaError_t>(cuemu_rt_stream_get_device(hStream, device));
}

inline cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event,
                                       unsigned int flags = 0) {
  return static_cast<cudaError_t>(
      cuemu_rt_stream_wait_event(stream, event, flags));
}

inline cudaError_t cudaStreamAddCallback(cudaStream_t stream,
                                         cudaStreamCallback_t callback,
                                         void *userData, unsigned int flags) {
  return static_cast<cudaError_t>(cuemu_rt_stream_add_callback(
      stream, &cuemu::rt::stream_callback,
      callback ? reinterpret_cast<void *>(callback) : nullptr, userData,
      flags));
}

inline cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn,
                                      void *userData) {
  return static_cast<cudaError_t>(
      cuemu_rt_launch_host_func(stream, fn, userData));
}

/* ---- Events --------------------------------------------------------------- */

inline cudaError_t cudaEventCreate(cudaEvent_t *event) {
  return static_cast<cudaError_t>(
      cuemu_rt_event_create(reinterpret_cast<void **>(event), 0));
}

inline cudaError_t cudaEventCreate(cudaEvent_t *event, unsigned int flags) {
  return static_cast<cudaError_t>(
      cuemu_rt_event_create(reinterpret_cast<void **>(event), flags));
}

inline cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event,
                                            unsigned int flags) {
  return cudaEventCreate(event, flags);
}

inline cudaError_t cudaEventRecord(cudaEvent_t event,
                                   cudaStream_t stream = 0) {
  return static_cast<cudaError_t>(cuemu_rt_event_record(event, stream));
}

inline cudaError_t cudaEventRecordWithFlags(cudaEvent_t event,
                                            cudaStream_t stream = 0,
                                            unsigned int flags = 0) {
  /* cudaEventRecordDefault or cudaEventRecordExternal (cuemu_runtime_graph.h). */
  return static_cast<cudaError_t>(
      cuemu_rt_event_record_with_flags(event, stream, flags));
}

inline cudaError_t cudaEventQuery(cudaEvent_t event) {
  return static_cast<cudaError_t>(cuemu_rt_event_query(event));
}

inline cudaError_t cudaEventSynchronize(cudaEvent_t event) {
  return static_cast<cudaError_t>(cuemu_rt_event_synchronize(event));
}

inline cudaError_t cudaEventDestroy(cudaEvent_t event) {
  return static_cast<cudaError_t>(cuemu_rt_event_destroy(event));
}

inline cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start,
                                        cudaEvent_t end) {
  return static_cast<cudaError_t>(
      cuemu_rt_event_elapsed_time(ms, start, end));
}

/* ---- Launches ------------------------------------------------------------- */

/* By address: the kernel must be a registered kernel of the program (a
 * __global__ function defined in it, not a template's instance; pass those
 * as typed pointers). */
inline cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim,
                                    dim3 blockDim, void **args,
                                    size_t sharedMem, cudaStream_t stream) {
  return cuemu::rt::launch(func, nullptr, gridDim, blockDim, args, sharedMem,
                           stream, 0);
}

template <class T>
inline cudaError_t cudaLaunchKernel(T *func, dim3 gridDim,
                                    dim3 blockDim, void **args,
                                    size_t sharedMem = 0,
                                    cudaStream_t stream = 0) {
  return cuemu::rt::launch_typed(func, gridDim, blockDim, args, sharedMem,
                                 stream, 0);
}

inline cudaError_t cudaLaunchCooperativeKernel(const void *func, dim3 gridDim,
                                               dim3 blockDim, void **args,
                                               size_t sharedMem,
                                               cudaStream_t stream) {
  return cuemu::rt::launch(func, nullptr, gridDim, blockDim, args, sharedMem,
                           stream, 1);
}

template <class T>
inline cudaError_t cudaLaunchCooperativeKernel(T *func, dim3 gridDim,
                                               dim3 blockDim, void **args,
                                               size_t sharedMem = 0,
                                               cudaStream_t stream = 0) {
  return cuemu::rt::launch_typed(func, gridDim, blockDim, args, sharedMem,
                                 stream, 1);
}

/* ---- Functions and occupancy ---------------------------------------------- */

inline cudaError_t cudaFuncGetAttributes(cudaFuncAttributes *attr,
                                         const void *func) {
  return cuemu::rt::func_attributes(attr, func, 0);
}

template <class T>
inline cudaError_t cudaFuncGetAttributes(cudaFuncAttributes *attr, T *entry) {
  return cuemu::rt::func_attributes(attr,
                                    cuemu::rt::function_address(entry),
                                    0);
}

inline cudaError_t cudaFuncSetAttribute(const void *func,
                                        cudaFuncAttribute attr, int value) {
  return static_cast<cudaError_t>(
      cuemu_rt_func_set_attribute(func, attr, value, 0));
}

template <class T>
inline cudaError_t cudaFuncSetAttribute(T *entry, cudaFuncAttribute attr,
                                        int value) {
  return static_cast<cudaError_t>(
      cuemu_rt_func_set_attribute(cuemu::rt::function_address(entry), attr,
                                  value, 0));
}

inline cudaError_t
cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks,
                                                       const void *func,
                                                       int blockSize,
                                                       size_t dynamicSMemSize,
                                                       unsigned int flags) {
  return static_cast<cudaError_t>(cuemu_rt_occupancy_max_active_blocks(
      numBlocks, func, blockSize, dynamicSMemSize, flags, 0));
}

template <class T>
inline cudaError_t
cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks, T func,
                                                       int blockSize,
                                                       size_t dynamicSMemSize,
                                                       unsigned int flags) {
  return static_cast<cudaError_t>(cuemu_rt_occupancy_max_active_blocks(
      numBlocks, cuemu::rt::function_address(func), blockSize,
      dynamicSMemSize, flags, 0));
}

inline cudaError_t
cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, const void *func,
                                              int blockSize,
                                              size_t dynamicSMemSize) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
      numBlocks, func, blockSize, dynamicSMemSize, cudaOccupancyDefault);
}

template <class T>
inline cudaError_t
cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, T func,
                                              int blockSize,
                                              size_t dynamicSMemSize) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
      numBlocks, func, blockSize, dynamicSMemSize, cudaOccupancyDefault);
}

template <class T>
inline cudaError_t cudaOccupancyMaxPotentialBlockSize(int *minGridSize,
                                                      int *blockSize, T func,
                                                      size_t dynamicSMemSize = 0,
                                                      int blockSizeLimit = 0) {
  return static_cast<cudaError_t>(cuemu_rt_occupancy_max_potential_block_size(
      minGridSize, blockSize, cuemu::rt::function_address(func),
      dynamicSMemSize, blockSizeLimit, 0));
}

/* ---- Symbols -------------------------------------------------------------- */

/* `symbol` is a __device__ or __constant__ variable: its size bounds
 * offset + count (cudaErrorInvalidValue past it). */
template <class T>
inline cudaError_t cudaMemcpyToSymbol(const T &symbol, const void *src,
                                      size_t count, size_t offset = 0,
                                      cudaMemcpyKind kind =
                                          cudaMemcpyHostToDevice) {
  return static_cast<cudaError_t>(cuemu_rt_memcpy_to_symbol(
      cuemu::rt::symbol_address(symbol), cuemu::rt::symbol_size<T>(), src,
      count, offset, kind, nullptr));
}

template <class T>
inline cudaError_t cudaMemcpyToSymbolAsync(const T &symbol, const void *src,
                                           size_t count, size_t offset = 0,
                                           cudaMemcpyKind kind =
                                               cudaMemcpyHostToDevice,
                                           cudaStream_t stream = 0) {
  return static_cast<cudaError_t>(cuemu_rt_memcpy_to_symbol_async(
      cuemu::rt::symbol_address(symbol), cuemu::rt::symbol_size<T>(), src,
      count, offset, kind, stream));
}

template <class T>
inline cudaError_t cudaMemcpyFromSymbol(void *dst, const T &symbol,
                                        size_t count, size_t offset = 0,
                                        cudaMemcpyKind kind =
                                            cudaMemcpyDeviceToHost) {
  return static_cast<cudaError_t>(cuemu_rt_memcpy_from_symbol(
      dst, cuemu::rt::symbol_address(symbol), cuemu::rt::symbol_size<T>(),
      count, offset, kind, nullptr));
}

template <class T>
inline cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const T &symbol,
                                             size_t count, size_t offset = 0,
                                             cudaMemcpyKind kind =
                                                 cudaMemcpyDeviceToHost,
                                             cudaStream_t stream = 0) {
  return static_cast<cudaError_t>(cuemu_rt_memcpy_from_symbol_async(
      dst, cuemu::rt::symbol_address(symbol), cuemu::rt::symbol_size<T>(),
      count, offset, kind, stream));
}

template <class T>
inline cudaError_t cudaGetSymbolAddress(void **devPtr, const T &symbol) {
  return static_cast<cudaError_t>(
      cuemu_rt_get_symbol_address(devPtr, cuemu::rt::symbol_address(symbol),
                                  cuemu::rt::symbol_size<T>()));
}

template <class T>
inline cudaError_t cudaGetSymbolSize(size_t *size, const T &symbol) {
  return static_cast<cudaError_t>(cuemu_rt_get_symbol_size(
      size, cuemu::rt::symbol_address(symbol), cuemu::rt::symbol_size<T>()));
}

/* A kernel's attribute for one device: every emulated device runs the
 * same kernels with the same settings, so the device is checked
 * (cudaErrorInvalidDevice) and the attribute set as cudaFuncSetAttribute
 * sets a cudaKernel_t's (cuemu_library_api.h). It is here, after
 * cudaFuncSetAttribute, because this header may be read before
 * cuda_runtime_api.h's others. */
typedef struct CUkern_st *cudaKernel_t;
inline cudaError_t cudaKernelSetAttributeForDevice(cudaKernel_t kernel,
                                                   enum cudaFuncAttribute attr,
                                                   int value, int device) {
  int count = 0;
  cuemu_rt_get_device_count(&count);
  if (device < 0 || device >= count)
    return static_cast<cudaError_t>(cuemu_rt_error(cudaErrorInvalidDevice));
  return cudaFuncSetAttribute(reinterpret_cast<const void *>(kernel), attr,
                              value);
}

/* Identifiers, entry points and occupancy with a shared-memory function,
 * which use the helpers above. */
#include "cuemu_ids_api.h"

#endif /* CUEMU_STREAMS_API_H */
