/* fft_multidim.cu: cuFFT's 2-D and 3-D plans against a host DFT applied
 * along each dimension (row-major, the last dimension contiguous):
 * - a 2-D R2C of NX x NY real values (out of place: NX x (NY/2 + 1)
 *   complex values) and the C2R back, which gives the input times NX*NY;
 * - the same in place, where each real row is padded to 2 (NY/2 + 1)
 *   values (cuFFT's basic layout in place);
 * - a 3-D Z2Z forward and inverse of a size with a prime length;
 * - a 2-D D2Z/Z2D roundtrip of odd sizes;
 * - 3-D D2Z (against the host DFT) and Z2D back, even and odd sizes.
 * An out-of-place C2R may overwrite its input (cuFFT says so): the program
 * never relies on a C2R's input afterwards; under cuemu (CUEMU_VERSION) it
 * checks that cuemu does overwrite it, so that a program that relies on it
 * fails here as it may on a GPU.
 * CUEMU_OPTIONS: -lcufft */
#include <cufft.h>

#include "../cudalibs/check_libs.h"
#include "fft_host.h"

#define CHECK_FFT(call) EXPECT_STATUS(call, CUFFT_SUCCESS)

/* The DFT of a row-major array of dims[0..rank), along every dimension. */
static std::vector<cplx> host_dft_nd(std::vector<cplx> x, int rank,
                                     const int *dims, int sign) {
  size_t total = x.size();
  for (int d = 0; d < rank; ++d) {
    size_t n = dims[d], inner = 1;
    for (int e = d + 1; e < rank; ++e)
      inner *= dims[e];
    for (size_t outer = 0; outer < total / (n * inner); ++outer)
      for (size_t k = 0; k < inner; ++k) {
        std::vector<cplx> line(n);
        for (size_t j = 0; j < n; ++j)
          line[j] = x[outer * n * inner + k + j * inner];
        line = host_dft(line, sign);
        for (size_t j = 0; j < n; ++j)
          x[outer * n * inner + k + j * inner] = line[j];
      }
  }
  return x;
}

/* 2-D R2C and C2R of nx x ny floats, in place (padded rows) or not. */
static void real_2d(int nx, int ny, bool in_place) {
  const int half = ny / 2 + 1, row = in_place ? 2 * half : ny;
  std::vector<float> h((size_t)nx * row, -7.0f);
  std::vector<cplx> x((size_t)nx * ny);
  for (int i = 0; i < nx; ++i)
    for (int j = 0; j < ny; ++j) {
      float v = (float)host_value(nx * 100 + ny, (size_t)i * ny + j);
      h[(size_t)i * row + j] = v;
      x[(size_t)i * ny + j].re = v, x[(size_t)i * ny + j].im = 0;
    }
  float *real;
  cufftComplex *spectrum;
  CHECK_CUDA(cudaMalloc(&real, h.size() * sizeof(float)));
  spectrum = (cufftComplex *)real;
  if (!in_place)
    CHECK_CUDA(cudaMalloc(&spectrum, (size_t)nx * half * sizeof(cufftComplex)));
  CHECK_CUDA(cudaMemcpy(real, h.data(), h.size() * sizeof(float),
                        cudaMemcpyHostToDevice));
  cufftHandle forward, inverse;
  CHECK_FFT(cufftPlan2d(&forward, nx, ny, CUFFT_R2C));
  CHECK_FFT(cufftPlan2d(&inverse, nx, ny, CUFFT_C2R));
  CHECK_FFT(cufftExecR2C(forward, real, spectrum));
  std::vector<cufftComplex> got((size_t)nx * half);
  CHECK_CUDA(cudaMemcpy(got.data(), spectrum, got.size() * sizeof(cufftComplex),
                        cudaMemcpyDeviceToHost));
  int dims[2] = {nx, ny};
  std::vector<cplx> y = host_dft_nd(x, 2, dims, -1);
  rel_error e;
  for (int i = 0; i < nx; ++i)
    for (int k = 0; k < half; ++k)
      e.add(got[(size_t)i * half + k].x, got[(size_t)i * half + k].y,
            y[(size_t)i * ny + k]);
  EXPECT(e.value() < 2e-6, "R2C %dx%d%s: relative error %.3g", nx, ny,
         in_place ? " in place" : "", e.value());
  CHECK_FFT(cufftExecC2R(inverse, spectrum, real));
  std::vector<float> back(h.size());
  CHECK_CUDA(cudaMemcpy(back.data(), real, back.size() * sizeof(float),
                        cudaMemcpyDeviceToHost));
  rel_error r;
  for (int i = 0; i < nx; ++i)
    for (int j = 0; j < ny; ++j) {
      cplx want = {x[(size_t)i * ny + j].re * nx * ny, 0};
      r.add(back[(size_t)i * row + j], 0, want);
    }
  EXPECT(r.value() < 2e-6, "C2R %dx%d%s: relative error %.3g", nx, ny,
         in_place ? " in place" : "", r.value());
#ifdef CUEMU_VERSION
  if (!in_place && nx * ny > 1) {
    std::vector<cufftComplex> after(got.size());
    CHECK_CUDA(cudaMemcpy(after.data(), spectrum,
                          after.size() * sizeof(cufftComplex),
                          cudaMemcpyDeviceToHost));
    bool changed = false;
    for (size_t i = 0; i < after.size(); ++i)
      changed |= after[i].x != got[i].x || after[i].y != got[i].y;
    EXPECT(changed, "cuemu's out-of-place C2R left its input as it was");
  }
#endif
  CHECK_FFT(cufftDestroy(forward));
  CHECK_FFT(cufftDestroy(inverse));
  CHECK_CUDA(cudaFree(real));
  if (!in_place)
    CHECK_CUDA(cudaFree(spectrum));
}

