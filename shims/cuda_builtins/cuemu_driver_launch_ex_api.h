/*
 * cuemu_driver_launch_ex_api.h: cuLaunchKernelEx, a module's kernel
 * launched with launch attributes (CUlaunchConfig), in CUDA 13's
 * signature: libcuemu's cuemu_drv_launch_kernel_ex applies the attributes
 * as the runtime's cudaLaunchKernelEx does (docs/runtime.md lists them).
 * Included at the end of cuemu_driver_graph_nodes_api.h, after the launch
 * attribute types of cuemu_driver_graph_api.h.
 */
/* cuda.h first, outside the guard: included alone, this header is then
 * read at its place in cuda.h, after what it uses. */
#include "cuda.h"
#ifndef CUEMU_DRIVER_LAUNCH_EX_API_H
#define CUEMU_DRIVER_LAUNCH_EX_API_H

#include "cuemu_driver_graph_api.h"

#include <cuemu/cuemu_host_ids.h>

#include "cuemu_driver_launch_ex_types.h"

static_assert(sizeof(CUlaunchAttribute) == sizeof(cudaLaunchAttribute),
              "CUlaunchAttribute is cudaLaunchAttribute's layout");

inline CUresult cuLaunchKernelEx(const CUlaunchConfig *config, CUfunction f,
                                 void **kernelParams, void **extra) {
  CUEMU_DRV_SYMBOL(cuLaunchKernelEx);
  if (!config)
    return CUDA_ERROR_INVALID_VALUE;
  const unsigned __cuemu_grid[3] = {config->gridDimX, config->gridDimY,
                            config->gridDimZ};
  const unsigned __cuemu_block[3] = {config->blockDimX, config->blockDimY,
                             config->blockDimZ};
  return static_cast<CUresult>(cuemu_drv_launch_kernel_ex(
      f, __cuemu_grid, __cuemu_block, config->sharedMemBytes, config->hStream, config->attrs,
      config->numAttrs, kernelParams, extra));
}

/* The occupancy of clusters of a CUlaunchConfig (cuemu/cuemu_host_ids.h). */
namespace cuemu {
namespace drv {
inline CUresult clusters(int *__cuemu_out, CUfunction func,
                         const CUlaunchConfig *config, int active) {
  if (!config)
    return CUDA_ERROR_INVALID_VALUE;
  const unsigned __cuemu_block[3] = {config->blockDimX, config->blockDimY,
                             config->blockDimZ};
  return static_cast<CUresult>(cuemu_drv_occupancy_clusters(
      __cuemu_out, func, __cuemu_block, config->sharedMemBytes, config->attrs,
      config->numAttrs, active));
}
} // namespace drv
} // namespace cuemu

inline CUresult cuOccupancyMaxPotentialClusterSize(int *clusterSize,
                                                   CUfunction func,
                                                   const CUlaunchConfig *config) {
  CUEMU_DRV_SYMBOL(cuOccupancyMaxPotentialClusterSize);
  return cuemu::drv::clusters(clusterSize, func, config, 0);
}

inline CUresult cuOccupancyMaxActiveClusters(int *numClusters, CUfunction func,
                                             const CUlaunchConfig *config) {
  CUEMU_DRV_SYMBOL(cuOccupancyMaxActiveClusters);
  return cuemu::drv::clusters(numClusters, func, config, 1);
}

#endif /* CUEMU_DRIVER_LAUNCH_EX_API_H */
