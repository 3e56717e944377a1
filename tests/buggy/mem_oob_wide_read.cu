// mem_oob_wide_read.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// Vectorised 16-byte copies (float4) over an array whose length is not a
// multiple of four: the last thread's load runs 8 bytes past the end of the
// allocation. memcheck alone (no racecheck) decides accesses inline first
// (emulator/compile/cuemu_gcc_plugin_check.cc), which must hand this one to
// the whole check. g++ copies a float4 as four words, so the report names
// the first word past the end (+4088), where compute-sanitizer names the
// 16-byte load at +4080.
// CHECK: mem
// EXPECT: mem out-of-bounds read global +4088 thread (127,0,0) line 21
#include <cstdio>
#include <cuda_runtime.h>

constexpr int kN = 1022;  // floats: 255.5 float4s

/* Copies groups of four floats as whole float4s; the bound test counts
 * groups rounded up, the bug. */
__global__ void copy4(const float *in, float4 *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < (n + 3) / 4) {
    float4 v = reinterpret_cast<const float4 *>(in)[i];
    out[i] = v;
  }
}

int main() {
  float *in;
  float4 *out;
  cudaMalloc(&in, kN * sizeof(float));
  cudaMalloc(&out, 256 * sizeof(float4));
  cudaMemset(in, 0, kN * sizeof(float));
  copy4<<<2, 128>>>(in, out, kN);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorName(e));
  return 0;
}