/* 3-D Z2Z of nx x ny x nz, forward then inverse, out of place. */
static void complex_3d(int nx, int ny, int nz) {
  size_t total = (size_t)nx * ny * nz;
  std::vector<cufftDoubleComplex> h(total);
  std::vector<cplx> x(total);
  for (size_t i = 0; i < total; ++i) {
    h[i].x = host_value(3, 2 * i), h[i].y = host_value(3, 2 * i + 1);
    x[i].re = h[i].x, x[i].im = h[i].y;
  }
  cufftDoubleComplex *a, *b;
  CHECK_CUDA(cudaMalloc(&a, total * sizeof(cufftDoubleComplex)));
  CHECK_CUDA(cudaMalloc(&b, total * sizeof(cufftDoubleComplex)));
  CHECK_CUDA(cudaMemcpy(a, h.data(), total * sizeof(cufftDoubleComplex),
                        cudaMemcpyHostToDevice));
  cufftHandle plan;
  CHECK_FFT(cufftPlan3d(&plan, nx, ny, nz, CUFFT_Z2Z));
  CHECK_FFT(cufftExecZ2Z(plan, a, b, CUFFT_FORWARD));
  std::vector<cufftDoubleComplex> got(total);
  CHECK_CUDA(cudaMemcpy(got.data(), b, total * sizeof(cufftDoubleComplex),
                        cudaMemcpyDeviceToHost));
  int dims[3] = {nx, ny, nz};
  std::vector<cplx> y = host_dft_nd(x, 3, dims, -1);
  rel_error e;
  for (size_t i = 0; i < total; ++i)
    e.add(got[i].x, got[i].y, y[i]);
  EXPECT(e.value() < 1e-12, "Z2Z 3-D %dx%dx%d: relative error %.3g", nx, ny,
         nz, e.value());
  CHECK_FFT(cufftExecZ2Z(plan, b, b, CUFFT_INVERSE));
  CHECK_CUDA(cudaMemcpy(got.data(), b, total * sizeof(cufftDoubleComplex),
                        cudaMemcpyDeviceToHost));
  rel_error r;
  for (size_t i = 0; i < total; ++i) {
    cplx want = {x[i].re * (long double)total, x[i].im * (long double)total};
    r.add(got[i].x, got[i].y, want);
  }
  EXPECT(r.value() < 1e-12, "Z2Z 3-D inverse: relative error %.3g", r.value());
  CHECK_FFT(cufftDestroy(plan));
  CHECK_CUDA(cudaFree(a));
  CHECK_CUDA(cudaFree(b));
}

