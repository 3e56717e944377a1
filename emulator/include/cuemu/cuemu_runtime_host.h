/*
 * cuemu_runtime_host.h: the runtime API calls that real programs make
 * around their kernels: stream-ordered allocation and memory pools,
 * unified-memory hints, cache and shared-memory configuration, stream
 * attributes and cudaLaunchKernelEx. Each function is the body of the CUDA
 * call of the same meaning (shims/cuda_builtins/cuemu_host_api.h forwards
 * to them), takes CUDA's types (cuemu_rt_host_types.h) and returns a CUDA
 * error code, which it also records as the calling thread's last error.
 * Host code only, any thread.
 *
 * Stream-ordered allocation runs when it is issued, after its stream's
 * earlier work (cuemu_runtime_streams.h), so a stream-ordered allocation
 * exists when cudaMallocAsync returns, and a cudaFreeAsync frees then: the memory goes to the allocation table's
 * quarantine, and a kernel that uses it afterwards is reported by memcheck
 * or faults, exactly as after cudaFree.
 */
#ifndef CUEMU_RUNTIME_HOST_H
#define CUEMU_RUNTIME_HOST_H

#include <stddef.h>

#include <cuemu/cuemu_device.h>
#include <cuemu/cuemu_rt_host_types.h>
#include <cuemu/cuemu_rt_types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Stream-ordered allocation (emulator/runtime/cuemu_rt_mempool.c) ----- */

/* cudaMallocAsync (pool NULL: the device's current pool) and
 * cudaMallocFromPoolAsync. Statistics of the pool grow by the allocation. */
int cuemu_rt_malloc_async(void **ptr, size_t size, cudaMemPool_t pool,
                          void *stream);

/* cudaFreeAsync: `ptr` must be a live allocation of cudaMallocAsync or
 * cudaMallocFromPoolAsync (cudaErrorInvalidValue otherwise). */
int cuemu_rt_free_async(void *ptr, void *stream);

int cuemu_rt_mem_pool_create(cudaMemPool_t *pool,
                             const struct cudaMemPoolProps *props);
int cuemu_rt_mem_pool_destroy(cudaMemPool_t pool);
int cuemu_rt_mem_pool_set_attribute(cudaMemPool_t pool, int attr,
                                    void *value);
int cuemu_rt_mem_pool_get_attribute(cudaMemPool_t pool, int attr,
                                    void *value);
int cuemu_rt_mem_pool_trim_to(cudaMemPool_t pool, size_t min_bytes_to_keep);
int cuemu_rt_mem_pool_set_access(cudaMemPool_t pool,
                                 const struct cudaMemAccessDesc *descs,
                                 size_t count);
int cuemu_rt_mem_pool_get_access(enum cudaMemAccessFlags *flags,
                                 cudaMemPool_t pool,
                                 const struct cudaMemLocation *location);
int cuemu_rt_device_get_default_mem_pool(cudaMemPool_t *pool, int device);
int cuemu_rt_device_set_mem_pool(int device, cudaMemPool_t pool);
int cuemu_rt_device_get_mem_pool(cudaMemPool_t *pool, int device);
/* cudaMemGetDefaultMemPool, cudaMemGetMemPool and cudaMemSetMemPool: the
 * pools of an allocation type (cudaMemAllocationType: pinned or managed)
 * at a location (a device, the host or host NUMA node 0, or, for managed
 * memory, none). A device's pinned memory is the device's pools above;
 * every other pair has a default pool of its own, made when first asked
 * for, which is its current pool until cudaMemSetMemPool sets one of the
 * same type and location. Anything else is cudaErrorInvalidValue. */
int cuemu_rt_mem_get_default_pool(cudaMemPool_t *pool,
                                  const struct cudaMemLocation *location,
                                  int type);
int cuemu_rt_mem_get_pool(cudaMemPool_t *pool,
                          const struct cudaMemLocation *location, int type);
int cuemu_rt_mem_set_pool(const struct cudaMemLocation *location, int type,
                          cudaMemPool_t pool);

/* The pools release what they hold beyond their release threshold, as CUDA
 * does when the host synchronises (called by the synchronising calls). */
void cuemu_rt_mem_pools_release(void);

/* ---- Unified memory (emulator/runtime/cuemu_rt_managed.c) ---------------- */

/* cudaMemPrefetchAsync (CUDA 13: a location and flags, which must be 0). */
int cuemu_rt_mem_prefetch_async(const void *ptr, size_t count,
                                struct cudaMemLocation location,
                                unsigned flags, void *stream);

