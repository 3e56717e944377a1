/*
 * cuemu_host_ids.h: identifiers of the runtime's and the driver's objects
 * (cudaStreamGetId, cuStreamGetId, cuCtxGetId, cudaGetFuncBySymbol), the
 * driver's entry points
 * by name (cuGetProcAddress, cudaGetDriverEntryPoint(ByVersion)), and the
 * occupancy calls that take a per-block-size shared-memory function. The
 * shims cuemu_ids_api.h, cuemu_driver_ids_api.h and cuemu_occupancy_api.h
 * forward to these; docs/driver-api.md says what each gives. Host code,
 * any thread.
 */
#ifndef CUEMU_HOST_IDS_H
#define CUEMU_HOST_IDS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* cudaStreamGetId (runtime codes) and the driver's cuStreamGetId (the
 * shim translates): an identifier unique in the process for the life of
 * the program, never reused by a later stream; the legacy default stream
 * has 1, the per-thread default stream of each host thread its own. */
int cuemu_rt_stream_get_id(void *stream, unsigned long long *id);

/* cudaGetFuncBySymbol: the driver's CUfunction (a cudaFunction_t) of the
 * program's kernel at `symbol` (or of a library's kernel), the one
 * cuKernelGetFunction gives, which cuLaunchKernel and the cuFunc* calls
 * take; cudaErrorInvalidDeviceFunction for anything else. Runtime codes. */
int cuemu_rt_get_func_by_symbol(void **function, const void *symbol);

/* cuCtxGetId: the context (NULL: the calling thread's current one)'s
 * identifier, unique in the process, never reused. Driver codes. */
int cuemu_drv_ctx_get_id(void *ctx, unsigned long long *id);

/* One driver entry point: its name as cuGetProcAddress takes it, the CUDA
 * version of the ABI the function has (cudaTypedefs.h's PFN_name_vNNNN),
 * and its address. A name may have several entries, one per ABI version. */
typedef struct cuemu_drv_entry_point {
  const char *name;
  int version;
  void *address;
} cuemu_drv_entry_point;

/* Registers the driver's entry points of one object (cuda.h's
 * cuGetProcAddress and cudaGetDriverEntryPoint do it on their first call in
 * an object that includes cuda.h); returns 1. */
int cuemu_drv_entry_points_register(const cuemu_drv_entry_point *table,
                                    size_t count);

/* A per-thread-stream spelling of a driver function (cuLaunchKernel_ptsz,
 * cuMemcpyHtoD_v2_ptds: stream 0 is the calling thread's per-thread
 * default stream), for cudaVersion `from` up to `until` (0: no end). */
typedef struct cuemu_drv_per_thread_entry {
  const char *name;
  int from, until;
  void *address;
} cuemu_drv_per_thread_entry;

/* Registers the per-thread spellings (cuemu's libcuda.so.1 does, as it
 * loads); returns 1. */
int cuemu_drv_per_thread_entries_register(
    const cuemu_drv_per_thread_entry *table, size_t count);

/* cuGetProcAddress: *address is the function of the newest ABI version
 * not newer than `version` (NULL when none), its per-thread spelling
 * where `flags` has CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM and
 * libcuda.so.1 has one, *status (may be NULL) 0
 * found, 1 not found, 2 found but every version newer than `version`.
 * CUDA_ERROR_INVALID_VALUE for a NULL symbol or address, a version past
 * the driver's (13000) or unknown flags. Driver codes. */
int cuemu_drv_get_proc_address(const char *symbol, void **address,
                               int version, unsigned long long flags,
                               int *status);

/* cudaOccupancyMaxPotentialBlockSizeVariableSMem(WithFlags): the block
 * size (a multiple of the warp size, at most block_size_limit when it is
 * not 0) with the most resident threads per SM when a block of n threads
 * uses smem_of(n, context) bytes of dynamic shared memory, and the grid
 * that fills every SM with it; ties go to the larger block. flags:
 * cudaOccupancyDefault or cudaOccupancyDisableCachingOverride. Runtime
 * codes. */
int cuemu_rt_occupancy_variable_smem(int *min_grid_size, int *__cuemu_block_size,
                                     const void *function,
                                     size_t (*smem_of)(int, void *),
                                     void *context, int block_size_limit,
                                     unsigned flags, int known);

/* cudaOccupancyAvailableDynamicSMemPerBlock: the most dynamic shared
 * memory a block of block_size threads may have for `blocks` such blocks
 * to be resident on one SM at once (0 when they cannot be for their
 * threads alone). Runtime codes. */
int cuemu_rt_occupancy_available_dynamic_smem(size_t *bytes,
                                              const void *function,
                                              int __cuemu_blocks, int __cuemu_block_size,
                                              int known);

/* The driver's occupancy calls for a module's kernel (a CUfunction), by
 * the rules of the runtime's (driver codes; CUDA_ERROR_INVALID_HANDLE for
 * a NULL function): cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags,
 * cuOccupancyMaxPotentialBlockSize(WithFlags) (block_size_to_smem is the
 * program's CUoccupancyB2DSize; when NULL, every block has `shared`
 * bytes), cuOccupancyAvailableDynamicSMemPerBlock, and
 * cuOccupancyMaxPotentialClusterSize (active 0) and
 * cuOccupancyMaxActiveClusters (active 1) with a CUlaunchConfig's block,
 * shared memory and attributes. */
int cuemu_drv_occupancy_max_active_blocks_flags(int *__cuemu_blocks, void *function,
                                                int __cuemu_block_size, size_t __cuemu_shared,
                                                unsigned flags);
int cuemu_drv_occupancy_max_potential_block_size(
    int *min_grid_size, int *__cuemu_block_size, void *function,
    size_t (*block_size_to_smem)(int), size_t __cuemu_shared, int block_size_limit,
    unsigned flags);
int cuemu_drv_occupancy_available_dynamic_smem(size_t *bytes, void *function,
                                               int __cuemu_blocks, int __cuemu_block_size);
int cuemu_drv_occupancy_clusters(int *__cuemu_out, void *function,
                                 const unsigned __cuemu_block[3], size_t __cuemu_shared,
                                 const void *attrs, unsigned nattrs,
                                 int active);

#ifdef __cplusplus
}
#endif

#endif /* CUEMU_HOST_IDS_H */
