/*
 * ptx_partial_warp.cu: inline PTX in partial warps and 2D blocks. A block
 * of 20 threads is one partial warp: shfl.sync's predicate says whether
 * the source lane is within the segment and the clamp (the PTX ISA's
 * rule), here the last lane that exists, as CUB passes it; a lane whose
 * source is out of range reads its own value. vote.sync.ballot sees only
 * the lanes that exist. (A source lane that does not exist would be in
 * range with clamp 31, but its value is undefined, and synccheck says so.) %laneid, %warpid and the lane masks follow the linear thread
 * index of a 2D block. Prints PASS when all is well.
 */
#include <cuda_runtime.h>

#include "check.cuh"

/* out[4 * t ..]: shfl.up by 1, shfl.down by 4 clamped at lane 19 (value |
 * p << 8), shfl.idx of lane 19, and the ballot of odd lanes. */
__global__ void partial(unsigned *out) {
  const unsigned t = threadIdx.x, v = 100 + t;
  unsigned up, pu, down, pd, idx, ballot;
  asm volatile("{ .reg .pred q; shfl.sync.up.b32 %0|q, %2, 1, 0, 0xffffffff; selp.u32 %1, 1, 0, q; }"
               : "=r"(up), "=r"(pu) : "r"(v));
  asm volatile("{ .reg .pred q; shfl.sync.down.b32 %0|q, %2, 4, 19, 0xffffffff; selp.u32 %1, 1, 0, q; }"
               : "=r"(down), "=r"(pd) : "r"(v));
  asm volatile("shfl.sync.idx.b32 %0, %1, 19, 0x1f, 0xffffffff;" : "=r"(idx) : "r"(v));
  asm volatile("{ .reg .pred q; setp.ne.u32 q, %1, 0; vote.sync.ballot.b32 %0, q, 0xffffffff; }"
               : "=r"(ballot) : "r"(t & 1));
  out[4 * t] = up | (pu << 8);
  out[4 * t + 1] = down | (pd << 8);
  out[4 * t + 2] = idx;
  out[4 * t + 3] = ballot;
}

/* A 16x4 block: two warps of two rows each. */
__global__ void rows(unsigned *out) {
  const unsigned t = threadIdx.y * 16 + threadIdx.x;
  unsigned lane, warp, lt;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  asm volatile("mov.u32 %0, %%warpid;" : "=r"(warp));
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(lt));
  out[t] = lane | (warp << 8) | ((lt == (1u << lane) - 1u) << 16);
}

int main() {
  unsigned *out = nullptr;
  CHECK(cudaMallocManaged(&out, 80 * sizeof(unsigned)) == cudaSuccess);
  partial<<<1, 20>>>(out);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  for (unsigned t = 0; t < 20; ++t) {
    CHECK(out[4 * t] == (t == 0 ? 100u : (99u + t) | 0x100u));
    CHECK(out[4 * t + 1] == (t + 4 <= 19 ? (104u + t) | 0x100u : 100u + t));
    CHECK(out[4 * t + 2] == 119u);
    CHECK(out[4 * t + 3] == 0xaaaaau); /* lanes 1, 3, ..., 19 */
  }
  rows<<<1, dim3(16, 4)>>>(out);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  for (unsigned t = 0; t < 64; ++t)
    CHECK(out[t] == ((t % 32) | ((t / 32) << 8) | (1u << 16)));
  CHECK(cudaFree(out) == cudaSuccess);
  return finish();
}
