// kernel_named_like_auto_host_function.cu: a kernel and a host function of
// the same name where the host function's return type is deduced (`auto`)
// and it launches the kernel before its first return statement, as
// tail-island/cuda-primer's mandelbrot-cuda-ng does
// (`inline auto mandelbrot_set(float, float, float, float)` launching
// `mandelbrot_set<<<1, 1>>>(..., result_device)`). Until its return type is
// deduced, the function may not be named outside a call, so the launch may
// not take the address of the overload set there (g++: "use of 'auto
// squares(int)' before deduction of 'auto'"); nvcc picks the kernel by the
// launch's arguments, as a call would. A second pair, in a namespace and
// launched by its qualified name, makes the name one of kernels in two
// namespaces, whose launch the call itself picks.
#include <cstdio>
#include <vector>

#include <cuda_runtime.h>

__global__ void squares(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = i * i;
}

inline auto squares(int n) {
  int *d_out = nullptr;
  std::vector<int> result(n, -1);
  cudaMalloc(&d_out, n * sizeof(int));
  squares<<<(n + 31) / 32, 32>>>(d_out, n);
  cudaMemcpy(result.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(d_out);
  return result;
}

namespace grid {
__global__ void squares(long *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = 2L * i * i;
}

// The same in a namespace, launched by its qualified name.
inline auto squares(int n, long scale) {
  long *d_out = nullptr;
  std::vector<long> result(n, -1);
  cudaMalloc(&d_out, n * sizeof(long));
  grid::squares<<<2, 32>>>(d_out, n);
  cudaMemcpy(result.data(), d_out, n * sizeof(long), cudaMemcpyDeviceToHost);
  cudaFree(d_out);
  for (long &v : result)
    v *= scale;
  return result;
}
} // namespace grid

int main() {
  const std::vector<int> a = squares(50);
  const std::vector<long> b = grid::squares(40, 3);
  if (cudaGetLastError() != cudaSuccess) {
    printf("FAIL: %s\n", cudaGetErrorString(cudaGetLastError()));
    return 1;
  }
  for (int i = 0; i < 50; ++i)
    if (a[i] != i * i) {
      printf("FAIL: squares(50)[%d] = %d, expected %d\n", i, a[i], i * i);
      return 1;
    }
  for (int i = 0; i < 40; ++i)
    if (b[i] != 6L * i * i) {
      printf("FAIL: grid::squares(40, 3)[%d] = %ld, expected %ld\n", i, b[i],
             6L * i * i);
      return 1;
    }
  printf("PASS\n");
  return 0;
}