/* 2-D D2Z and Z2D of odd sizes, out of place. */
static void double_2d(int nx, int ny) {
  const int half = ny / 2 + 1;
  std::vector<double> h((size_t)nx * ny);
  for (size_t i = 0; i < h.size(); ++i)
    h[i] = host_value(4, i);
  double *real;
  cufftDoubleComplex *spectrum;
  CHECK_CUDA(cudaMalloc(&real, h.size() * sizeof(double)));
  CHECK_CUDA(cudaMalloc(&spectrum, (size_t)nx * half * sizeof(*spectrum)));
  CHECK_CUDA(cudaMemcpy(real, h.data(), h.size() * sizeof(double),
                        cudaMemcpyHostToDevice));
  cufftHandle forward, inverse;
  CHECK_FFT(cufftPlan2d(&forward, nx, ny, CUFFT_D2Z));
  CHECK_FFT(cufftPlan2d(&inverse, nx, ny, CUFFT_Z2D));
  CHECK_FFT(cufftExecD2Z(forward, real, spectrum));
  CHECK_FFT(cufftExecZ2D(inverse, spectrum, real));
  std::vector<double> back(h.size());
  CHECK_CUDA(cudaMemcpy(back.data(), real, back.size() * sizeof(double),
                        cudaMemcpyDeviceToHost));
  rel_error r;
  for (size_t i = 0; i < h.size(); ++i) {
    cplx want = {(long double)h[i] * nx * ny, 0};
    r.add(back[i], 0, want);
  }
  EXPECT(r.value() < 1e-12, "D2Z/Z2D %dx%d: relative error %.3g", nx, ny,
         r.value());
  CHECK_FFT(cufftDestroy(forward));
  CHECK_FFT(cufftDestroy(inverse));
  CHECK_CUDA(cudaFree(real));
  CHECK_CUDA(cudaFree(spectrum));
}

/* 3-D D2Z against the host DFT, then Z2D back, out of place. */
static void double_3d(int nx, int ny, int nz) {
  const int half = nz / 2 + 1;
  size_t total = (size_t)nx * ny * nz, halves = (size_t)nx * ny * half;
  std::vector<double> h(total);
  std::vector<cplx> x(total);
  for (size_t i = 0; i < total; ++i) {
    h[i] = host_value(9, i);
    x[i].re = h[i], x[i].im = 0;
  }
  double *real;
  cufftDoubleComplex *spectrum;
  CHECK_CUDA(cudaMalloc(&real, total * sizeof(double)));
  CHECK_CUDA(cudaMalloc(&spectrum, halves * sizeof(*spectrum)));
  CHECK_CUDA(cudaMemcpy(real, h.data(), total * sizeof(double),
                        cudaMemcpyHostToDevice));
  cufftHandle forward, inverse;
  CHECK_FFT(cufftPlan3d(&forward, nx, ny, nz, CUFFT_D2Z));
  CHECK_FFT(cufftPlan3d(&inverse, nx, ny, nz, CUFFT_Z2D));
  CHECK_FFT(cufftExecD2Z(forward, real, spectrum));
  std::vector<cufftDoubleComplex> got(halves);
  CHECK_CUDA(cudaMemcpy(got.data(), spectrum, halves * sizeof(*spectrum),
                        cudaMemcpyDeviceToHost));
  int dims[3] = {nx, ny, nz};
  std::vector<cplx> y = host_dft_nd(x, 3, dims, -1);
  rel_error e;
  for (size_t r = 0; r < (size_t)nx * ny; ++r)
    for (int k = 0; k < half; ++k)
      e.add(got[r * half + k].x, got[r * half + k].y, y[r * nz + k]);
  EXPECT(e.value() < 1e-12, "D2Z 3-D %dx%dx%d: relative error %.3g", nx, ny,
         nz, e.value());
  CHECK_FFT(cufftExecZ2D(inverse, spectrum, real));
  std::vector<double> back(total);
  CHECK_CUDA(cudaMemcpy(back.data(), real, total * sizeof(double),
                        cudaMemcpyDeviceToHost));
  rel_error r;
  for (size_t i = 0; i < total; ++i) {
    cplx want = {(long double)h[i] * total, 0};
    r.add(back[i], 0, want);
  }
  EXPECT(r.value() < 1e-12, "Z2D 3-D %dx%dx%d: relative error %.3g", nx, ny,
         nz, r.value());
  CHECK_FFT(cufftDestroy(forward));
  CHECK_FFT(cufftDestroy(inverse));
  CHECK_CUDA(cudaFree(real));
  CHECK_CUDA(cudaFree(spectrum));
}

int main() {
  real_2d(16, 12, false);
  real_2d(16, 12, true);
  real_2d(7, 11, false);
  real_2d(9, 13, true);
  real_2d(1, 1, false);
  complex_3d(4, 6, 5);
  complex_3d(3, 1, 17);
  double_2d(15, 21);
  double_2d(8, 1);
  double_3d(4, 5, 6);
  double_3d(3, 7, 9);
  double_3d(5, 2, 1);
  return finish();
}
