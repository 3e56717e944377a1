// unoptimized_stack.cu: a kernel compiled without optimization (-g, as
// CMake's Debug configuration builds; also -G and -Xcompiler -O0) keeps a
// frame for every call it makes, and passes its arguments through them: a
// chain of 200 device functions that take a 512-byte tile by value needs
// over 100 KiB of stack at -O0, as Thrust's and CUB's agents do when
// their tuples are passed by value (trialdb: a reduce_by_key over six
// columns). It overflowed the emulated thread's 64 KiB stack; code
// compiled at -O0 now gets 256 KiB (CUEMU_STACK_SIZE still sets both).
// CUEMU_OPTIONS: -g
#include <cstdio>

struct unopt_tile {
  float v[128];
};

template <int N> __device__ float unopt_chain(unopt_tile t) {
  t.v[N % 128] += 1.0f;
  return unopt_chain<N - 1>(t);
}

template <> __device__ float unopt_chain<0>(unopt_tile t) {
  return t.v[0] + t.v[127];
}

__global__ void unopt_kernel(float *out) {
  unopt_tile t;
  for (int i = 0; i < 128; ++i)
    t.v[i] = float(threadIdx.x);
  out[threadIdx.x] = unopt_chain<200>(t);
}

int main() {
  float *d = nullptr, h[32];
  if (cudaMalloc(&d, sizeof h) != cudaSuccess)
    return 1;
  unopt_kernel<<<1, 32>>>(d);
  bool ok = cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost) == cudaSuccess;
  // v[0] is incremented at N = 128, v[127] at N = 127.
  for (int t = 0; ok && t < 32; ++t)
    ok = h[t] == 2.0f * float(t) + 2.0f;
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  cudaFree(d);
  return ok ? 0 : 1;
}
