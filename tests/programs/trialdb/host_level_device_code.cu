// host_level_device_code.cu: nvcc's -O is the host code's optimization
// level; device code stays optimized unless -G. A chain of small device
// functions that pass a 512-byte row by value, as Thrust's agents pass
// their tuples, needs a frame per call when it is not inlined: built at
// -O0, it overflowed the emulated thread's 64 KiB stack, where the GPU
// build of `nvcc -O0` runs (the device pass's -O2 now follows the user's
// -O, emulator/compile/cuemu_compile.c).
// From the trialdb trial (GPU query operators), kept as a test by
// tests/programs_trialdb.sh.
// CUEMU_OPTIONS: -O0 -I. -rdc=true --expt-relaxed-constexpr --extended-lambda gdb/hash_device.cu gdb/select_device.cu gdb/host_ref.cpp gdb/device_info.cpp
// NVCC_OPTIONS: -I. -rdc=true --expt-relaxed-constexpr --extended-lambda
#include <cstdio>

struct row64 {
  float x[128];
};

template <int N>
__device__ inline float touch_all(row64 r) {
  r.x[N % 128] += 1.f;
  return touch_all<N - 1>(r);
}

template <>
__device__ inline float touch_all<0>(row64 r) {
  return r.x[0] + r.x[63];
}

__global__ void chain_kernel(float* out) {
  row64 r;
  for (int i = 0; i < 128; ++i) r.x[i] = float(threadIdx.x);
  out[threadIdx.x] = touch_all<160>(r);
}

int main() {
  float* d = nullptr;
  if (cudaMalloc(&d, 32 * sizeof(float)) != cudaSuccess) return 1;
  chain_kernel<<<1, 32>>>(d);
  float h[32];
  const cudaError_t e = cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  bool ok = e == cudaSuccess;
  // Elements 0 and 63 are incremented once each (N = 128 and N = 63).
  for (int t = 0; ok && t < 32; ++t) ok = h[t] == 2.f * (float(t) + 1.f);
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  cudaFree(d);
  return ok ? 0 : 1;
}
