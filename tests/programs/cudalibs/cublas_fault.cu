/* cublas_fault.cu: a host array passed to cublasSgemm as A. On a GPU
 * without access to pageable host memory the GEMM's kernel makes an
 * illegal memory access: the call itself succeeds (the kernel launched)
 * and the next synchronisation returns cudaErrorIllegalAddress, sticky.
 * cuemu reports the same, with a message naming the function and the
 * argument. (A GPU system with HMM or ATS reads the host array instead,
 * so this program checks cuemu's behaviour.)
 * CUEMU_OPTIONS: -lcublas */
#include <vector>

#include <cublas_v2.h>

#include "check_libs.h"

int main() {
  const int n = 8;
  cublasHandle_t h;
  EXPECT_STATUS(cublasCreate(&h), CUBLAS_STATUS_SUCCESS);
  std::vector<float> host(n * n, 1.0f);
  float *dB, *dC, one = 1.0f, zero = 0.0f;
  CHECK_CUDA(cudaMalloc(&dB, n * n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&dC, n * n * sizeof(float)));
  EXPECT_STATUS(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one,
                            host.data(), n, dB, n, &zero, dC, n),
                CUBLAS_STATUS_SUCCESS);
  cudaError_t e = cudaDeviceSynchronize();
  EXPECT(e == cudaErrorIllegalAddress, "cudaDeviceSynchronize gave %s",
         cudaGetErrorName(e));
  /* Sticky: the next call reports it too. */
  e = cudaMemcpy(host.data(), dC, sizeof(float), cudaMemcpyDeviceToHost);
  EXPECT(e == cudaErrorIllegalAddress, "the next cudaMemcpy gave %s",
         cudaGetErrorName(e));
  return finish();
}
