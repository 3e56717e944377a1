/*
 * cuemu_host_api.h: the runtime API that real programs use around their
 * kernels, beyond streams and events: stream-ordered allocation and memory
 * pools, unified-memory hints, cudaLaunchKernelEx, limits' companions (cache
 * and shared-memory configuration, stream attributes, the persisting L2
 * cache). Each CUDA name forwards to libcuemu (cuemu/cuemu_runtime_host.h).
 * Included at the end of cuda_runtime_api.h.
 */
#ifndef CUEMU_HOST_API_H
#define CUEMU_HOST_API_H

#include "cuemu_mempool_api.h"
#include "cuemu_managed_api.h"
#include "cuemu_launch_ex_api.h"

#endif /* CUEMU_HOST_API_H */
