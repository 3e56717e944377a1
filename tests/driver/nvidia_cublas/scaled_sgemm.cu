// scaled_sgemm.cu: a program of a kernel and cuBLAS calls whose link
// (by the C++ compiler, the system toolkit's lib64 first) may take
// NVIDIA's libcublas.so.13: C = A * B by cublasSgemm on 2x2 matrices, then
// doubled by a kernel. Prints PASS where C is right.
#include <cstdio>

#include <cublas_v2.h>
#include <cuda_runtime.h>

__global__ void scale(float *c, float by, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] *= by;
}

int main() {
  // Column-major A = [1 2; 3 4], B = [5 6; 7 8]; A * B = [19 22; 43 50].
  const float a[4] = {1, 3, 2, 4}, b[4] = {5, 7, 6, 8};
  const float want[4] = {38, 86, 44, 100};
  float c[4] = {0, 0, 0, 0};
  cublasHandle_t handle;
  cublasStatus_t status = cublasCreate(&handle);
  if (status != CUBLAS_STATUS_SUCCESS) {
    printf("cublasCreate: %d\n", (int)status);
    return 1;
  }
  float *da, *db, *dc;
  cudaMalloc(&da, sizeof a);
  cudaMalloc(&db, sizeof b);
  cudaMalloc(&dc, sizeof c);
  cudaMemcpy(da, a, sizeof a, cudaMemcpyHostToDevice);
  cudaMemcpy(db, b, sizeof b, cudaMemcpyHostToDevice);
  const float one = 1, zero = 0;
  status = cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &one, da, 2,
                       db, 2, &zero, dc, 2);
  scale<<<1, 4>>>(dc, 2.0f, 4);
  cudaMemcpy(c, dc, sizeof c, cudaMemcpyDeviceToHost);
  cublasDestroy(handle);
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
  for (int i = 0; i < 4; ++i)
    if (status != CUBLAS_STATUS_SUCCESS || c[i] != want[i]) {
      printf("FAIL: c[%d] = %g, want %g (status %d)\n", i, c[i], want[i],
             (int)status);
      return 1;
    }
  printf("PASS\n");
  return 0;
}
