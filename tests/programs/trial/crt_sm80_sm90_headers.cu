// Real projects include the sm_80 and sm_90 runtime headers by their crt/
// path: <crt/sm_80_rt.h> for the warp reduce functions and the built-ins
// behind cuda::memcpy_async, <crt/sm_90_rt.h> for the thread block cluster
// intrinsics, __isCtaShared and the float2 atomicAdd. nvcc 13 builds them
// with a warning that each header is internal; cuemu-nvcc read the
// toolkit's own headers, which clashed with cuemu's definitions. nvcc
// declares these names only for the architectures that have them.
// NVCC_OPTIONS: -arch=sm_90
#include <crt/sm_80_rt.h>
#include <crt/sm_90_rt.h>
#include <cuda_runtime.h>
#include "../check.cuh"

struct Results {
  unsigned int sum;        // __reduce_add_sync (crt/sm_80_rt.h)
  int largest;             // __reduce_max_sync
  unsigned int copied[4];  // __nv_memcpy_async_shared_global_16
  unsigned int same;       // __nv_associate_access_property
  unsigned int shape;      // __clusterDim and its kin (crt/sm_90_rt.h)
  int peer;                // the other block's value, by __cluster_map_shared_rank
  unsigned int peer_rank;  // __cluster_query_shared_rank
  unsigned int shared;     // __isCtaShared and __isClusterShared
};

// Two clusters of two blocks; each block reads its partner's shared value.
__global__ void __cluster_dims__(2, 1, 1)
    crt_kernel(Results *out, const unsigned int *src, float2 *total) {
  __shared__ int value;
  __shared__ __align__(16) unsigned int staged[4];
  const unsigned int lane = threadIdx.x;
  const unsigned int sum = __reduce_add_sync(0xffffffffu, lane);
  const int largest = __reduce_max_sync(0xffffffffu, (int)lane - 40);
  if (lane == 0) {
    value = 100 + blockIdx.x;
    // 12 of 16 bytes: the last word is zeroed.
    staged[3] = 0xdeadu;
    __nv_memcpy_async_shared_global_16(staged, src, 12);
  }
  __threadfence_cluster();
  __cluster_barrier_arrive();
  __cluster_barrier_wait();
  Results r = {};
  if (lane == 0) {
    const unsigned int rank = __clusterRelativeBlockRank();
    const int *peer = (const int *)__cluster_map_shared_rank(&value, rank ^ 1u);
    r.sum = sum;
    r.largest = largest;
    for (int i = 0; i < 4; ++i) r.copied[i] = staged[i];
    r.same = __nv_associate_access_property(src, 0ull) == (const void *)src;
    r.shape = __clusterDim().x == 2 && __clusterSizeInBlocks() == 2 &&
              __clusterRelativeBlockIdx().x == blockIdx.x % 2 &&
              rank == blockIdx.x % 2 && __clusterIdx().x == blockIdx.x / 2 &&
              __clusterGridDimInClusters().x == 2;
    r.peer = *peer;
    r.peer_rank = __cluster_query_shared_rank(peer);
    r.shared = __isCtaShared(&value) && __isClusterShared(&value) &&
               !__isCtaShared(src);
    out[blockIdx.x] = r;
    atomicAdd(total, make_float2(1.0f, 0.5f));
  }
  // The partner may still read this block's shared memory.
  __cluster_barrier_arrive();
  __cluster_barrier_wait();
}

int main() {
  Results *d_out;
  unsigned int *d_src;
  float2 *d_total;
  const unsigned int src[4] = {11, 22, 33, 44};
  const float2 zero = {0.0f, 0.0f};
  cudaMalloc(&d_out, 4 * sizeof(Results));
  cudaMalloc(&d_src, sizeof src);
  cudaMalloc(&d_total, sizeof(float2));
  cudaMemcpy(d_src, src, sizeof src, cudaMemcpyHostToDevice);
  cudaMemcpy(d_total, &zero, sizeof zero, cudaMemcpyHostToDevice);
  crt_kernel<<<4, 32>>>(d_out, d_src, d_total);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  Results h[4];
  float2 total;
  cudaMemcpy(h, d_out, sizeof h, cudaMemcpyDeviceToHost);
  cudaMemcpy(&total, d_total, sizeof total, cudaMemcpyDeviceToHost);
  for (int b = 0; b < 4; ++b) {
    CHECK(h[b].sum == 496u);
    CHECK(h[b].largest == -9);
    CHECK(h[b].copied[0] == 11 && h[b].copied[1] == 22 &&
          h[b].copied[2] == 33 && h[b].copied[3] == 0);
    CHECK(h[b].same == 1 && h[b].shape == 1 && h[b].shared == 1);
    CHECK(h[b].peer == 100 + (b ^ 1));
    CHECK(h[b].peer_rank == (unsigned int)((b % 2) ^ 1));
  }
  CHECK(total.x == 4.0f && total.y == 2.0f);
  cudaFree(d_total);
  cudaFree(d_src);
  cudaFree(d_out);
  return finish();
}
