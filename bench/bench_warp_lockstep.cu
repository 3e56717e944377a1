// bench_warp_lockstep.cu: the cost of running a warp-synchronous volatile
// tail in lockstep (docs/warp-lockstep.md): one launch of 4096 blocks of 256
// threads of a reduction whose last warp is unrolled through a volatile
// pointer, of the same with __syncwarp() between the steps (no volatile),
// and of the tree without a warp tail; the least CPU time of 7 of each. Run by hand:
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
}
