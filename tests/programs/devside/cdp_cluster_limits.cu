/*
 * cdp_cluster_limits.cu: kernels with __cluster_dims__ launched from
 * kernel code run in clusters of that shape (each block sees its cluster
 * rank and reads its partner's shared memory), with a host launch's
 * rules (a grid that is not a whole number of clusters is the launching
 * thread's cudaErrorInvalidClusterSize); and the device runtime's limits
 * as CUDA 12 and later have them on sm_90: cudaLimitDevRuntimeSyncDepth
 * is cudaErrorUnsupportedLimit (device-side cudaDeviceSynchronize is gone
 * from compute capability 9.0), launches beyond
 * cudaLimitDevRuntimePendingLaunchCount fail with
 * cudaErrorLaunchPendingCountExceeded.
 * CUEMU_OPTIONS: -rdc=true
 * NVCC_OPTIONS: -rdc=true
 */
#include <cooperative_groups.h>
#include <cstdio>
#include <vector>

#include "../check.cuh"

namespace cg = cooperative_groups;

/* Each block of a pair adds its partner's value, read from the partner's
 * shared memory. */
__global__ void __cluster_dims__(2, 1, 1) pair_sum(const int *in, int *out) {
  __shared__ int mine;
  cg::cluster_group cluster = cg::this_cluster();
  if (threadIdx.x == 0)
    mine = in[blockIdx.x];
  cluster.sync();
  int *other = cluster.map_shared_rank(&mine, cluster.block_rank() ^ 1u);
  if (threadIdx.x == 0)
    out[blockIdx.x] = static_cast<int>(cluster.num_blocks()) * 10000 +
                      mine * 100 + *other;
  cluster.sync();
}

__global__ void count_child(int *hits) { atomicAdd(hits, 1); }

__global__ void parent(const int *in, int *out, int *errors) {
  if (threadIdx.x != 0)
    return;
  pair_sum<<<8, 32>>>(in, out);
  errors[0] = cudaGetLastError();
  pair_sum<<<3, 32>>>(in, out + 8); /* 3 blocks: not whole clusters */
  errors[1] = cudaGetLastError();
}

__global__ void many(int *hits, int *errors, int n) {
  for (int i = 0; i < n; ++i) {
    count_child<<<1, 1>>>(hits);
    errors[i] = cudaGetLastError();
  }
}

int main() {
  /* Clusters from kernel code. */
  const int n = 8;
  int *in, *out, *errors, *hits;
  CHECK(cudaMallocManaged(&in, n * sizeof(int)) == cudaSuccess);
  CHECK(cudaMallocManaged(&out, 2 * n * sizeof(int)) == cudaSuccess);
  CHECK(cudaMallocManaged(&errors, 16 * sizeof(int)) == cudaSuccess);
  CHECK(cudaMallocManaged(&hits, sizeof(int)) == cudaSuccess);
  for (int i = 0; i < n; ++i)
    in[i] = i + 1;
  for (int i = 0; i < 2 * n; ++i)
    out[i] = -1;
  parent<<<1, 32>>>(in, out, errors);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(errors[0] == cudaSuccess);
  CHECK(errors[1] == cudaErrorInvalidClusterSize);
  for (int b = 0; b < n; ++b)
    CHECK(out[b] == 20000 + in[b] * 100 + in[b ^ 1]);
  for (int b = n; b < 2 * n; ++b)
    CHECK(out[b] == -1);

  /* The sync depth bounds device-side cudaDeviceSynchronize(), which
   * compute capability 9.0 does not have. */
  size_t v = 0;
  CHECK(cudaDeviceSetLimit(cudaLimitDevRuntimeSyncDepth, 3) ==
        cudaErrorUnsupportedLimit);
  CHECK(cudaGetLastError() == cudaErrorUnsupportedLimit);
  CHECK(cudaDeviceGetLimit(&v, cudaLimitDevRuntimeSyncDepth) ==
        cudaErrorUnsupportedLimit);
  CHECK(cudaGetLastError() == cudaErrorUnsupportedLimit);

  /* The pending-launch count: 4 launched grids wait at most. */
  CHECK(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, 4) ==
        cudaSuccess);
  CHECK(cudaDeviceGetLimit(&v, cudaLimitDevRuntimePendingLaunchCount) ==
            cudaSuccess && v == 4);
  *hits = 0;
  many<<<1, 1>>>(hits, errors, 6);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  for (int i = 0; i < 6; ++i)
    CHECK(errors[i] == (i < 4 ? cudaSuccess
                              : cudaErrorLaunchPendingCountExceeded));
  CHECK(*hits == 4);
  return finish();
}
