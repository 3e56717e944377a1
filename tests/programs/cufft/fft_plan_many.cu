/* fft_plan_many.cu: cuFFT's advanced data layout (cufftPlanMany,
 * cufftMakePlanMany64) against a host DFT:
 * - interleaved signals: 1-D C2C, batch 5, istride 5 and idist 1 (value j
 *   of signal b at b + 5 j), written to rows padded to 16 (onembed {16},
 *   ostride 1, odist 16), the padding left as it was;
 * - a 2-D R2C from padded, strided real rows (inembed {8, 12}, istride 2)
 *   to a half spectrum with a row pitch of 7 (onembed {6, 7});
 * - a batched 1-D Z2D from half spectra with a pitch of 9 to real values
 *   with stride 3;
 * - NULL inembed and onembed: the basic layout, the strides and
 *   distances ignored;
 * - cufftCreate, cufftSetAutoAllocation(0), cufftMakePlanMany64,
 *   cufftGetSize, a work area of that size from cudaMalloc given with
 *   cufftSetWorkArea; without one an execution is CUFFT_NO_WORKSPACE;
 * - cufftEstimateMany and cufftGetSizeMany succeed.
 * CUEMU_OPTIONS: -lcufft */
#include <cufft.h>

#include "../cudalibs/check_libs.h"
#include "fft_host.h"

#define CHECK_FFT(call) EXPECT_STATUS(call, CUFFT_SUCCESS)

static const float SENTINEL = 12345.0f;