/* cudaMemPrefetchBatchAsync (discard 0), cudaMemDiscardBatchAsync
 * (discard 1: no locations) and cudaMemDiscardAndPrefetchBatchAsync
 * (discard 2): location k applies to the ranges from location_starts[k]
 * to the next start. Discarded contents are left as they are. */
int cuemu_rt_mem_batch_async(void **ptrs, size_t *sizes, size_t count,
                             struct cudaMemLocation *locations,
                             size_t *location_starts, size_t nlocations,
                             unsigned long long flags, void *stream,
                             int discard);

/* cudaMemAdvise (CUDA 13: a location). */
int cuemu_rt_mem_advise(const void *ptr, size_t count, int advice,
                        struct cudaMemLocation location);

/* cudaMemRangeGetAttribute: `data_size` bytes at `data`, as CUDA sizes
 * them per attribute (4, or a multiple of 4 for AccessedBy). */
int cuemu_rt_mem_range_get_attribute(void *data, size_t data_size,
                                     int attribute, const void *ptr,
                                     size_t count);

/* cudaStreamAttachMemAsync: recorded; flags one of cudaMemAttachGlobal,
 * cudaMemAttachHost or cudaMemAttachSingle. */
int cuemu_rt_stream_attach_mem_async(void *stream, void *ptr, size_t length,
                                     unsigned flags);

/* ---- Configuration (emulator/runtime/cuemu_rt_config.c) ------------------ */

int cuemu_rt_device_set_cache_config(int config);
int cuemu_rt_device_get_cache_config(int *config);
int cuemu_rt_device_set_shared_mem_config(int config);
int cuemu_rt_device_get_shared_mem_config(int *config);

/* cudaFuncSetCacheConfig and cudaFuncSetSharedMemConfig: recorded per
 * kernel (`known`: `function` is a kernel's address, as in cuemu_rt_func). */
int cuemu_rt_func_set_cache_config(const void *function, int config,
                                   int known);
int cuemu_rt_func_set_shared_mem_config(const void *function, int config,
                                        int known);

/* The cache configuration recorded for a kernel, or the device's when none
 * was set for it. */
int cuemu_rt_func_get_cache_config(const void *function);

/* cudaCtxResetPersistingL2Cache. */
int cuemu_rt_ctx_reset_persisting_l2_cache(void);

/* cudaStreamSetAttribute / cudaStreamGetAttribute: access-policy window,
 * synchronization policy, priority and memory sync domain (map). */
int cuemu_rt_stream_set_attribute(void *stream, int attr,
                                  const cudaLaunchAttributeValue *value);
int cuemu_rt_stream_get_attribute(void *stream, int attr,
                                  cudaLaunchAttributeValue *value);

/* cudaStreamCopyAttributes. */
int cuemu_rt_stream_copy_attributes(void *dst, void *src);

/* ---- cudaLaunchKernelEx (emulator/runtime/cuemu_rt_launch_ex.c) ---------- */

/* Launches `function` (found as by cuemu_rt_launch_kernel, `fallback`
 * otherwise) with the configuration's attributes: cooperative, cluster
 * dimension, priority, access-policy window, synchronization policy,
 * memory sync domain (map), programmatic stream serialization, programmatic
 * and launch-completion events, preferred cluster dimension and shared
 * memory carveout. `*status` receives the launch's cuemu status as
 * cuemu_rt_launch_kernel gives it. */
int cuemu_rt_launch_kernel_ex(const void *function,
                              const cuemu_kernel_desc *fallback,
                              cuemu_uint3 __cuemu_grid, cuemu_uint3 __cuemu_block,
                              size_t dynamic_shared, void *stream,
                              const cudaLaunchAttribute *attrs,
                              unsigned nattrs, void **args, int *status);

/* cudaOccupancyMaxPotentialClusterSize (active 0): the largest cluster of
 * blocks of this shape the device runs (8, or 16 where the kernel allows
 * non-portable sizes, fewer when fewer blocks fit), and
 * cudaOccupancyMaxActiveClusters (active 1): how many clusters of the
 * configuration's cluster dimension are resident at once
 * (cudaErrorInvalidClusterSize without one). `known` as in cuemu_rt_func. */
int cuemu_rt_occupancy_clusters(int *__cuemu_out, const void *function, int known,
                                cuemu_uint3 __cuemu_block, size_t dynamic_shared,
                                const cudaLaunchAttribute *attrs,
                                unsigned nattrs, int active);

#ifdef __cplusplus
}
#endif

#endif /* CUEMU_RUNTIME_HOST_H */
