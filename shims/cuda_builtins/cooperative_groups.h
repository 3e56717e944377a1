/*
 * cooperative_groups.h: the thread-block group of CUDA's cooperative
 * groups: this_thread_block(), sync(), thread_rank() and its shape queries.
 */
#ifndef CUEMU_COOPERATIVE_GROUPS_H
#define CUEMU_COOPERATIVE_GROUPS_H

#include "cuemu_builtin_vars.h"
#include "cuemu_sync.h"
#include "vector_types.h"

namespace cooperative_groups {

class thread_block {
public:
  /* Waits for every thread of the block, as __syncthreads() does. */
  void sync(const char *cuemu_file = __builtin_FILE(),
            int cuemu_line = __builtin_LINE()) const {
    cuemu_block_barrier(CUEMU_BARRIER_PLAIN, 0, cuemu_file, cuemu_line);
  }
  unsigned long long thread_rank() const {
    return threadIdx.x +
           (unsigned long long)blockDim.x *
               (threadIdx.y + (unsigned long long)blockDim.y * threadIdx.z);
  }
  unsigned long long num_threads() const {
    return (unsigned long long)blockDim.x * blockDim.y * blockDim.z;
  }
  unsigned long long size() const { return num_threads(); }
  dim3 group_index() const { return dim3(blockIdx); }
  dim3 thread_index() const { return dim3(threadIdx); }
  dim3 dim_threads() const { return dim3(blockDim); }
  dim3 group_dim() const { return dim3(blockDim); }
  static constexpr bool is_valid() { return true; }
};

inline thread_block this_thread_block() { return thread_block(); }

inline void sync(const thread_block &g,
                 const char *cuemu_file = __builtin_FILE(),
                 int cuemu_line = __builtin_LINE()) {
  g.sync(cuemu_file, cuemu_line);
}

inline unsigned long long thread_rank(const thread_block &g) {
  return g.thread_rank();
}

} // namespace cooperative_groups

#endif /* CUEMU_COOPERATIVE_GROUPS_H */
