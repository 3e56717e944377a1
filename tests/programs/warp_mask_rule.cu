/*
 * warp_mask_rule.cu: CUDA's rule for the masks of warp collectives: "all
 * non-exited threads named in mask must execute the same intrinsic with the
 * same mask". A full mask in a partial warp, and a full mask after some
 * lanes returned, are legal, and the lanes that take part read each
 * other's values as on a GPU. Prints PASS when all is well.
 */
#include <cuda_runtime.h>

#include "check.cuh"

/* A block of 8 threads: a partial warp, and a full mask. */
__global__ void reverse8(int *out) {
  int tid = threadIdx.x;
  out[tid] = __shfl_sync(0xffffffffu, tid * 10, 7 - tid);
}

/* A 16x16 block: only the threads of row 0 shuffle, with a full mask; the
 * other half of warp 0 (row 1) has returned. */
__global__ void row_zero(int *out) {
  if (threadIdx.y != 0)
    return;
  int x = threadIdx.x;
  out[x] = __shfl_xor_sync(0xffffffffu, x * 3, 1);
  out[16 + x] = (int)__ballot_sync(0xffffffffu, x % 2);
  out[32 + x] = __reduce_add_sync(0xffffffffu, 1u);
}

int main() {
  int *out = nullptr;
  CHECK(cudaMallocManaged(&out, 48 * sizeof(int)) == cudaSuccess);
  reverse8<<<1, 8>>>(out);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  for (int t = 0; t < 8; ++t)
    CHECK(out[t] == (7 - t) * 10);
  row_zero<<<1, dim3(16, 16)>>>(out);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  for (int x = 0; x < 16; ++x) {
    CHECK(out[x] == (x ^ 1) * 3);
    CHECK(out[16 + x] == 0xaaaa); /* the odd lanes of row 0 */
    CHECK(out[32 + x] == 16);
  }
  CHECK(cudaFree(out) == cudaSuccess);
  return finish();
}
