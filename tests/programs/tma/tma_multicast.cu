/*
 * tma_multicast.cu: copies multicast to the blocks of a cluster, in inline
 * PTX: cp.async.bulk.tensor.2d ... .multicast::cluster, issued by the
 * cluster's rank 0 with a mask of the ranks that receive the box, and the
 * plain bulk copy cp.async.bulk ... .multicast::cluster. Each receiving
 * block's own mbarrier (at the same offset) gets the complete-tx of the
 * bytes; a block outside the mask gets nothing. Then every block tells
 * rank 0 it is done by arriving at rank 0's mbarrier through the address
 * mapa gives (as CUTLASS's cluster pipelines do), checked with getctarank.
 * The map comes from the driver API's cuTensorMapEncodeTiled itself (the
 * program links libcuda, -lcuda, with nvcc). Prints PASS when all is well.
 */
// CUEMU_OPTIONS: -lcuda
// NVCC_OPTIONS: -arch=sm_90a -lcuda
#include <cooperative_groups.h>
#include <cuda.h>
#include <cuda_runtime.h>
#include <cudaTypedefs.h>

#include <cstdint>
#include <vector>

#include "../check.cuh"

namespace cg = cooperative_groups;

constexpr int kRows = 8, kCols = 32, kRanks = 4, kBytes = kRows * kCols * 4;

__device__ inline unsigned smem_addr(const void *p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

__device__ inline void wait_parity(unsigned bar, unsigned parity) {
  unsigned done = 0;
  while (!done)
    asm volatile("{\n .reg .pred p;\n mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
                 " selp.u32 %0, 1, 0, p;\n}"
                 : "=r"(done)
                 : "r"(bar), "r"(parity)
                 : "memory");
}

/* Ranks 0, 1 and 3 of each cluster of 4 receive rank 0's box (at column
 * 32 * cluster, row 0) and then rank 0's bulk copy of `line`; rank 2 is
 * left out and keeps its fill. Each block writes what it has to out. */
__global__ void __cluster_dims__(kRanks, 1, 1)
    multicast(const __grid_constant__ CUtensorMap map, const float *line, float *out) {
  __shared__ alignas(128) float tile[kRows * kCols];
  __shared__ alignas(128) float copy[kCols];
  __shared__ alignas(8) unsigned long long bar, done;
  cg::cluster_group cluster = cg::this_cluster();
  const unsigned rank = cluster.block_rank(), b = smem_addr(&bar), d = smem_addr(&done);
  const unsigned short mask = 0b1011;
  const bool receives = (mask >> rank) & 1;
  for (int i = threadIdx.x; i < kRows * kCols; i += blockDim.x) tile[i] = -1.0f;
  for (int i = threadIdx.x; i < kCols; i += blockDim.x) copy[i] = -1.0f;
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(b) : "memory");
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(d), "r"(kRanks) : "memory");
    if (receives)
      asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(b),
                   "r"(kBytes + kCols * 4)
                   : "memory");
  }
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  cluster.sync();
  if (rank == 0 && threadIdx.x == 0) {
    const int c0 = static_cast<int>(blockIdx.x / kRanks) * kCols, c1 = 0;
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                 ".multicast::cluster [%0], [%1, {%2, %3}], [%4], %5;"
                 ::"r"(smem_addr(tile)), "l"(reinterpret_cast<unsigned long long>(&map)),
                 "r"(c0), "r"(c1), "r"(b), "h"(mask)
                 : "memory");
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes"
                 ".multicast::cluster [%0], [%1], %2, [%3], %4;"
                 ::"r"(smem_addr(copy)), "l"(line), "r"(kCols * 4), "r"(b), "h"(mask)
                 : "memory");
  }
  if (receives) wait_parity(b, 0);
  float *mine = out + blockIdx.x * (kRows * kCols + kCols);
  for (int i = threadIdx.x; i < kRows * kCols; i += blockDim.x) mine[i] = tile[i];
  for (int i = threadIdx.x; i < kCols; i += blockDim.x) mine[kRows * kCols + i] = copy[i];
  /* Rank 0's "done" barrier, reached through distributed shared memory. */
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned remote = 0, owner = 99;
    asm volatile("mapa.shared::cluster.u32 %0, %1, 0;" : "=r"(remote) : "r"(d));
    asm volatile("getctarank.shared::cluster.u32 %0, %1;" : "=r"(owner) : "r"(remote));
    if (owner != 0) out[blockIdx.x * (kRows * kCols + kCols)] = -2.0f;
    asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];" ::"r"(remote)
                 : "memory");
  }
  if (rank == 0) wait_parity(d, 0);
  /* No block leaves while another may still write into its shared memory. */
  cluster.sync();
}

int main() {
  const int clusters = 2, cols = clusters * kCols, blocks = clusters * kRanks;
  std::vector<float> g(kRows * cols), line(kCols);
  for (int i = 0; i < kRows * cols; ++i) g[i] = static_cast<float>(i);
  for (int i = 0; i < kCols; ++i) line[i] = 1000.0f + i;
  const int per = kRows * kCols + kCols;
  std::vector<float> out(blocks * per);
  float *dg, *dline, *dout;
  CHECK(cudaMalloc(&dg, g.size() * 4) == cudaSuccess);
  CHECK(cudaMalloc(&dline, line.size() * 4) == cudaSuccess);
  CHECK(cudaMalloc(&dout, out.size() * 4) == cudaSuccess);
  CHECK(cudaMemcpy(dg, g.data(), g.size() * 4, cudaMemcpyHostToDevice) == cudaSuccess);
  CHECK(cudaMemcpy(dline, line.data(), line.size() * 4, cudaMemcpyHostToDevice) == cudaSuccess);
  CUtensorMap map;
  const uint64_t dims[2] = {static_cast<uint64_t>(cols), kRows}, strides[1] = {cols * 4ull};
  const uint32_t box[2] = {kCols, kRows}, step[2] = {1, 1};
  CHECK(cuTensorMapEncodeTiled(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, dg, dims, strides, box, step,
               CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
               CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS);
  multicast<<<blocks, 64>>>(map, dline, dout);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(cudaMemcpy(out.data(), dout, out.size() * 4, cudaMemcpyDeviceToHost) == cudaSuccess);
  for (int blk = 0; blk < blocks; ++blk) {
    const bool receives = (0b1011 >> (blk % kRanks)) & 1;
    const int c0 = (blk / kRanks) * kCols;
    bool ok = true;
    for (int r = 0; r < kRows; ++r)
      for (int c = 0; c < kCols; ++c)
        ok = ok && out[blk * per + r * kCols + c] == (receives ? g[r * cols + c0 + c] : -1.0f);
    for (int c = 0; c < kCols; ++c)
      ok = ok && out[blk * per + kRows * kCols + c] == (receives ? line[c] : -1.0f);
    if (!ok) std::fprintf(stderr, "block %d\n", blk);
    CHECK(ok);
  }
  cudaFree(dg);
  cudaFree(dline);
  cudaFree(dout);
  return finish();
}
