// live_across_barriers.cu: values kept in registers across __syncthreads().
//
// On x86-64 a thread suspended at __syncthreads() saves only its frame
// pointer and resume address (emulator/core/cuemu_block_sync_x86_64.S): the
// kernel code itself must keep every value it needs afterwards. These
// kernels keep many integer, pointer, float and double values live across
// barriers (more than there are registers), in a loop, in a device function
// that is not inlined, and in a kernel whose only call is the barrier (a
// leaf function but for it), and check every result against a host
// computation. Blocks of 1024 threads make the run queue wrap.
#include <cstdio>
#include <vector>

#include "../check.cuh"
#include "../live_mix.cuh"

// Each round: read a neighbour's shared value written before the barrier,
// then fold every live value in.
__global__ void rounds_kernel(double *out, int rounds) {
  __shared__ double cell[1024];
  unsigned t = threadIdx.x, n = blockDim.x;
  Mix m = make_mix(t + blockIdx.x * n);
  double acc = 0;
  for (int r = 0; r < rounds; ++r) {
    cell[t] = mix_sum(m, r) + r;
    __syncthreads();
    acc += cell[(t + 1 + r) % n];
    __syncthreads();
    for (int k = 0; k < 6; ++k)
      m.a[k] += r;
    for (int k = 0; k < 5; ++k)
      m.d[k] *= 1.0 + 1.0 / 1024;
  }
  out[blockIdx.x * n + t] = acc + mix_sum(m, rounds);
}

// A device function that waits, called with live values in its caller.
__device__ __noinline__ int wait_and_add(int *cell, int v) {
  unsigned t = threadIdx.x;
  cell[t] = v;
  __syncthreads();
  int left = cell[(t + blockDim.x - 1) % blockDim.x];
  __syncthreads();
  return v + left;
}

__global__ void nested_kernel(int *out) {
  __shared__ int cell[1024];
  unsigned t = threadIdx.x;
  int x0 = t, x1 = t * 3, x2 = t ^ 0x55, x3 = t * t, x4 = 7 - t, x5 = t << 2;
  int y = wait_and_add(cell, x0 + x1);
  y += wait_and_add(cell, x2 - x3);
  out[blockIdx.x * blockDim.x + t] = y + x0 + x1 + x2 + x3 + x4 + x5;
}

// No call but the barrier: values in the caller-saved registers.
__global__ void leaf_kernel(unsigned *out) {
  __shared__ unsigned cell[1024];
  unsigned t = threadIdx.x, a = t * 2654435761u, b = a ^ (a >> 7);
  cell[t] = a;
  __syncthreads();
  out[blockIdx.x * blockDim.x + t] = cell[blockDim.x - 1 - t] + b + a;
}

int main() {
  const int blocks = 3, threads = 1024, rounds = 4, n = blocks * threads;
  double *d;
  int *i;
  unsigned *u;
  cudaMalloc(&d, n * sizeof(double));
  cudaMalloc(&i, n * sizeof(int));
  cudaMalloc(&u, n * sizeof(unsigned));
  rounds_kernel<<<blocks, threads>>>(d, rounds);
  nested_kernel<<<blocks, threads>>>(i);
  leaf_kernel<<<blocks, threads>>>(u);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  std::vector<double> hd(n);
  std::vector<int> hi(n);
  std::vector<unsigned> hu(n);
  cudaMemcpy(hd.data(), d, n * sizeof(double), cudaMemcpyDeviceToHost);
  cudaMemcpy(hi.data(), i, n * sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(hu.data(), u, n * sizeof(unsigned), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int b = 0; b < blocks; ++b) {
    // The host's rounds, for the whole block at once.
    std::vector<Mix> m(threads);
    std::vector<double> acc(threads, 0.0), cell(threads);
    for (int t = 0; t < threads; ++t)
      m[t] = make_mix(t + b * threads);
    for (int r = 0; r < rounds; ++r) {
      for (int t = 0; t < threads; ++t)
        cell[t] = mix_sum(m[t], r) + r;
      for (int t = 0; t < threads; ++t) {
        acc[t] += cell[(t + 1 + r) % threads];
        for (int k = 0; k < 6; ++k)
          m[t].a[k] += r;
        for (int k = 0; k < 5; ++k)
          m[t].d[k] *= 1.0 + 1.0 / 1024;
      }
    }
    for (int t = 0; t < threads; ++t) {
      int g = b * threads + t;
      double want = acc[t] + mix_sum(m[t], rounds);
      if (hd[g] != want && bad++ < 5)
        std::fprintf(stderr, "rounds: block %d thread %d: %.17g, expected %.17g\n",
                     b, t, hd[g], want);
      int x0 = t, x1 = t * 3, x2 = t ^ 0x55, x3 = t * t, x4 = 7 - t, x5 = t << 2;
      int l = (t + threads - 1) % threads;
      int v1 = x0 + x1, v1l = l + l * 3;
      int v2 = x2 - x3, v2l = (l ^ 0x55) - l * l;
      int wi = (v1 + v1l) + (v2 + v2l) + x0 + x1 + x2 + x3 + x4 + x5;
      if (hi[g] != wi && bad++ < 5)
        std::fprintf(stderr, "nested: block %d thread %d: %d, expected %d\n", b,
                     t, hi[g], wi);
      unsigned a = t * 2654435761u, bb = a ^ (a >> 7);
      unsigned wu = (threads - 1 - t) * 2654435761u + bb + a;
      if (hu[g] != wu && bad++ < 5)
        std::fprintf(stderr, "leaf: block %d thread %d: %u, expected %u\n", b, t,
                     hu[g], wu);
    }
  }
  CHECK(bad == 0);
  cudaFree(d);
  cudaFree(i);
  cudaFree(u);
  return finish();
}
