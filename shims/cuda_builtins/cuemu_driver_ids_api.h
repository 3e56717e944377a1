/*
 * cuemu_driver_ids_api.h: the driver API's identifiers (cuStreamGetId,
 * cuCtxGetId), its entry points by name (cuGetProcAddress: every driver
 * function of these shims, at the ABI version cudaTypedefs.h names, listed
 * in cuemu_driver_entry_points.h and registered with libcuemu by
 * libcuda.so.1 as it loads, which cudaGetDriverEntryPoint reads too)
 * and the occupancy calls (cuOccupancy*). Each forwards to libcuemu
 * (cuemu/cuemu_host_ids.h). Included at the end of cuda.h, after every
 * other driver function; when a part of the driver API is read before
 * cuda.h (only a test of the headers does that), the table is not made.
 */
/* cuda.h first, outside the guard: included alone, this header is then
 * read at its place in cuda.h, after what it uses. */
#include "cuda.h"
#ifndef CUEMU_DRIVER_IDS_API_H
#define CUEMU_DRIVER_IDS_API_H

#include <cuemu/cuemu_host_ids.h>

/* ---- Identifiers ------------------------------------------------------------ */

inline CUresult cuStreamGetId(CUstream hStream, unsigned long long *streamId) {
  CUEMU_DRV_SYMBOL(cuStreamGetId);
  CUEMU_DRV_FORWARD(cuemu_rt_stream_get_id(hStream, streamId));
}

inline CUresult cuCtxGetId(CUcontext ctx, unsigned long long *ctxId) {
  CUEMU_DRV_SYMBOL(cuCtxGetId);
  return static_cast<CUresult>(cuemu_drv_ctx_get_id(ctx, ctxId));
}

/* ---- Occupancy -------------------------------------------------------------- */

#include "cuemu_driver_ids_types.h"

inline CUresult cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
    int *numBlocks, CUfunction func, int blockSize, size_t dynamicSMemSize,
    unsigned int flags) {
  CUEMU_DRV_SYMBOL(cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags);
  return static_cast<CUresult>(cuemu_drv_occupancy_max_active_blocks_flags(
      numBlocks, func, blockSize, dynamicSMemSize, flags));
}

inline CUresult cuOccupancyMaxPotentialBlockSizeWithFlags(
    int *minGridSize, int *blockSize, CUfunction func,
    CUoccupancyB2DSize blockSizeToDynamicSMemSize, size_t dynamicSMemSize,
    int blockSizeLimit, unsigned int flags) {
  CUEMU_DRV_SYMBOL(cuOccupancyMaxPotentialBlockSizeWithFlags);
  return static_cast<CUresult>(cuemu_drv_occupancy_max_potential_block_size(
      minGridSize, blockSize, func, blockSizeToDynamicSMemSize,
      dynamicSMemSize, blockSizeLimit, flags));
}

inline CUresult cuOccupancyMaxPotentialBlockSize(
    int *minGridSize, int *blockSize, CUfunction func,
    CUoccupancyB2DSize blockSizeToDynamicSMemSize, size_t dynamicSMemSize,
    int blockSizeLimit) {
  CUEMU_DRV_SYMBOL(cuOccupancyMaxPotentialBlockSize);
  return cuOccupancyMaxPotentialBlockSizeWithFlags(
      minGridSize, blockSize, func, blockSizeToDynamicSMemSize,
      dynamicSMemSize, blockSizeLimit, CU_OCCUPANCY_DEFAULT);
}

inline CUresult cuOccupancyAvailableDynamicSMemPerBlock(size_t *dynamicSmemSize,
                                                        CUfunction func,
                                                        int numBlocks,
                                                        int blockSize) {
  CUEMU_DRV_SYMBOL(cuOccupancyAvailableDynamicSMemPerBlock);
  return static_cast<CUresult>(cuemu_drv_occupancy_available_dynamic_smem(
      dynamicSmemSize, func, numBlocks, blockSize));
}

