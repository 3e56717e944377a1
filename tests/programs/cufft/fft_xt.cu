/* fft_xt.cu: the single-GPU part of cufftXt.h: cufftXtMakePlanMany with
 * cudaDataType types, cufftXtExec and cufftXtGetSizeMany. Half precision
 * (CUDA_C_16F and CUDA_R_16F, power-of-2 lengths) against the host DFT of
 * the half inputs, within half's precision; single precision through the
 * same calls; a half plan of a length that is not a power of 2 is
 * CUFFT_NOT_SUPPORTED, and mismatched types are CUFFT_INVALID_TYPE.
 * CUEMU_OPTIONS: -lcufft */
#include <cuda_fp16.h>
#include <cufft.h>
#include <cufftXt.h>

#include "../cudalibs/check_libs.h"
#include "fft_host.h"

#define CHECK_FFT(call) EXPECT_STATUS(call, CUFFT_SUCCESS)

static void half_c2c(void) {
  const int n = 256, batch = 2;
  std::vector<__half2> h(n * batch);
  std::vector<cplx> x(n * batch);
  for (int i = 0; i < n * batch; ++i) {
    h[i] = __floats2half2_rn((float)host_value(20, 2 * i),
                             (float)host_value(20, 2 * i + 1));
    x[i].re = __low2float(h[i]), x[i].im = __high2float(h[i]);
  }
  __half2 *d;
  CHECK_CUDA(cudaMalloc(&d, h.size() * sizeof(__half2)));
  CHECK_CUDA(cudaMemcpy(d, h.data(), h.size() * sizeof(__half2),
                        cudaMemcpyHostToDevice));
  cufftHandle plan;
  long long dims[1] = {n};
  size_t size = 0;
  CHECK_FFT(cufftCreate(&plan));
  CHECK_FFT(cufftXtMakePlanMany(plan, 1, dims, NULL, 1, n, CUDA_C_16F, NULL,
                                1, n, CUDA_C_16F, batch, &size, CUDA_C_16F));
  CHECK_FFT(cufftXtExec(plan, d, d, CUFFT_FORWARD));
  std::vector<__half2> got(h.size());
  CHECK_CUDA(cudaMemcpy(got.data(), d, got.size() * sizeof(__half2),
                        cudaMemcpyDeviceToHost));
  rel_error e;
  for (int b = 0; b < batch; ++b) {
    std::vector<cplx> in(x.begin() + b * n, x.begin() + (b + 1) * n);
    std::vector<cplx> y = host_dft(in, -1);
    for (int k = 0; k < n; ++k)
      e.add(__low2float(got[b * n + k]), __high2float(got[b * n + k]), y[k]);
  }
  EXPECT(e.value() < 2e-3, "half C2C: relative error %.3g", e.value());
  CHECK_FFT(cufftDestroy(plan));
  CHECK_CUDA(cudaFree(d));
}

static void half_r2c(void) {
  const int n = 64, half = n / 2 + 1;
  std::vector<__half> h(n);
  std::vector<cplx> x(n);
  for (int i = 0; i < n; ++i) {
    h[i] = __float2half((float)host_value(21, i));
    x[i].re = __half2float(h[i]), x[i].im = 0;
  }
  __half *in;
  __half2 *out;
  CHECK_CUDA(cudaMalloc(&in, n * sizeof(__half)));
  CHECK_CUDA(cudaMalloc(&out, half * sizeof(__half2)));
  CHECK_CUDA(cudaMemcpy(in, h.data(), n * sizeof(__half),
                        cudaMemcpyHostToDevice));
  cufftHandle plan;
  long long dims[1] = {n};
  size_t size = 0;
  CHECK_FFT(cufftCreate(&plan));
  CHECK_FFT(cufftXtMakePlanMany(plan, 1, dims, NULL, 1, n, CUDA_R_16F, NULL,
                                1, half, CUDA_C_16F, 1, &size, CUDA_C_16F));
  CHECK_FFT(cufftXtExec(plan, in, out, CUFFT_FORWARD));
  std::vector<__half2> got(half);
  CHECK_CUDA(cudaMemcpy(got.data(), out, half * sizeof(__half2),
                        cudaMemcpyDeviceToHost));
  std::vector<cplx> y = host_dft(x, -1);
  rel_error e;
  for (int k = 0; k < half; ++k)
    e.add(__low2float(got[k]), __high2float(got[k]), y[k]);
  EXPECT(e.value() < 2e-3, "half R2C: relative error %.3g", e.value());
  CHECK_FFT(cufftDestroy(plan));
  CHECK_CUDA(cudaFree(in));
  CHECK_CUDA(cudaFree(out));
}

static void single_through_xt(void) {
  const int n = 100;
  std::vector<cufftComplex> h(n);
  std::vector<cplx> x(n);
  for (int i = 0; i < n; ++i) {
    h[i].x = (float)host_value(22, 2 * i), h[i].y = (float)host_value(22, 2 * i + 1);
    x[i].re = h[i].x, x[i].im = h[i].y;
  }
  cufftComplex *d;
  CHECK_CUDA(cudaMalloc(&d, n * sizeof(cufftComplex)));
  CHECK_CUDA(cudaMemcpy(d, h.data(), n * sizeof(cufftComplex),
                        cudaMemcpyHostToDevice));
  cufftHandle plan;
  long long dims[1] = {n};
  size_t size = 0, estimate = 0;
  CHECK_FFT(cufftCreate(&plan));
  CHECK_FFT(cufftXtGetSizeMany(plan, 1, dims, NULL, 1, n, CUDA_C_32F, NULL, 1,
                               n, CUDA_C_32F, 1, &estimate, CUDA_C_32F));
  CHECK_FFT(cufftXtMakePlanMany(plan, 1, dims, NULL, 1, n, CUDA_C_32F, NULL,
                                1, n, CUDA_C_32F, 1, &size, CUDA_C_32F));
  CHECK_FFT(cufftXtExec(plan, d, d, CUFFT_INVERSE));
  std::vector<cufftComplex> got(n);
  CHECK_CUDA(cudaMemcpy(got.data(), d, n * sizeof(cufftComplex),
                        cudaMemcpyDeviceToHost));
  std::vector<cplx> y = host_dft(x, 1);
  rel_error e;
  for (int k = 0; k < n; ++k)
    e.add(got[k].x, got[k].y, y[k]);
  EXPECT(e.value() < 2e-6, "C2C through cufftXtExec: relative error %.3g",
         e.value());
  CHECK_FFT(cufftDestroy(plan));
  CHECK_CUDA(cudaFree(d));
}

static void refused(void) {
  cufftHandle plan;
  long long dims[1] = {100};
  size_t size;
  CHECK_FFT(cufftCreate(&plan));
  EXPECT_STATUS(cufftXtMakePlanMany(plan, 1, dims, NULL, 1, 100, CUDA_C_16F,
                                    NULL, 1, 100, CUDA_C_16F, 1, &size,
                                    CUDA_C_16F),
                CUFFT_NOT_SUPPORTED);
  EXPECT_STATUS(cufftXtMakePlanMany(plan, 1, dims, NULL, 1, 100, CUDA_C_32F,
                                    NULL, 1, 100, CUDA_C_64F, 1, &size,
                                    CUDA_C_32F),
                CUFFT_INVALID_TYPE);
  CHECK_FFT(cufftDestroy(plan));
}

int main() {
  half_c2c();
  half_r2c();
  single_through_xt();
  refused();
  return finish();
}
