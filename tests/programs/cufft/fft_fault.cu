/* fft_fault.cu: a host array passed to cufftExecC2C as its input. On a
 * GPU without access to pageable host memory the transform's kernel makes
 * an illegal memory access: the call itself succeeds and the next
 * synchronisation returns cudaErrorIllegalAddress, sticky. cuemu reports
 * the same, with a message naming the function and the argument; a later
 * execution is CUFFT_EXEC_FAILED. (A GPU system with HMM or ATS reads the
 * host array instead, so this program checks cuemu's behaviour.)
 * CUEMU_OPTIONS: -lcufft */
#include <vector>

#include <cufft.h>

#include "../cudalibs/check_libs.h"

int main() {
  const int n = 32;
  std::vector<cufftComplex> host(n);
  cufftComplex *d;
  CHECK_CUDA(cudaMalloc(&d, n * sizeof(cufftComplex)));
  cufftHandle plan;
  EXPECT_STATUS(cufftPlan1d(&plan, n, CUFFT_C2C, 1), CUFFT_SUCCESS);
  EXPECT_STATUS(cufftExecC2C(plan, host.data(), d, CUFFT_FORWARD),
                CUFFT_SUCCESS);
  cudaError_t e = cudaDeviceSynchronize();
  EXPECT(e == cudaErrorIllegalAddress, "cudaDeviceSynchronize gave %s",
         cudaGetErrorName(e));
  e = cudaMemcpy(host.data(), d, sizeof(cufftComplex), cudaMemcpyDeviceToHost);
  EXPECT(e == cudaErrorIllegalAddress, "the next cudaMemcpy gave %s",
         cudaGetErrorName(e));
  EXPECT_STATUS(cufftExecC2C(plan, d, d, CUFFT_FORWARD), CUFFT_EXEC_FAILED);
  return finish();
}