/* ---- Entry points ----------------------------------------------------------- */

/* A symbol these shims do not have gives CUDA_SUCCESS, a NULL function and
 * CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND, as CUDA documents; the per-thread
 * flag finds the same functions (cuemu's default stream is one). The
 * functions are libcuda.so.1's, which this call, a symbol of it, links:
 * libcuemu finds them in the table the library registers as it loads
 * (register_entry_points). A template (D_ is never given) for the reason
 * cudaGetDriverEntryPoint is. */
template <class D_ = void>
inline CUresult cuGetProcAddress(const char *symbol, void **pfn,
                                 int cudaVersion, cuuint64_t flags,
                                 CUdriverProcAddressQueryResult *symbolStatus) {
  CUEMU_DRV_SYMBOL(cuGetProcAddress_v2);
  int status = 0;
#ifdef CUDA_API_PER_THREAD_DEFAULT_STREAM
  /* As CUDA's cuda.h: the default search is the per-thread one in a
   * program built with --default-stream per-thread. */
  if (!(flags & (CU_GET_PROC_ADDRESS_LEGACY_STREAM |
                 CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM)))
    flags |= CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM;
#endif
  CUresult __cuemu_r = static_cast<CUresult>(
      cuemu_drv_get_proc_address(symbol, pfn, cudaVersion, flags, &status));
  if (__cuemu_r == CUDA_SUCCESS && symbolStatus)
    *symbolStatus = static_cast<CUdriverProcAddressQueryResult>(status);
  return __cuemu_r;
}

namespace cuemu {
namespace drv {
/* cuGetProcAddress of CUDA 11.3 to 11.8 (no symbolStatus; libcuda.so.1
 * exports it under that name, and cuGetProcAddress gives it for those
 * versions): a symbol that is not there, or not at cudaVersion, is
 * CUDA_ERROR_NOT_FOUND with a NULL function. */
template <class D_ = void>
inline CUresult get_proc_address_v1(const char *symbol, void **pfn,
                                    int cudaVersion, cuuint64_t flags) {
  CUdriverProcAddressQueryResult status = CU_GET_PROC_ADDRESS_SUCCESS;
  CUresult __cuemu_r = ::cuGetProcAddress<D_>(symbol, pfn, cudaVersion, flags, &status);
  if (__cuemu_r == CUDA_SUCCESS && status != CU_GET_PROC_ADDRESS_SUCCESS)
    return CUDA_ERROR_NOT_FOUND;
  return __cuemu_r;
}
} // namespace drv
} // namespace cuemu

#ifndef CUEMU_DRV_ENTRY_TABLE_NESTED
namespace cuemu {
namespace drv {
/* Registers the driver functions by name: called by libcuda.so.1 as it
 * loads (emulator/export/cuemu_libcuda.cc), the one object that makes the
 * table, since taking a function's address refers to its symbol of the
 * driver library (CUEMU_DRV_SYMBOL). */
inline int register_entry_points() {
  /* The table names the deprecated functions too (cuLaunchGrid, ...). */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  static const cuemu_drv_entry_point entry_points[] = {
#define CUEMU_DRV_ENTRY(name, version, function)                               \
  {#name, version, reinterpret_cast<void *>(&::function)},
#include "cuemu_driver_entry_points.h"
#undef CUEMU_DRV_ENTRY
      {"cuGetProcAddress", 11030,
       reinterpret_cast<void *>(&get_proc_address_v1<>)},
      {"cuGetProcAddress", 12000,
       reinterpret_cast<void *>(&::cuGetProcAddress<>)},
  };
#pragma GCC diagnostic pop
  return cuemu_drv_entry_points_register(
      entry_points, sizeof entry_points / sizeof entry_points[0]);
}
} // namespace drv
} // namespace cuemu
#endif

#endif /* CUEMU_DRIVER_IDS_API_H */
