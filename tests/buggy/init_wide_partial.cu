// init_wide_partial.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// A 16-byte load (int4) of which only the first three words were written:
// the first kernel fills three ints of every group of four and leaves the
// fourth, the second copies whole groups. initcheck alone (no racecheck)
// decides accesses inline first (emulator/compile/cuemu_gcc_plugin_check.cc)
// and must find the one unwritten word of each group: g++ copies an int4 as
// four words, so the report names the fourth (+12) of thread 0's group.
// CHECK: init
// EXPECT: init uninitialised global +12 thread (0,0,0) line 25
#include <cstdio>
#include <cuda_runtime.h>

constexpr int kGroups = 64;

/* Writes words 0..2 of group i; word 3 is never written (the bug). */
__global__ void fill3(int *data) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int w = 0; w < 3; ++w)
    data[4 * i + w] = i + w;
}

/* Copies each group of four as one 16-byte value. */
__global__ void copy4(const int4 *data, int4 *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int4 v = data[i];
  out[i] = v;
}

int main() {
  int *data;
  int4 *out;
  cudaMalloc(&data, 4 * kGroups * sizeof(int));
  cudaMalloc(&out, kGroups * sizeof(int4));
  fill3<<<2, kGroups / 2>>>(data);
  copy4<<<2, kGroups / 2>>>(reinterpret_cast<const int4 *>(data), out);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorName(e));
  return 0;
}
