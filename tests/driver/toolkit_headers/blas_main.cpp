// blas_main.cpp: host code that includes the toolkit's library headers
// before <cuda_runtime.h>, as much host code does: cuBLAS's, cuFFT's and
// cuSOLVER's headers include the runtime's type headers by quotes, and
// cuemu-nvcc once failed on them ("redefinition of struct char1"). Scales
// a vector by a kernel of kernels.cu, then adds another with cublasSaxpy.
#include <cublas_v2.h>
#include <cufft.h>
#include <cusolverDn.h>
#include <cuda_runtime.h>

#include <cstdio>

#include "kernels.cuh"

int main() {
  const int n = 1000;
  float hx[n], hy[n];
  for (int i = 0; i < n; ++i) {
    hx[i] = static_cast<float>(i);
    hy[i] = 1.0f;
  }
  float *x = nullptr, *y = nullptr;
  if (cudaMalloc(&x, sizeof hx) != cudaSuccess ||
      cudaMalloc(&y, sizeof hy) != cudaSuccess)
    return 1;
  cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice);
  cudaMemcpy(y, hy, sizeof hy, cudaMemcpyHostToDevice);
  scale_on_device(x, n, 2.0f);  // x = 2 i
  cublasHandle_t blas;
  if (cublasCreate(&blas) != CUBLAS_STATUS_SUCCESS)
    return 2;
  const float alpha = 3.0f;
  cublasSaxpy(blas, n, &alpha, x, 1, y, 1);  // y = 6 i + 1
  cudaMemcpy(hy, y, sizeof hy, cudaMemcpyDeviceToHost);
  cublasDestroy(blas);
  cufftHandle plan;
  const bool fft = cufftPlan1d(&plan, 64, CUFFT_C2C, 1) == CUFFT_SUCCESS &&
                   cufftDestroy(plan) == CUFFT_SUCCESS;
  int bad = 0;
  for (int i = 0; i < n; ++i)
    bad += hy[i] != 6.0f * i + 1.0f;
  cudaFree(x);
  cudaFree(y);
  std::printf("%d wrong, cuFFT plan %s\n", bad, fft ? "made" : "refused");
  std::printf("%s\n", bad == 0 && fft ? "PASS" : "FAIL");
  return bad == 0 && fft ? 0 : 1;
}
