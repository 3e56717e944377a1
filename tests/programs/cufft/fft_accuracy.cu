/* fft_accuracy.cu: cuFFT's 1-D transforms against a direct DFT, for
 * lengths that are powers of 2, products of 2, 3, 5 and 7, primes (the
 * Bluestein path) and 1: C2C and Z2Z both ways, R2C and D2Z (the n/2 + 1
 * Hermitian half), C2R and Z2D (a real signal back from its half
 * spectrum, unnormalised), batched, in place and out of place. The bound
 * is a relative 2-norm error of 2e-6 (single) and 1e-12 (double).
 * CUEMU_OPTIONS: -lcufft */
#include <cufft.h>

#include "../cudalibs/check_libs.h"
#include "fft_host.h"

#define CHECK_FFT(call) EXPECT_STATUS(call, CUFFT_SUCCESS)

static const int sizes[] = {1, 2, 3, 4, 5, 6, 7, 8, 11, 12, 13, 16, 17, 30,
                            49, 64, 97, 100, 127, 128, 243, 256, 343, 1000,
                            1009, 1024};

/* Batch `batch` complex signals of length n through a C2C (or Z2Z) plan
 * in direction `sign`, in place or not. */
template <typename C>
static double complex_case(int n, int batch, int sign, bool in_place) {
  const bool dbl = sizeof(C) == sizeof(cufftDoubleComplex);
  std::vector<C> h((size_t)n * batch);
  for (size_t i = 0; i < h.size(); ++i) {
    h[i].x = host_value(n, 2 * i);
    h[i].y = host_value(n, 2 * i + 1);
  }
  C *in, *out;
  CHECK_CUDA(cudaMalloc(&in, h.size() * sizeof(C)));
  out = in;
  if (!in_place)
    CHECK_CUDA(cudaMalloc(&out, h.size() * sizeof(C)));
  CHECK_CUDA(cudaMemcpy(in, h.data(), h.size() * sizeof(C),
                        cudaMemcpyHostToDevice));
  cufftHandle plan;
  CHECK_FFT(cufftPlan1d(&plan, n, dbl ? CUFFT_Z2Z : CUFFT_C2C, batch));
  if (dbl)
    CHECK_FFT(cufftExecZ2Z(plan, (cufftDoubleComplex *)in,
                           (cufftDoubleComplex *)out, sign));
  else
    CHECK_FFT(cufftExecC2C(plan, (cufftComplex *)in, (cufftComplex *)out,
                           sign));
  std::vector<C> got(h.size());
  CHECK_CUDA(cudaMemcpy(got.data(), out, got.size() * sizeof(C),
                        cudaMemcpyDeviceToHost));
  rel_error e;
  for (int b = 0; b < batch; ++b) {
    std::vector<cplx> x(n);
    for (int i = 0; i < n; ++i)
      x[i].re = h[(size_t)b * n + i].x, x[i].im = h[(size_t)b * n + i].y;
    std::vector<cplx> y = host_dft(x, sign);
    for (int k = 0; k < n; ++k)
      e.add(got[(size_t)b * n + k].x, got[(size_t)b * n + k].y, y[k]);
  }
  CHECK_FFT(cufftDestroy(plan));
  CHECK_CUDA(cudaFree(in));
  if (!in_place)
    CHECK_CUDA(cudaFree(out));
  return e.value();
}

/* R2C (or D2Z) then C2R (or Z2D) of `batch` real signals of length n, out
 * of place: the half spectrum against the DFT, and the signal back times n. */
template <typename R, typename C>
static void real_case(int n, int batch, double bound) {
  const bool dbl = sizeof(R) == sizeof(double);
  const int half = n / 2 + 1;
  std::vector<R> h((size_t)n * batch);
  for (size_t i = 0; i < h.size(); ++i)
    h[i] = (R)host_value(n + 7, i);
  R *real;
  C *spectrum;
  CHECK_CUDA(cudaMalloc(&real, h.size() * sizeof(R)));
  CHECK_CUDA(cudaMalloc(&spectrum, (size_t)half * batch * sizeof(C)));
  CHECK_CUDA(cudaMemcpy(real, h.data(), h.size() * sizeof(R),
                        cudaMemcpyHostToDevice));
  cufftHandle forward, inverse;
  CHECK_FFT(cufftPlan1d(&forward, n, dbl ? CUFFT_D2Z : CUFFT_R2C, batch));
  CHECK_FFT(cufftPlan1d(&inverse, n, dbl ? CUFFT_Z2D : CUFFT_C2R, batch));
  if (dbl)
    CHECK_FFT(cufftExecD2Z(forward, (cufftDoubleReal *)real,
                           (cufftDoubleComplex *)spectrum));
  else
    CHECK_FFT(cufftExecR2C(forward, (cufftReal *)real, (cufftComplex *)spectrum));
  std::vector<C> got((size_t)half * batch);
  CHECK_CUDA(cudaMemcpy(got.data(), spectrum, got.size() * sizeof(C),
                        cudaMemcpyDeviceToHost));
  rel_error e, back;
  for (int b = 0; b < batch; ++b) {
    std::vector<cplx> x(n);
    for (int i = 0; i < n; ++i)
      x[i].re = h[(size_t)b * n + i], x[i].im = 0;
    std::vector<cplx> y = host_dft(x, -1);
    for (int k = 0; k < half; ++k)
      e.add(got[(size_t)b * half + k].x, got[(size_t)b * half + k].y, y[k]);
  }
  EXPECT(e.value() < bound, "R2C n=%d batch=%d: relative error %.3g", n,
         batch, e.value());
  if (dbl)
    CHECK_FFT(cufftExecZ2D(inverse, (cufftDoubleComplex *)spectrum,
                           (cufftDoubleReal *)real));
  else
    CHECK_FFT(cufftExecC2R(inverse, (cufftComplex *)spectrum, (cufftReal *)real));
  std::vector<R> again(h.size());
  CHECK_CUDA(cudaMemcpy(again.data(), real, again.size() * sizeof(R),
                        cudaMemcpyDeviceToHost));
  for (size_t i = 0; i < h.size(); ++i) {
    cplx want = {(long double)h[i] * n, 0};
    back.add(again[i], 0, want);
  }
  EXPECT(back.value() < bound, "C2R n=%d batch=%d: relative error %.3g", n,
         batch, back.value());
  CHECK_FFT(cufftDestroy(forward));
  CHECK_FFT(cufftDestroy(inverse));
  CHECK_CUDA(cudaFree(real));
  CHECK_CUDA(cudaFree(spectrum));
}

int main() {
  double worst_single = 0, worst_double = 0;
  for (int n : sizes) {
    int batch = n < 100 ? 3 : 1;
    for (int sign : {CUFFT_FORWARD, CUFFT_INVERSE}) {
      double s = complex_case<cufftComplex>(n, batch, sign, n % 2 == 0);
      double d = complex_case<cufftDoubleComplex>(n, batch, sign, n % 2 != 0);
      EXPECT(s < 2e-6, "C2C n=%d sign=%d: relative error %.3g", n, sign, s);
      EXPECT(d < 1e-12, "Z2Z n=%d sign=%d: relative error %.3g", n, sign, d);
      worst_single = s > worst_single ? s : worst_single;
      worst_double = d > worst_double ? d : worst_double;
    }
    real_case<float, cufftComplex>(n, batch, 2e-6);
    real_case<double, cufftDoubleComplex>(n, batch, 1e-12);
  }
  std::printf("worst relative error: C2C %.3g, Z2Z %.3g\n", worst_single,
              worst_double);
  return finish();
}
