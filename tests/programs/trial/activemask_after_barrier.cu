// __activemask() after a __syncthreads(), as Learn-CUDA-Programming's warp
// reductions write it: each step of the warp sum takes the mask from
// __activemask() and gives it to __shfl_down_sync, and the block sum calls it
// again after the barrier that gathers the warps' partial sums. On a GPU the
// lanes of a warp are converged after the barrier, so the mask holds every
// live lane. cuemu returned the caller's own lane alone there (the lanes
// that the barrier released were still marked as waiting at it), so the
// shuffles read the caller's own value and the block sum of 256 ones came
// out 1024, with no diagnostic. Checked: the mask after one and after two
// barriers, in a partial last warp, inside a branch taken by half the lanes,
// coalesced_threads() after a barrier, and the block sum against the count.
#include <cooperative_groups.h>
#include <cstdio>
#include "../check.cuh"

namespace cg = cooperative_groups;

__device__ __forceinline__ float warp_sum(float val) {
  for (int offset = warpSize / 2; offset > 0; offset >>= 1) {
    unsigned mask = __activemask();
    val += __shfl_down_sync(mask, val, offset);
  }
  return val;
}

__device__ float block_sum(float val) {
  static __shared__ float partial[32];
  int lane = threadIdx.x % warpSize, wid = threadIdx.x / warpSize;
  val = warp_sum(val);
  if (lane == 0) partial[wid] = val;
  __syncthreads();
  if (wid == 0) {
    int warps = (blockDim.x + warpSize - 1) / warpSize;
    val = lane < warps ? partial[lane] : 0.0f;
    val = warp_sum(val);
  }
  return val;
}

// One block sum per block of `in`; every element counts once.
__global__ void sums(const float *in, float *out) {
  float v = block_sum(in[blockIdx.x * blockDim.x + threadIdx.x]);
  if (threadIdx.x == 0) out[blockIdx.x] = v;
}

// The masks each thread sees: before any barrier, after one, after a
// second, in a branch of the lower half-warp, and the size of the coalesced
// group after a barrier.
__global__ void masks(unsigned *before, unsigned *after, unsigned *after2, unsigned *half,
                      unsigned *coalesced) {
  unsigned t = threadIdx.x;
  before[t] = __activemask();
  __syncthreads();
  after[t] = __activemask();
  __syncthreads();
  after2[t] = __activemask();
  __syncthreads();
  half[t] = 0;
  if (t % 32 < 16) half[t] = __activemask();
  __syncthreads();
  coalesced[t] = cg::coalesced_threads().size();
}

int main() {
  // Sums: 3 blocks of 256 threads, element i of block b is b + 1.
  const int blocks = 3, threads = 256, n = blocks * threads;
  float *in, *out;
  cudaMallocManaged(&in, n * sizeof(float));
  cudaMallocManaged(&out, blocks * sizeof(float));
  for (int i = 0; i < n; ++i) in[i] = static_cast<float>(i / threads + 1);
  sums<<<blocks, threads>>>(in, out);
  cudaDeviceSynchronize();
  for (int b = 0; b < blocks; ++b) CHECK(out[b] == 256.0f * (b + 1));

  // Masks: 48 threads, so the second warp has lanes 0-15 only.
  const int nt = 48;
  unsigned *m;
  cudaMallocManaged(&m, 5 * nt * sizeof(unsigned));
  masks<<<1, nt>>>(m, m + nt, m + 2 * nt, m + 3 * nt, m + 4 * nt);
  cudaDeviceSynchronize();
  for (int t = 0; t < nt; ++t) {
    unsigned live = t < 32 ? 0xffffffffu : 0x0000ffffu;
    CHECK(m[t] == live);                      // before any barrier
    CHECK(m[nt + t] == live);                 // after a barrier
    CHECK(m[2 * nt + t] == live);             // after a second one
    if (t % 32 < 16) {
      // The branch's lanes: this one, and none of the upper half-warp.
      CHECK((m[3 * nt + t] >> (t % 32) & 1u) == 1u);
      CHECK((m[3 * nt + t] & 0xffff0000u) == 0u);
    }
    CHECK(m[4 * nt + t] == (t < 32 ? 32u : 16u));
  }
  cudaFree(in);
  cudaFree(out);
  cudaFree(m);
  return finish();
}
