// word_and_byte_access.cu: a correct program that mixes 1-, 2-, 4-, 8- and
// 16-byte accesses to the same words of global memory, ordered by barriers
// and kernel boundaries, under every checker: racecheck keeps one record per
// 4-byte word while it is accessed whole and one per byte once a narrower
// access comes, and must report nothing here (each byte written by one thread
// between barriers; reads after the barrier that orders them).
// CUEMU_OPTIONS: --check=race,mem,init
#include <cuda_runtime.h>

#include "../check.cuh"

/* Each thread writes its own byte, its own half-word and its own float4;
 * after a barrier, thread t reads back whole words (and a double word) made
 * of other threads' bytes. */
__global__ void pack(unsigned char *bytes, unsigned short *halves,
                     float4 *quads, unsigned *words, unsigned long long *wide) {
  unsigned t = threadIdx.x;
  bytes[t] = (unsigned char)(t + 1);
  halves[t] = (unsigned short)(1000 + t);
  quads[t] = make_float4((float)t, 1.0f, 2.0f, 3.0f);
  __syncthreads();
  if (t < 8)
    words[t] = reinterpret_cast<unsigned *>(bytes)[t];
  if (t < 4)
    wide[t] = reinterpret_cast<unsigned long long *>(halves)[t];
  __syncthreads();
  /* Rewrites whole words that were written byte by byte. */
  if (t < 8)
    reinterpret_cast<unsigned *>(bytes)[t] = 0x01020304u * (t + 1);
}

/* A later launch: reads the words of the last one, then bytes of them are
 * rewritten by other threads only after a barrier. */
template <typename T> __global__ void sum_then_clear(T *data, unsigned n,
                                                     unsigned long long *out) {
  unsigned t = threadIdx.x;
  T v = t < n ? data[t] : T(0);
  atomicAdd(out, (unsigned long long)v);
  __syncthreads();
  if (t < n * sizeof(T))
    reinterpret_cast<unsigned char *>(data)[t] = 0;
}

int main() {
  const unsigned threads = 32;
  unsigned char *bytes;
  unsigned short *halves;
  float4 *quads;
  unsigned *words;
  unsigned long long *wide, *sum;
  cudaMalloc(&bytes, threads);
  cudaMalloc(&halves, threads * sizeof(unsigned short));
  cudaMalloc(&quads, threads * sizeof(float4));
  cudaMalloc(&words, 8 * sizeof(unsigned));
  cudaMalloc(&wide, 4 * sizeof(unsigned long long));
  cudaMalloc(&sum, sizeof(unsigned long long));
  cudaMemset(sum, 0, sizeof(unsigned long long));
  pack<<<1, threads>>>(bytes, halves, quads, words, wide);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);

  unsigned hw[8];
  unsigned long long hwide[4];
  cudaMemcpy(hw, words, sizeof hw, cudaMemcpyDeviceToHost);
  cudaMemcpy(hwide, wide, sizeof hwide, cudaMemcpyDeviceToHost);
  for (unsigned i = 0; i < 8; ++i) {
    unsigned expect = 0;
    for (unsigned b = 0; b < 4; ++b)
      expect |= (4 * i + b + 1) << (8 * b);
    CHECK(hw[i] == expect);
  }
  for (unsigned i = 0; i < 4; ++i) {
    unsigned long long expect = 0;
    for (unsigned h = 0; h < 4; ++h)
      expect |= (unsigned long long)(1000 + 4 * i + h) << (16 * h);
    CHECK(hwide[i] == expect);
  }

  /* The 8 words rewritten whole by pack: 0x01020304 * (t + 1); summed as
   * words, then cleared byte by byte. */
  sum_then_clear<unsigned><<<1, threads>>>(reinterpret_cast<unsigned *>(bytes), 8,
                                            sum);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  unsigned long long total = 0;
  cudaMemcpy(&total, sum, sizeof total, cudaMemcpyDeviceToHost);
  CHECK(total == 0x01020304ull * 36);
  unsigned char cleared[32];
  cudaMemcpy(cleared, bytes, sizeof cleared, cudaMemcpyDeviceToHost);
  for (unsigned i = 0; i < 32; ++i)
    CHECK(cleared[i] == 0);

  cudaFree(bytes);
  cudaFree(halves);
  cudaFree(quads);
  cudaFree(words);
  cudaFree(wide);
  cudaFree(sum);
  return finish();
}
