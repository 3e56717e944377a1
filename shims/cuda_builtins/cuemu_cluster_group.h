/*
 * cuemu_cluster_group.h: cooperative_groups::cluster_group
 * (this_cluster()), the thread block cluster of sm_90: its shape and
 * ranks, cluster.sync() and distributed shared memory (map_shared_rank).
 * Without clusters every block is a cluster of one, as on the GPU. The
 * split barrier (barrier_arrive, then barrier_wait) is CUDA's: a thread
 * that arrived goes on until its wait, which returns once every thread of
 * the cluster has arrived. The shape and ranks are the cluster intrinsics
 * (cuemu_cluster_intrinsics.h). See cuemu_device_runtime.h.
 */
#ifndef CUEMU_CLUSTER_GROUP_H
#define CUEMU_CLUSTER_GROUP_H

#include <cuemu/cuemu_device_runtime.h>

#include "cuemu_builtin_vars.h"
#include "cuemu_cluster_intrinsics.h"
#include "vector_types.h"

namespace cooperative_groups {

class cluster_group {
public:
  struct arrival_token {};

  static dim3 dim_blocks() { return __clusterDim(); }
  static unsigned num_blocks() { return __clusterSizeInBlocks(); }
  /* The block's index within its cluster. */
  static dim3 block_index() { return __clusterRelativeBlockIdx(); }
  static unsigned block_rank() { return __clusterRelativeBlockRank(); }
  static dim3 dim_threads() {
    cuemu_uint3 d = cuemu_cluster_dims();
    return dim3(d.x * blockDim.x, d.y * blockDim.y, d.z * blockDim.z);
  }
  static unsigned num_threads() {
    return num_blocks() * blockDim.x * blockDim.y * blockDim.z;
  }
  static unsigned size() { return num_threads(); }
  static unsigned thread_rank() {
    return block_rank() * (blockDim.x * blockDim.y * blockDim.z) +
           (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  }
  static dim3 thread_index() {
    dim3 b = block_index();
    return dim3(b.x * blockDim.x + threadIdx.x, b.y * blockDim.y + threadIdx.y,
                b.z * blockDim.z + threadIdx.z);
  }
  static bool is_valid() { return true; }

  static void sync(const char *cuemu_file = __builtin_FILE(),
                   int cuemu_line = __builtin_LINE()) {
    cuemu_cluster_sync(cuemu_file, cuemu_line);
  }
  /* The split barrier: arrive, then wait for every thread of the cluster
   * to have arrived (cluster.sync() is both). */
  static arrival_token barrier_arrive(const char *cuemu_file = __builtin_FILE(),
                                      int cuemu_line = __builtin_LINE()) {
    cuemu_cluster_arrive(cuemu_file, cuemu_line);
    return arrival_token();
  }
  static void barrier_wait(const char *cuemu_file = __builtin_FILE(),
                           int cuemu_line = __builtin_LINE()) {
    cuemu_cluster_wait(cuemu_file, cuemu_line);
  }
  static void barrier_wait(arrival_token &&,
                           const char *cuemu_file = __builtin_FILE(),
                           int cuemu_line = __builtin_LINE()) {
    cuemu_cluster_wait(cuemu_file, cuemu_line);
  }

  template <typename T>
  static T *map_shared_rank(T *addr, unsigned rank,
                            const char *cuemu_file = __builtin_FILE(),
                            int cuemu_line = __builtin_LINE()) {
    return static_cast<T *>(
        cuemu_cluster_map_shared(addr, rank, cuemu_file, cuemu_line));
  }
  template <typename T>
  static T &map_shared_rank(T &addr, unsigned rank,
                            const char *cuemu_file = __builtin_FILE(),
                            int cuemu_line = __builtin_LINE()) {
    return *static_cast<T *>(
        cuemu_cluster_map_shared(&addr, rank, cuemu_file, cuemu_line));
  }
  static unsigned query_shared_rank(const void *addr) {
    return cuemu_cluster_query_shared_rank(addr);
  }
};

inline cluster_group this_cluster() { return cluster_group(); }

} // namespace cooperative_groups

#endif /* CUEMU_CLUSTER_GROUP_H */
