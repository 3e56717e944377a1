/*
 * cuemu_cluster_intrinsics.h: the thread block cluster intrinsics of
 * sm_90 that CUDA declares in crt/sm_90_rt.h: the cluster's shape and the
 * block's place in it (__clusterDim, __clusterRelativeBlockIdx,
 * __clusterRelativeBlockRank, __clusterSizeInBlocks, __clusterIdx,
 * __clusterGridDimInClusters), distributed shared memory
 * (__cluster_map_shared_rank, __cluster_query_shared_rank) and the split
 * cluster barrier (__cluster_barrier_arrive, its _relaxed form, and
 * __cluster_barrier_wait). cooperative_groups::cluster_group is built on
 * them (cuemu_cluster_group.h). Without clusters every block is a cluster
 * of one, as on the GPU. See cuemu_device_runtime.h.
 *
 * Not given: __clusterDimIsSpecified (libcuemu does not record whether a
 * launch named a cluster shape of one block or none) and
 * __cluster_map_shared_multicast (a multicast address for the
 * cp.async.bulk multicast copies, which cuemu does not have).
 */
#ifndef CUEMU_CLUSTER_INTRINSICS_H
#define CUEMU_CLUSTER_INTRINSICS_H

#include <cuemu/cuemu_device_runtime.h>

#include "cuemu_builtin_vars.h"
#include "vector_types.h"

/* The cluster's shape in blocks. */
inline dim3 __clusterDim() {
  cuemu_uint3 d = cuemu_cluster_dims();
  return dim3(d.x, d.y, d.z);
}

/* The block's index within its cluster. */
inline dim3 __clusterRelativeBlockIdx() {
  cuemu_uint3 d = cuemu_cluster_dims();
  return dim3(blockIdx.x % d.x, blockIdx.y % d.y, blockIdx.z % d.z);
}

/* The block's rank within its cluster, x fastest. */
inline unsigned __clusterRelativeBlockRank() {
  cuemu_uint3 d = cuemu_cluster_dims();
  return (blockIdx.z % d.z * d.y + blockIdx.y % d.y) * d.x + blockIdx.x % d.x;
}

/* The number of blocks in the cluster. */
inline unsigned __clusterSizeInBlocks() {
  cuemu_uint3 d = cuemu_cluster_dims();
  return d.x * d.y * d.z;
}

/* The cluster's index in the grid. */
inline dim3 __clusterIdx() {
  cuemu_uint3 d = cuemu_cluster_dims();
  return dim3(blockIdx.x / d.x, blockIdx.y / d.y, blockIdx.z / d.z);
}

/* The grid's shape in clusters. */
inline dim3 __clusterGridDimInClusters() {
  cuemu_uint3 d = cuemu_cluster_dims();
  return dim3(gridDim.x / d.x, gridDim.y / d.y, gridDim.z / d.z);
}

/* The address in the shared memory of the cluster's block
 * `__cuemu_rank` that corresponds to `ptr` in the caller's; a fault
 * naming the caller's line for a rank past the cluster. */
inline void *__cluster_map_shared_rank(const void *ptr,
                                       unsigned __cuemu_rank,
                                       const char *cuemu_file = __builtin_FILE(),
                                       int cuemu_line = __builtin_LINE()) {
  return cuemu_cluster_map_shared(ptr, __cuemu_rank, cuemu_file,
                                  cuemu_line);
}

/* The rank of the block whose shared memory holds `ptr`. */
inline unsigned __cluster_query_shared_rank(const void *ptr) {
  return cuemu_cluster_query_shared_rank(ptr);
}

/* The split cluster barrier: arrive (release), then wait (acquire) until
 * every thread of the cluster has arrived. */
inline void __cluster_barrier_arrive(const char *cuemu_file = __builtin_FILE(),
                                     int cuemu_line = __builtin_LINE()) {
  cuemu_cluster_arrive(cuemu_file, cuemu_line);
}

/* The relaxed arrive orders no memory on the GPU; the emulator's arrive
 * orders it, which a correct program cannot tell apart. */
inline void
__cluster_barrier_arrive_relaxed(const char *cuemu_file = __builtin_FILE(),
                                 int cuemu_line = __builtin_LINE()) {
  cuemu_cluster_arrive(cuemu_file, cuemu_line);
}

inline void __cluster_barrier_wait(const char *cuemu_file = __builtin_FILE(),
                                   int cuemu_line = __builtin_LINE()) {
  cuemu_cluster_wait(cuemu_file, cuemu_line);
}

#endif /* CUEMU_CLUSTER_INTRINSICS_H */
