/*
 * cuemu_ids_api.h: the runtime API's identifiers and handles
 * (cudaStreamGetId, cudaGetKernel), the driver's entry points by name
 * (cudaGetDriverEntryPoint, cudaGetDriverEntryPointByVersion: the driver
 * functions of cuemu's libcuda.so.1, which libcuemu loads for them, so
 * that a program finds them without linking the driver library, as with
 * CUDA's runtime), and the occupancy calls with a per-block-size shared-memory
 * function (cudaOccupancyMaxPotentialBlockSizeVariableSMem(WithFlags),
 * cudaOccupancyMaxPotentialBlockSizeWithFlags,
 * cudaOccupancyAvailableDynamicSMemPerBlock). Each forwards to libcuemu
 * (cuemu/cuemu_host_ids.h). Included at the end of cuemu_streams_api.h,
 * whose helpers it uses.
 */
#ifndef CUEMU_IDS_API_H
#define CUEMU_IDS_API_H

#include "cuda_runtime_api.h"
#include "cuemu_streams_api.h"

#include <cuemu/cuemu_host_ids.h>

#include "cuemu_ids_types.h"
#include <cuemu/cuemu_runtime.h>

/* ---- Identifiers ------------------------------------------------------------- */

inline cudaError_t cudaStreamGetId(cudaStream_t hStream,
                                   unsigned long long *streamId) {
  return static_cast<cudaError_t>(cuemu_rt_stream_get_id(hStream, streamId));
}

/* A program's kernel as a cudaKernel_t: the kernel's own address, which
 * cudaLaunchKernel, cudaLaunchKernelEx, cudaFuncGetAttributes and kernel
 * nodes take as they take the kernel. */
inline cudaError_t cudaGetKernel(cudaKernel_t *kernelPtr,
                                 const void *entryFuncAddr) {
  if (!kernelPtr)
    return static_cast<cudaError_t>(cuemu_rt_error(cudaErrorInvalidValue));
  const char *name = nullptr;
  int e = cuemu_rt_func_get_name(&name, entryFuncAddr);
  if (e)
    return static_cast<cudaError_t>(e);
  *kernelPtr = reinterpret_cast<cudaKernel_t>(const_cast<void *>(entryFuncAddr));
  return cudaSuccess;
}

/* CUDA declares `const T *`, which GCC does not deduce for a function:
 * `T *` takes the same arguments. */
template <class T>
inline cudaError_t cudaGetKernel(cudaKernel_t *kernelPtr, T *entryFuncAddr) {
  return cudaGetKernel(kernelPtr, cuemu::rt::function_address(entryFuncAddr));
}

inline cudaError_t cudaGetFuncBySymbol(cudaFunction_t *functionPtr,
                                       const void *symbolPtr) {
  return static_cast<cudaError_t>(cuemu_rt_get_func_by_symbol(
      reinterpret_cast<void **>(functionPtr), symbolPtr));
}

/* ---- Driver entry points ---------------------------------------------------- */

/* A symbol cuda.h does not have gives cudaSuccess, a NULL function and
 * cudaDriverEntryPointSymbolNotFound, as CUDA documents. The functions are
 * those of libcuda.so.1, which registers them as it loads (the program's
 * own calls of cuda.h's functions need the driver library linked, and its
 * objects make no table of them). A template (D_ is never given), as code
 * that takes its address writes it: &cudaGetDriverEntryPoint<>. */
template <class D_ = void>
inline cudaError_t cudaGetDriverEntryPointByVersion(
    const char *symbol, void **funcPtr, unsigned int cudaVersion,
    unsigned long long flags,
    cudaDriverEntryPointQueryResult *driverStatus = nullptr) {
  int status = 0;
#ifdef CUDA_API_PER_THREAD_DEFAULT_STREAM
  /* As CUDA's runtime: cudaEnableDefault is the per-thread search in a
   * program built with --default-stream per-thread. */
  if (!(flags & (cudaEnableLegacyStream | cudaEnablePerThreadDefaultStream)))
    flags |= cudaEnablePerThreadDefaultStream;
#endif
  int e = cuemu_drv_get_proc_address(symbol, funcPtr,
                                     static_cast<int>(cudaVersion), flags,
                                     &status);
  if (e)
    return static_cast<cudaError_t>(cuemu_rt_error(cudaErrorInvalidValue));
  if (driverStatus)
    *driverStatus = static_cast<cudaDriverEntryPointQueryResult>(status);
  return cudaSuccess;
}

template <class D_ = void>
inline cudaError_t cudaGetDriverEntryPoint(
    const char *symbol, void **funcPtr, unsigned long long flags,
    cudaDriverEntryPointQueryResult *driverStatus = nullptr) {
  return cudaGetDriverEntryPointByVersion<D_>(symbol, funcPtr, CUDART_VERSION,
                                             flags, driverStatus);
}

/* ---- Occupancy with a shared-memory function ------------------------------- */

namespace cuemu {
namespace rt {
/* Calls the program's block-size-to-shared-memory function. */
template <class F_> size_t smem_of(int __cuemu_block_size, void *f) {
  return static_cast<size_t>((*static_cast<F_ *>(f))(__cuemu_block_size));
}
} // namespace rt
} // namespace cuemu

template <typename UnaryFunction, class T>
inline cudaError_t cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(
    int *minGridSize, int *blockSize, T func,
    UnaryFunction blockSizeToDynamicSMemSize, int blockSizeLimit = 0,
    unsigned int flags = 0) {
  return static_cast<cudaError_t>(cuemu_rt_occupancy_variable_smem(
      minGridSize, blockSize, cuemu::rt::function_address(func),
      cuemu::rt::smem_of<UnaryFunction>, &blockSizeToDynamicSMemSize,
      blockSizeLimit, flags, 0));
}

template <typename UnaryFunction, class T>
inline cudaError_t cudaOccupancyMaxPotentialBlockSizeVariableSMem(
    int *minGridSize, int *blockSize, T func,
    UnaryFunction blockSizeToDynamicSMemSize, int blockSizeLimit = 0) {
  return cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(
      minGridSize, blockSize, func, blockSizeToDynamicSMemSize,
      blockSizeLimit, cudaOccupancyDefault);
}

template <class T>
inline cudaError_t cudaOccupancyMaxPotentialBlockSizeWithFlags(
    int *minGridSize, int *blockSize, T func, size_t dynamicSMemSize = 0,
    int blockSizeLimit = 0, unsigned int flags = 0) {
  return cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(
      minGridSize, blockSize, func,
      [dynamicSMemSize](int) { return dynamicSMemSize; }, blockSizeLimit,
      flags);
}

inline cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(
    size_t *dynamicSmemSize, const void *func, int numBlocks, int blockSize) {
  return static_cast<cudaError_t>(cuemu_rt_occupancy_available_dynamic_smem(
      dynamicSmemSize, func, numBlocks, blockSize, 0));
}

template <class T>
inline cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(
    size_t *dynamicSmemSize, T *func, int numBlocks, int blockSize) {
  return static_cast<cudaError_t>(cuemu_rt_occupancy_available_dynamic_smem(
      dynamicSmemSize, cuemu::rt::function_address(func), numBlocks,
      blockSize, 0));
}

#endif /* CUEMU_IDS_API_H */
