/*
 * cuemu_grid_group.h: cooperative groups' grid group: this_grid() and
 * grid.sync(), which works in cooperative launches
 * (cudaLaunchCooperativeKernel, cuemu_kernel_launch_cooperative) and ends
 * any other launch with an error. Included by cooperative_groups.h.
 */
#ifndef CUEMU_GRID_GROUP_H
#define CUEMU_GRID_GROUP_H

#include <cuemu/cuemu_device.h>

#include "cuemu_builtin_vars.h"
#include "vector_types.h"

namespace cooperative_groups {

class grid_group {
public:
  /* Waits until every thread of the grid has arrived. */
  void sync(const char *cuemu_file = __builtin_FILE(),
            int cuemu_line = __builtin_LINE()) const {
    cuemu_grid_sync(cuemu_file, cuemu_line);
  }
  /* True in a cooperative launch. */
  bool is_valid() const { return cuemu_grid_is_cooperative() != 0; }
  unsigned long long block_rank() const {
    return blockIdx.x + (unsigned long long)gridDim.x *
                            (blockIdx.y + (unsigned long long)gridDim.y *
                                              blockIdx.z);
  }
  unsigned long long num_blocks() const {
    return (unsigned long long)gridDim.x * gridDim.y * gridDim.z;
  }
  unsigned long long thread_rank() const {
    unsigned long long per_block =
        (unsigned long long)blockDim.x * blockDim.y * blockDim.z;
    unsigned long long in_block =
        threadIdx.x + (unsigned long long)blockDim.x *
                          (threadIdx.y + (unsigned long long)blockDim.y *
                                             threadIdx.z);
    return block_rank() * per_block + in_block;
  }
  unsigned long long num_threads() const {
    return num_blocks() * blockDim.x * blockDim.y * blockDim.z;
  }
  unsigned long long size() const { return num_threads(); }
  dim3 group_dim() const { return dim3(gridDim); }
  dim3 dim_blocks() const { return dim3(gridDim); }
  dim3 block_index() const { return dim3(blockIdx); }
};

inline grid_group this_grid() { return grid_group(); }

inline void sync(const grid_group &__cuemu_g, const char *cuemu_file = __builtin_FILE(),
                 int cuemu_line = __builtin_LINE()) {
  __cuemu_g.sync(cuemu_file, cuemu_line);
}

} // namespace cooperative_groups

#endif /* CUEMU_GRID_GROUP_H */
