// C = A B through cuBLAS for main.cu: 0 on success, else the failing
// step's number (1 cublasCreate, 2 cublasSgemm, 3 the copy back).
#include <cublas_v2.h>
#include <cuda_runtime.h>

int device_product(const float *a, const float *b, float *c, int n) {
  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS)
    return 1;
  size_t bytes = sizeof(float) * n * n;
  float *da, *db, *dc;
  cudaMalloc(&da, bytes);
  cudaMalloc(&db, bytes);
  cudaMalloc(&dc, bytes);
  cudaMemcpy(da, a, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(db, b, bytes, cudaMemcpyHostToDevice);
  const float one = 1, zero = 0;
  int failed = cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one,
                           da, n, db, n, &zero, dc, n) != CUBLAS_STATUS_SUCCESS
                   ? 2
                   : 0;
  if (!failed && cudaMemcpy(c, dc, bytes, cudaMemcpyDeviceToHost) != cudaSuccess)
    failed = 3;
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
  cublasDestroy(handle);
  return failed;
}
