#pragma once
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
#define CUDA_TRY(call) do { cudaError_t status = (call); if (status != cudaSuccess) { \
  std::fprintf(stderr, "%s:%d %s failed: %s\n", __FILE__, __LINE__, #call, cudaGetErrorName(status)); std::exit(1); } } while (0)
// Warp-aggregated atomic increment: one atomic per warp for all active lanes.
__device__ __forceinline__ int atomicAggInc(int *ctr) {
  auto g = cg::coalesced_threads();
  int warp_res;
  if (g.thread_rank() == 0) warp_res = atomicAdd(ctr, g.size());
  return g.shfl(warp_res, 0) + g.thread_rank();
}
__device__ __forceinline__ int atomicAggIncManual(int *ctr) {
  unsigned mask = __activemask();
  int leader = __ffs(mask) - 1;
  int lane = threadIdx.x & 31;
  int res;
  if (lane == leader) res = atomicAdd(ctr, __popc(mask));
  res = __shfl_sync(mask, res, leader);
  return res + __popc(mask & ((1u << lane) - 1));
}
