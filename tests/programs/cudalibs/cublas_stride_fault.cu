/* cublas_stride_fault.cu: cublasSgemmStridedBatched with a negative stride
 * for C that puts its second matrix before the start of C's allocation. A
 * GPU's kernel stores there and faults (cudaErrorIllegalAddress, the call
 * having succeeded); cuemu faults too, with a message naming the argument,
 * rather than writing the host memory below the allocation. The same
 * negative stride from the last matrix of the allocation is valid and
 * computes every batch.
 * CUEMU_OPTIONS: -lcublas */
#include <vector>

#include <cublas_v2.h>

#include "check_libs.h"

int main() {
  const int n = 4, batch = 2, nn = n * n;
  cublasHandle_t h;
  EXPECT_STATUS(cublasCreate(&h), CUBLAS_STATUS_SUCCESS);
  std::vector<float> A(nn), I(nn, 0.0f), C(batch * nn);
  for (int i = 0; i < nn; ++i)
    A[i] = (float)(i + 1);
  for (int i = 0; i < n; ++i)
    I[i + i * n] = 1.0f;
  float *dA, *dI, *dC;
  CHECK_CUDA(cudaMalloc(&dA, nn * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&dI, nn * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&dC, batch * nn * sizeof(float)));
  CHECK_CUDA(
      cudaMemcpy(dA, A.data(), nn * sizeof(float), cudaMemcpyHostToDevice));
  CHECK_CUDA(
      cudaMemcpy(dI, I.data(), nn * sizeof(float), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemset(dC, 0, batch * nn * sizeof(float)));
  const float one = 1.0f, two = 2.0f, zero = 0.0f;
  /* Valid: C starts at the last matrix, stride -nn; batch 1 lands on the
   * first matrix of the allocation. */
  EXPECT_STATUS(cublasSgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n,
                                          &two, dA, n, 0, dI, n, 0, &zero,
                                          dC + nn, n, -nn, batch),
                CUBLAS_STATUS_SUCCESS);
  CHECK_CUDA(cudaMemcpy(C.data(), dC, batch * nn * sizeof(float),
                        cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < batch * nn; ++i)
    bad += C[i] != 2.0f * A[i % nn];
  EXPECT(bad == 0, "a negative stride from the last matrix: %d wrong", bad);
  /* Invalid: from the first matrix, batch 1 is below the allocation. */
  EXPECT_STATUS(cublasSgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n,
                                          &one, dA, n, 0, dI, n, 0, &zero, dC,
                                          n, -nn, batch),
                CUBLAS_STATUS_SUCCESS);
  cudaError_t e = cudaDeviceSynchronize();
  EXPECT(e == cudaErrorIllegalAddress,
         "C's batch below its allocation: cudaDeviceSynchronize gave %s",
         cudaGetErrorString(e));
  return finish();
}
