// local_size_debug.cu: cudaFuncAttributes::localSizeBytes of kernels with
// large private arrays in a debug build (-G), whose frames are made by a
// prologue that probes the stack a page at a time (unrolled for a few
// pages, a loop for more), and of a kernel that takes a run-time amount
// with alloca, whose localSizeBytes is its static frame only (as ptxas
// reports a "0 bytes stack frame" for it: the rest is dynamic). Each
// kernel is run, so that the sizes are those of code that works.
// CUEMU_OPTIONS: -G
// NVCC_OPTIONS: -G
#include <cuda_runtime.h>

#include <cstdio>

#include "../check.cuh"

#define RT(call) CHECK((call) == cudaSuccess)

template <int N> __global__ void histogram_private(const int *in, int *out) {
  int bins[N];
  for (int i = 0; i < N; ++i)
    bins[i] = 0;
  for (int i = 0; i < 64; ++i)
    bins[(in[i] * 7919) % N] += 1;
  int s = 0;
  for (int i = 0; i < N; ++i)
    s += bins[i] * (i & 1);
  out[blockIdx.x] = s;
}

__global__ void scratch_alloca(int n, int *out) {
  int *buf = static_cast<int *>(alloca(n * sizeof(int)));
  for (int i = 0; i < n; ++i)
    buf[i] = i;
  out[0] = buf[n - 1];
}

template <class K> static size_t local_size(K *kernel) {
  cudaFuncAttributes a = {};
  RT(cudaFuncGetAttributes(&a, kernel));
  return a.localSizeBytes;
}

int main() {
  int *in, *out;
  RT(cudaMalloc(&in, 64 * sizeof(int)));
  RT(cudaMalloc(&out, 4 * sizeof(int)));
  int host[64];
  for (int i = 0; i < 64; ++i)
    host[i] = i;
  RT(cudaMemcpy(in, host, sizeof host, cudaMemcpyHostToDevice));
  // 16 KiB (probed page by page) and 32 KiB (a probing loop).
  size_t small = local_size(histogram_private<4096>);
  size_t large = local_size(histogram_private<8192>);
  CHECK(small >= 4096 * sizeof(int) && small < 4096 * sizeof(int) + 4096);
  CHECK(large >= 8192 * sizeof(int) && large < 8192 * sizeof(int) + 4096);
  size_t dynamic = local_size(scratch_alloca);
  CHECK(dynamic < 1024);
  histogram_private<4096><<<2, 1>>>(in, out);
  histogram_private<8192><<<1, 1>>>(in, out + 2);
  scratch_alloca<<<1, 1>>>(100, out + 3);
  RT(cudaDeviceSynchronize());
  int got[4];
  RT(cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost));
  CHECK(got[3] == 99);
  CHECK(got[0] == got[1]);
  std::printf("localSizeBytes: %zu, %zu, alloca %zu\n", small, large, dynamic);
  RT(cudaFree(in));
  RT(cudaFree(out));
  return finish();
}
