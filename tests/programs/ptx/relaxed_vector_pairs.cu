/*
 * relaxed_vector_pairs.cu: an ordered vector access is one access of the
 * whole vector, as CUB's decoupled look-back needs (a tile's status and
 * value are stored as one ulonglong2 by st.relaxed.gpu.v2.u64 and read
 * back as one by ld.relaxed.gpu.v2.u64). Block 0 stores the pairs
 * (i, ~i) one after the other while block 1, running at the same time on
 * another worker (or SM), reads the pair: every pair it reads must be one
 * that was stored, never the halves of two. The writer waits a while for
 * the reader to start (a bounded wait: with one worker the blocks run one
 * after the other), so that with CUEMU_WORKERS=2 the two overlap. Prints
 * PASS when all is well.
 */
#include <cstdio>

#include "../check.cuh"

constexpr int kSteps = 200000;
constexpr int kReads = 20000000;

__device__ void store_pair(ulonglong2 *p, unsigned long long x, unsigned long long y) {
  asm volatile("st.relaxed.gpu.v2.u64 [%0], {%1, %2};" ::"l"(p), "l"(x), "l"(y) : "memory");
}

__device__ ulonglong2 load_pair(const ulonglong2 *p) {
  ulonglong2 v;
  asm volatile("ld.relaxed.gpu.v2.u64 {%0, %1}, [%2];" : "=l"(v.x), "=l"(v.y) : "l"(p) : "memory");
  return v;
}

__device__ void store_quad(uint4 *p, unsigned v) {
  asm volatile("st.release.gpu.v4.u32 [%0], {%1, %2, %3, %4};" ::"l"(p), "r"(v), "r"(v + 1),
               "r"(v + 2), "r"(v + 3) : "memory");
}

__device__ uint4 load_quad(const uint4 *p) {
  uint4 v;
  asm volatile("ld.acquire.gpu.v4.u32 {%0, %1, %2, %3}, [%4];"
               : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p) : "memory");
  return v;
}

/* torn[0] counts the pairs read whose halves differ, torn[1] the quads;
 * seen counts the reads that saw a store of block 0 (not the zeros). */
__global__ void writer_and_reader(ulonglong2 *pair, uint4 *quad, unsigned *torn,
                                  unsigned *seen, unsigned *started) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 0) {
    for (long spins = 0; spins < 50000000 && atomicAdd(started, 0u) == 0; ++spins) {
    }
    for (unsigned long long i = 1; i <= kSteps; ++i) {
      store_pair(pair, i, ~i);
      store_quad(quad, static_cast<unsigned>(i) * 4u);
    }
    return;
  }
  atomicExch(started, 1u);
  /* Reads until the last pair is seen (at most kReads times). */
  for (int k = 0; k < kReads; ++k) {
    const ulonglong2 v = load_pair(pair);
    if (v.x != 0 || v.y != 0) {
      if (v.y != ~v.x) atomicAdd(&torn[0], 1u);
      atomicAdd(seen, 1u);
    }
    const uint4 q = load_quad(quad);
    if (q.x != 0 && (q.y != q.x + 1 || q.z != q.x + 2 || q.w != q.x + 3))
      atomicAdd(&torn[1], 1u);
    if (v.x == kSteps && q.x == kSteps * 4u) break;
  }
}

int main() {
  ulonglong2 *pair;
  uint4 *quad;
  unsigned *counts;
  CHECK(cudaMalloc(&pair, sizeof *pair) == cudaSuccess);
  CHECK(cudaMalloc(&quad, sizeof *quad) == cudaSuccess);
  CHECK(cudaMalloc(&counts, 4 * sizeof *counts) == cudaSuccess);
  CHECK(cudaMemset(pair, 0, sizeof *pair) == cudaSuccess);
  CHECK(cudaMemset(quad, 0, sizeof *quad) == cudaSuccess);
  CHECK(cudaMemset(counts, 0, 4 * sizeof *counts) == cudaSuccess);
  writer_and_reader<<<2, 32>>>(pair, quad, counts, counts + 2, counts + 3);
  CHECK(cudaGetLastError() == cudaSuccess);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  unsigned h[3];
  CHECK(cudaMemcpy(h, counts, sizeof h, cudaMemcpyDeviceToHost) == cudaSuccess);
  ulonglong2 last;
  CHECK(cudaMemcpy(&last, pair, sizeof last, cudaMemcpyDeviceToHost) == cudaSuccess);
  std::printf("torn pairs %u, torn quads %u, reads of stored pairs %u\n", h[0], h[1], h[2]);
  CHECK(h[0] == 0);
  CHECK(h[1] == 0);
  CHECK(h[2] > 0);
  CHECK(last.x == kSteps && last.y == ~static_cast<unsigned long long>(kSteps));
  CHECK(cudaFree(pair) == cudaSuccess);
  CHECK(cudaFree(quad) == cudaSuccess);
  CHECK(cudaFree(counts) == cudaSuccess);
  return finish();
}
