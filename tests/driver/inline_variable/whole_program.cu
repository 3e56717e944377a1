/* An `inline __device__` variable with external linkage (line 8), which
 * nvcc refuses without -rdc ("must have internal linkage when the program
 * is compiled in whole program mode"); -DINTERNAL gives it internal
 * linkage (static), as an unnamed namespace's has, and -rdc=true accepts
 * it as it is. Used by tests/driver_inline_variable.sh. */
#include <cstdio>
#ifndef INTERNAL
inline __device__ int g_count = 1;
#else
static inline __device__ int g_count = 1;
#endif
namespace {
inline __device__ int g_unnamed = 2;
}
static inline __device__ int g_static = 3;

__global__ void read_all(int* out) { out[0] = g_count + g_unnamed + g_static; }

int main() {
  int* d;
  int h = 0;
  cudaMalloc(&d, sizeof h);
  read_all<<<1, 1>>>(d);
  cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost);
  std::printf("%s\n", h == 6 ? "PASS" : "FAIL");
  return h != 6;
}
