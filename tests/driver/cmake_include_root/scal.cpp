// Scales a vector with cuBLAS from a C++ file that the host compiler
// compiles alone (CMakeLists.txt): every element of {1, 2, ..., 8} times 3.
#include <cstdio>
#include <cublas_v2.h>
#include <cuda_runtime.h>

int main() {
  const int n = 8;
  float h[n];
  for (int i = 0; i < n; ++i)
    h[i] = float(i + 1);
  float *d = nullptr;
  cublasHandle_t handle = nullptr;
  const float alpha = 3.0f;
  if (cudaMalloc(&d, sizeof h) != cudaSuccess ||
      cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice) != cudaSuccess ||
      cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS ||
      cublasSscal(handle, n, &alpha, d, 1) != CUBLAS_STATUS_SUCCESS ||
      cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost) != cudaSuccess) {
    std::printf("FAIL: a CUDA or cuBLAS call failed\n");
    return 1;
  }
  cublasDestroy(handle);
  cudaFree(d);
  for (int i = 0; i < n; ++i)
    if (h[i] != 3.0f * float(i + 1)) {
      std::printf("FAIL: element %d is %g, not %g\n", i, h[i], 3.0f * float(i + 1));
      return 1;
    }
  std::printf("PASS: cuBLAS found from the include folder's root scaled the vector\n");
  return 0;
}
