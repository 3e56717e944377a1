// bench_warp_lockstep.cu: the cost of running a warp-synchronous volatile
// tail in lockstep (docs/warp-lockstep.md): one launch of 4096 blocks of 256
// threads of a reduction whose last warp is unrolled through a volatile
// pointer, of the same with __syncwarp() between the steps (no volatile),
// and of the tree without a warp tail; the least CPU time of 7 of each.
// Then a search in which each lane keeps its stack in its own row of a
// __shared__ array (no exchange between lanes: not run in lockstep, 2026-12-05's
// ISPASS n-queens trial) over the same search with the stack in the
// thread's own local array; the ratio should stay near 1 (it was about 50
// while such rows were stepped). Run by hand:
// cuemu-nvcc -O2 bench/bench_warp_lockstep.cu -o b && CUEMU_WORKERS=1 ./b
#include <cstdio>
#include <ctime>
#include <cuda_runtime.h>
template <unsigned B> __device__ void tail_volatile(volatile float *s, unsigned t) {
  s[t] += s[t + 32]; s[t] += s[t + 16]; s[t] += s[t + 8];
  s[t] += s[t + 4]; s[t] += s[t + 2]; s[t] += s[t + 1];
}
template <unsigned B> __global__ void reduce_volatile(const float *in, float *out) {
  __shared__ float s[B];
  unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * B + t];
  __syncthreads();
  for (unsigned k = B / 2; k > 32; k >>= 1) { if (t < k) s[t] += s[t + k]; __syncthreads(); }
  if (t < 32) tail_volatile<B>(s, t);
  if (t == 0) out[blockIdx.x] = s[0];
}
/* The same with the modern tail: __syncwarp() between the steps. */
template <unsigned B> __global__ void reduce_syncwarp(const float *in, float *out) {
  __shared__ float s[B];
  unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * B + t];
  __syncthreads();
  for (unsigned k = B / 2; k > 32; k >>= 1) { if (t < k) s[t] += s[t + k]; __syncthreads(); }
  if (t < 32) {
    float v = s[t];
    for (unsigned k = 32; k > 0; k >>= 1) {
      v += s[t + k]; __syncwarp(); s[t] = v; __syncwarp();
    }
  }
  if (t == 0) out[blockIdx.x] = s[0];
}
/* Without volatile and without the tail: the tree down to one value. */
template <unsigned B> __global__ void reduce_plain(const float *in, float *out) {
  __shared__ float s[B];
  unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * B + t];
  __syncthreads();
  for (unsigned k = B / 2; k > 0; k >>= 1) { if (t < k) s[t] += s[t + k]; __syncthreads(); }
  if (t == 0) out[blockIdx.x] = s[0];
}
/* Counts the subsets of {1..12} whose sum is the lane's target by a
 * depth-first search whose stack is the lane's row of a __shared__ array
 * (subset_rows) or a local array (subset_local). */
#define SUBSET_SEARCH(SUM, NEXT)                                              \
  int found = 0, d = 0;                                                       \
  SUM[0] = 0;                                                                 \
  NEXT[0] = 1;                                                                \
  while (d >= 0) {                                                            \
    if (NEXT[d] > 12) { --d; continue; }                                      \
    const int v = NEXT[d]++, s = SUM[d] + v;                                  \
    if (s == target) ++found;                                                 \
    if (s < target) { SUM[d + 1] = s; NEXT[d + 1] = v + 1; ++d; }             \
  }                                                                           \
  counts[blockIdx.x * 64 + t] = found;
__global__ void subset_rows(int *counts) {
  __shared__ int sum[64][13], next[64][13];
  const int t = threadIdx.x, target = 10 + t;
  SUBSET_SEARCH(sum[t], next[t])
}
__global__ void subset_local(int *counts) {
  int sum[13], next[13];
  const int t = threadIdx.x, target = 10 + t;
  SUBSET_SEARCH(sum, next)
}
template <typename F> double best_ms(F f) {
  double best = 1e30;
  for (int r = 0; r < 7; ++r) {
    /* Process CPU time, which a loaded machine disturbs less than wall
     * time. */
    timespec a, b;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &a);
    f(); cudaDeviceSynchronize();
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &b);
    double ms = (b.tv_sec - a.tv_sec) * 1e3 + (b.tv_nsec - a.tv_nsec) * 1e-6;
    if (ms < best) best = ms;
  }
  return best;
}
int main() {
  const unsigned B = 256, blocks = 4096, n = B * blocks;
  float *in, *out;
  cudaMallocManaged(&in, n * sizeof(float));
  cudaMallocManaged(&out, blocks * sizeof(float));
  for (unsigned i = 0; i < n; ++i) in[i] = 1.0f;
  double v = best_ms([&] { reduce_volatile<B><<<blocks, B>>>(in, out); });
  float ok_v = out[7];
  double w = best_ms([&] { reduce_syncwarp<B><<<blocks, B>>>(in, out); });
  float ok_w = out[7];
  double p = best_ms([&] { reduce_plain<B><<<blocks, B>>>(in, out); });
  float ok_p = out[7];
  printf("volatile tail %.2f ms (%g), __syncwarp tail %.2f ms (%g), no tail %.2f ms (%g)\n", v, ok_v, w, ok_w, p, ok_p);
  int *counts;
  cudaMallocManaged(&counts, 64 * 64 * sizeof(int));
  double rows = best_ms([&] { subset_rows<<<64, 64>>>(counts); });
  int ok_r = counts[64 + 5];
  double local = best_ms([&] { subset_local<<<64, 64>>>(counts); });
  int ok_l = counts[64 + 5];
  printf("lane rows of __shared__ %.2f ms (%d), local arrays %.2f ms (%d): %.2fx\n", rows, ok_r, local, ok_l, rows / local);
}