static void interleaved(void) {
  const int n = 12, batch = 5, pitch = 16;
  std::vector<cufftComplex> h(n * batch);
  for (size_t i = 0; i < h.size(); ++i)
    h[i].x = (float)host_value(5, 2 * i), h[i].y = (float)host_value(5, 2 * i + 1);
  std::vector<cufftComplex> out(pitch * batch, cufftComplex{SENTINEL, SENTINEL});
  cufftComplex *din, *dout;
  CHECK_CUDA(cudaMalloc(&din, h.size() * sizeof(cufftComplex)));
  CHECK_CUDA(cudaMalloc(&dout, out.size() * sizeof(cufftComplex)));
  CHECK_CUDA(cudaMemcpy(din, h.data(), h.size() * sizeof(cufftComplex),
                        cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(dout, out.data(), out.size() * sizeof(cufftComplex),
                        cudaMemcpyHostToDevice));
  int dims[1] = {n}, inembed[1] = {n}, onembed[1] = {pitch};
  cufftHandle plan;
  CHECK_FFT(cufftPlanMany(&plan, 1, dims, inembed, batch, 1, onembed, 1,
                          pitch, CUFFT_C2C, batch));
  CHECK_FFT(cufftExecC2C(plan, din, dout, CUFFT_FORWARD));
  CHECK_CUDA(cudaMemcpy(out.data(), dout, out.size() * sizeof(cufftComplex),
                        cudaMemcpyDeviceToHost));
  rel_error e;
  for (int b = 0; b < batch; ++b) {
    std::vector<cplx> x(n);
    for (int j = 0; j < n; ++j)
      x[j].re = h[b + batch * j].x, x[j].im = h[b + batch * j].y;
    std::vector<cplx> y = host_dft(x, -1);
    for (int k = 0; k < n; ++k)
      e.add(out[b * pitch + k].x, out[b * pitch + k].y, y[k]);
    for (int k = n; k < pitch; ++k)
      EXPECT(out[b * pitch + k].x == SENTINEL, "padding of row %d at %d "
             "was written", b, k);
  }
  EXPECT(e.value() < 2e-6, "interleaved C2C: relative error %.3g", e.value());
  CHECK_FFT(cufftDestroy(plan));
  CHECK_CUDA(cudaFree(din));
  CHECK_CUDA(cudaFree(dout));
}

static void strided_r2c(void) {
  const int nx = 6, ny = 10, half = ny / 2 + 1, batch = 2;
  int dims[2] = {nx, ny}, inembed[2] = {8, 12}, onembed[2] = {nx, 7};
  const int istride = 2, idist = 8 * 12 * 2 + 3, odist = nx * 7 + 1;
  std::vector<float> h((size_t)idist * batch, SENTINEL);
  std::vector<cplx> x((size_t)nx * ny * batch);
  for (int b = 0; b < batch; ++b)
    for (int i = 0; i < nx; ++i)
      for (int j = 0; j < ny; ++j) {
        float v = (float)host_value(6, ((size_t)b * nx + i) * ny + j);
        h[(size_t)b * idist + ((size_t)i * inembed[1] + j) * istride] = v;
        x[((size_t)b * nx + i) * ny + j].re = v;
        x[((size_t)b * nx + i) * ny + j].im = 0;
      }
  std::vector<cufftComplex> out((size_t)odist * batch,
                                cufftComplex{SENTINEL, SENTINEL});
  float *din;
  cufftComplex *dout;
  CHECK_CUDA(cudaMalloc(&din, h.size() * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&dout, out.size() * sizeof(cufftComplex)));
  CHECK_CUDA(cudaMemcpy(din, h.data(), h.size() * sizeof(float),
                        cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(dout, out.data(), out.size() * sizeof(cufftComplex),
                        cudaMemcpyHostToDevice));
  cufftHandle plan;
  CHECK_FFT(cufftPlanMany(&plan, 2, dims, inembed, istride, idist, onembed, 1,
                          odist, CUFFT_R2C, batch));
  CHECK_FFT(cufftExecR2C(plan, din, dout));
  CHECK_CUDA(cudaMemcpy(out.data(), dout, out.size() * sizeof(cufftComplex),
                        cudaMemcpyDeviceToHost));
  rel_error e;
  for (int b = 0; b < batch; ++b) {
    /* The 2-D DFT by rows then columns. */
    std::vector<cplx> a(x.begin() + (size_t)b * nx * ny,
                        x.begin() + (size_t)(b + 1) * nx * ny);
    for (int i = 0; i < nx; ++i) {
      std::vector<cplx> row(a.begin() + i * ny, a.begin() + (i + 1) * ny);
      row = host_dft(row, -1);
      std::copy(row.begin(), row.end(), a.begin() + i * ny);
    }
    for (int j = 0; j < ny; ++j) {
      std::vector<cplx> col(nx);
      for (int i = 0; i < nx; ++i)
        col[i] = a[i * ny + j];
      col = host_dft(col, -1);
      for (int i = 0; i < nx; ++i)
        a[i * ny + j] = col[i];
    }
    for (int i = 0; i < nx; ++i) {
      for (int k = 0; k < half; ++k)
        e.add(out[(size_t)b * odist + i * 7 + k].x,
              out[(size_t)b * odist + i * 7 + k].y, a[i * ny + k]);
      EXPECT(out[(size_t)b * odist + i * 7 + 6].x == SENTINEL,
             "the row pitch's padding was written");
    }
  }
  EXPECT(e.value() < 2e-6, "strided 2-D R2C: relative error %.3g", e.value());
  CHECK_FFT(cufftDestroy(plan));
  CHECK_CUDA(cudaFree(din));
  CHECK_CUDA(cudaFree(dout));
}

/* A 1-D Z2D batch from half spectra with a pitch of 9 to real rows with
 * stride 3: each row back equals n times the real signal whose R2C gave
 * the half spectrum. */
static void strided_c2r(void) {
  const int n = 14, half = n / 2 + 1, batch = 3, ipitch = 9, ostride = 3;
  const int odist = n * ostride + 2;
  std::vector<double> signal((size_t)n * batch);
  std::vector<cufftDoubleComplex> in((size_t)ipitch * batch);
  for (int b = 0; b < batch; ++b) {
    std::vector<cplx> x(n);
    for (int j = 0; j < n; ++j) {
      signal[(size_t)b * n + j] = host_value(11, (size_t)b * n + j);
      x[j].re = signal[(size_t)b * n + j], x[j].im = 0;
    }
    std::vector<cplx> y = host_dft(x, -1);
    for (int k = 0; k < half; ++k) {
      in[(size_t)b * ipitch + k].x = (double)y[k].re;
      in[(size_t)b * ipitch + k].y = (double)y[k].im;
    }
  }
  std::vector<double> out((size_t)odist * batch, SENTINEL);
  cufftDoubleComplex *din;
  double *dout;
  CHECK_CUDA(cudaMalloc(&din, in.size() * sizeof(*din)));
  CHECK_CUDA(cudaMalloc(&dout, out.size() * sizeof(double)));
  CHECK_CUDA(cudaMemcpy(din, in.data(), in.size() * sizeof(*din),
                        cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(dout, out.data(), out.size() * sizeof(double),
                        cudaMemcpyHostToDevice));
  int dims[1] = {n}, inembed[1] = {ipitch}, onembed[1] = {n};
  cufftHandle plan;
  CHECK_FFT(cufftPlanMany(&plan, 1, dims, inembed, 1, ipitch, onembed,
                          ostride, odist, CUFFT_Z2D, batch));
  CHECK_FFT(cufftExecZ2D(plan, din, dout));
  CHECK_CUDA(cudaMemcpy(out.data(), dout, out.size() * sizeof(double),
                        cudaMemcpyDeviceToHost));
  rel_error e;
  for (int b = 0; b < batch; ++b)
    for (int j = 0; j < n; ++j) {
      cplx want = {(long double)signal[(size_t)b * n + j] * n, 0};
      e.add(out[(size_t)b * odist + j * ostride], 0, want);
      EXPECT(out[(size_t)b * odist + j * ostride + 1] == SENTINEL,
             "between the strided values of row %d", b);
    }
  EXPECT(e.value() < 1e-12, "strided Z2D: relative error %.3g", e.value());
  CHECK_FFT(cufftDestroy(plan));
  CHECK_CUDA(cudaFree(din));
  CHECK_CUDA(cudaFree(dout));
}

static void basic_many(void) {
  const int n = 9, batch = 4;
  std::vector<cufftDoubleComplex> h(n * batch);
  for (size_t i = 0; i < h.size(); ++i)
    h[i].x = host_value(7, 2 * i), h[i].y = host_value(7, 2 * i + 1);
  cufftDoubleComplex *d;
  CHECK_CUDA(cudaMalloc(&d, h.size() * sizeof(*d)));
  CHECK_CUDA(cudaMemcpy(d, h.data(), h.size() * sizeof(*d),
                        cudaMemcpyHostToDevice));
  int dims[1] = {n};
  cufftHandle plan;
  /* The strides and distances are ignored with NULL embeddings. */
  CHECK_FFT(cufftPlanMany(&plan, 1, dims, NULL, 3, 1000, NULL, 5, 77,
                          CUFFT_Z2Z, batch));
  CHECK_FFT(cufftExecZ2Z(plan, d, d, CUFFT_INVERSE));
  std::vector<cufftDoubleComplex> got(h.size());
  CHECK_CUDA(cudaMemcpy(got.data(), d, got.size() * sizeof(*d),
                        cudaMemcpyDeviceToHost));
  rel_error e;
  for (int b = 0; b < batch; ++b) {
    std::vector<cplx> x(n);
    for (int j = 0; j < n; ++j)
      x[j].re = h[b * n + j].x, x[j].im = h[b * n + j].y;
    std::vector<cplx> y = host_dft(x, 1);
    for (int k = 0; k < n; ++k)
      e.add(got[b * n + k].x, got[b * n + k].y, y[k]);
  }
  EXPECT(e.value() < 1e-12, "basic-layout PlanMany: relative error %.3g",
         e.value());
  CHECK_FFT(cufftDestroy(plan));
  CHECK_CUDA(cudaFree(d));
}

static void work_area(void) {
  const int n = 64, batch = 3;
  long long dims[1] = {n};
  cufftHandle plan;
  size_t size = 0, reported = 0, estimate = 0;
  CHECK_FFT(cufftCreate(&plan));
  CHECK_FFT(cufftSetAutoAllocation(plan, 0));
  CHECK_FFT(cufftMakePlanMany64(plan, 1, dims, NULL, 1, n, NULL, 1, n,
                                CUFFT_C2C, batch, &size));
  CHECK_FFT(cufftGetSize(plan, &reported));
  EXPECT(reported == size, "cufftGetSize %zu, cufftMakePlanMany64 %zu",
         reported, size);
  int dims32[1] = {n};
  CHECK_FFT(cufftEstimateMany(1, dims32, NULL, 1, n, NULL, 1, n, CUFFT_C2C,
                              batch, &estimate));
  CHECK_FFT(cufftGetSizeMany(plan, 1, dims32, NULL, 1, n, NULL, 1, n,
                             CUFFT_C2C, batch, &estimate));
  std::vector<cufftComplex> h(n * batch);
  for (size_t i = 0; i < h.size(); ++i)
    h[i].x = (float)host_value(8, i), h[i].y = 0;
  cufftComplex *d;
  CHECK_CUDA(cudaMalloc(&d, h.size() * sizeof(*d)));
  CHECK_CUDA(cudaMemcpy(d, h.data(), h.size() * sizeof(*d),
                        cudaMemcpyHostToDevice));
  if (size > 0)
    EXPECT_STATUS(cufftExecC2C(plan, d, d, CUFFT_FORWARD), CUFFT_NO_WORKSPACE);
  void *area = NULL;
  if (size > 0)
    CHECK_CUDA(cudaMalloc(&area, size));
  CHECK_FFT(cufftSetWorkArea(plan, area));
  CHECK_FFT(cufftExecC2C(plan, d, d, CUFFT_FORWARD));
  CHECK_FFT(cufftExecC2C(plan, d, d, CUFFT_INVERSE));
  std::vector<cufftComplex> got(h.size());
  CHECK_CUDA(cudaMemcpy(got.data(), d, got.size() * sizeof(*d),
                        cudaMemcpyDeviceToHost));
  rel_error e;
  for (size_t i = 0; i < h.size(); ++i) {
    cplx want = {(long double)h[i].x * n, 0};
    e.add(got[i].x, got[i].y, want);
  }
  EXPECT(e.value() < 2e-6, "with a work area: relative error %.3g", e.value());
  CHECK_FFT(cufftDestroy(plan));
  CHECK_CUDA(cudaFree(d));
  if (area)
    CHECK_CUDA(cudaFree(area));
}

int main() {
  interleaved();
  strided_r2c();
  strided_c2r();
  basic_many();
  work_area();
  return finish();
}
