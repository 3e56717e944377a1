/* cublas_misaligned.cu: cublasSgemm with C one byte past the start of its
 * allocation. A GPU's GEMM kernel cannot store a float there: it faults
 * (cudaErrorMisalignedAddress), the call itself having succeeded. cuemu
 * faults the same way (cudaErrorMisalignedAddress, not an illegal address),
 * sticky, with a message naming the function, the argument
 * and the alignment, rather than computing on the misaligned array.
 * CUEMU_OPTIONS: -lcublas */
#include <cublas_v2.h>

#include "check_libs.h"

int main() {
  const int n = 4;
  cublasHandle_t h;
  EXPECT_STATUS(cublasCreate(&h), CUBLAS_STATUS_SUCCESS);
  char *d;
  CHECK_CUDA(cudaMalloc(&d, 3 * n * n * sizeof(float) + 16));
  CHECK_CUDA(cudaMemset(d, 0, 3 * n * n * sizeof(float) + 16));
  const float *A = (const float *)d;
  const float *B = (const float *)(d + n * n * sizeof(float));
  float *C = (float *)(d + 2 * n * n * sizeof(float) + 1);
  const float one = 1.0f, zero = 0.0f;
  EXPECT_STATUS(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, A, n, B,
                            n, &zero, C, n),
                CUBLAS_STATUS_SUCCESS);
  cudaError_t e = cudaDeviceSynchronize();
  EXPECT(e == cudaErrorMisalignedAddress,
         "a misaligned C: cudaDeviceSynchronize gave %s, not %s",
         cudaGetErrorName(e), cudaGetErrorName(cudaErrorMisalignedAddress));
  /* The fault is sticky: the next call that works with the device gives
   * it again. */
  e = cudaMemset(d, 0, 4);
  EXPECT(e == cudaErrorMisalignedAddress, "after the fault, cudaMemset gave %s",
         cudaGetErrorName(e));
  return finish();
}
