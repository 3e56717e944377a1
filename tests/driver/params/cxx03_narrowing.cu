// C++03 code, as nvcc -std=c++03 compiles it: narrowing conversions in
// braces (no rule of C++03 forbids them) in host code. Under -std=c++11
// they are the host compiler's errors, with nvcc too.
#include <cstdio>

#include <cuda_runtime.h>

struct Window {
  int first, count;
};

__global__ void mark(int *out, Window w) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < w.count)
    out[w.first + i] = 1;
}

int main() {
  double start = 2.75;
  Window w = {start, 4.0};
  int *out;
  cudaMallocManaged(&out, 8 * sizeof(int));
  for (int i = 0; i < 8; ++i)
    out[i] = 0;
  mark<<<1, 32>>>(out, w);
  cudaDeviceSynchronize();
  int marked = 0;
  for (int i = 0; i < 8; ++i)
    marked += out[i] << i;
  std::printf("%d\n", marked);
  cudaFree(out);
  return marked == (1 << 2 | 1 << 3 | 1 << 4 | 1 << 5) ? 0 : 1;
}
