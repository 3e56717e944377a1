/* cublas_rotations.cu: the plane rotations of cuBLAS's level 1 (rotg for
 * S, D, C and Z, rotm and rotmg for S and D) in host and device pointer
 * mode against their defining properties and host references, and a few
 * of CUDA 12's ILP64 entry points (cublasDaxpy_64, cublasIdamax_64 with its
 * int64_t result, cublasSetVector_64, cublasDgemm_64, cublasGemmEx_64,
 * cublasDrotm_64) against the 32-bit forms; and the Ex forms of level 1
 * (types as arguments) against the typed ones.
 * CUEMU_OPTIONS: -lcublas */
#include <cmath>
#include <cstdint>
#include <vector>

#include <cublas_v2.h>

#include "check_libs.h"

static bool near(double a, double b, double tol) {
  return std::fabs(a - b) <= tol * (1 + std::fabs(b));
}

/* rotg: r = +-hypot(a, b), [c s; -s c] (a, b) = (r, 0), and b holds z. */
static void rotg(cublasHandle_t h) {
  const double cases[][2] = {{3, 4}, {-5, 2}, {0, 2}, {1e200, 3e199}, {0, 0}};
  for (const auto &in : cases) {
    double a = in[0], b = in[1], c = -7, s = -7;
    EXPECT_STATUS(cublasDrotg(h, &a, &b, &c, &s), CUBLAS_STATUS_SUCCESS);
    double r = std::hypot(in[0], in[1]);
    EXPECT(near(std::fabs(a), r, 1e-15), "drotg r %g for (%g, %g)", a, in[0],
           in[1]);
    EXPECT(near(c * in[0] + s * in[1], a, 1e-15) &&
               std::fabs(-s * in[0] + c * in[1]) <= 1e-15 * (1 + r) &&
               near(c * c + s * s, 1, 1e-15),
           "drotg rotation for (%g, %g): c %g s %g", in[0], in[1], c, s);
    /* z: s when |a| > |b|, else 1/c (1 when c is 0). */
    double z = std::fabs(in[0]) > std::fabs(in[1]) ? s : c != 0 ? 1 / c : 1;
    if (r == 0)
      z = 0;
    EXPECT(near(b, z, 1e-15), "drotg z %g, expected %g", b, z);
  }
  float fa = 3, fb = 4, fc, fs;
  EXPECT_STATUS(cublasSrotg(h, &fa, &fb, &fc, &fs), CUBLAS_STATUS_SUCCESS);
  EXPECT(fa == 5 && fc == 0.6f && fs == 0.8f && near(fb, 1 / 0.6, 1e-6),
         "srotg (3, 4): r %g c %g s %g z %g", fa, fc, fs, fb);
  /* Complex: c real, r = a/|a| hypot(|a|, |b|), c a + s b = r. */
  cuDoubleComplex za = make_cuDoubleComplex(1, 2),
                  zb = make_cuDoubleComplex(-3, 0.5), zs;
  double zc;
  cuDoubleComplex a0 = za, b0 = zb;
  EXPECT_STATUS(cublasZrotg(h, &za, &zb, &zc, &zs), CUBLAS_STATUS_SUCCESS);
  double norm = std::hypot(cuCabs(a0), cuCabs(b0));
  cuDoubleComplex want =
      make_cuDoubleComplex(a0.x / cuCabs(a0) * norm, a0.y / cuCabs(a0) * norm);
  cuDoubleComplex lhs =
      cuCadd(make_cuDoubleComplex(zc * a0.x, zc * a0.y), cuCmul(zs, b0));
  cuDoubleComplex zero = cuCsub(make_cuDoubleComplex(zc * b0.x, zc * b0.y),
                                cuCmul(cuConj(zs), a0));
  EXPECT(near(za.x, want.x, 1e-14) && near(za.y, want.y, 1e-14) &&
             near(lhs.x, want.x, 1e-14) && near(lhs.y, want.y, 1e-14) &&
             cuCabs(zero) < 1e-14 && zb.x == b0.x && zb.y == b0.y,
         "zrotg: r (%g, %g), expected (%g, %g)", za.x, za.y, want.x, want.y);
  cuComplex ca = make_cuComplex(0, 0), cb = make_cuComplex(2, -1), cs;
  float cc;
  EXPECT_STATUS(cublasCrotg(h, &ca, &cb, &cc, &cs), CUBLAS_STATUS_SUCCESS);
  EXPECT(cc == 0 && cs.x == 1 && cs.y == 0 && ca.x == 2 && ca.y == -1,
         "crotg with a 0: c %g s (%g, %g) r (%g, %g)", cc, cs.x, cs.y, ca.x,
         ca.y);
  /* Device pointer mode: the four scalars in device memory. */
  double *d;
  CHECK_CUDA(cudaMalloc(&d, 4 * sizeof(double)));
  double in[4] = {-6, 8, 0, 0}, out[4];
  CHECK_CUDA(cudaMemcpy(d, in, sizeof in, cudaMemcpyHostToDevice));
  cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE);
  EXPECT_STATUS(cublasDrotg(h, d, d + 1, d + 2, d + 3), CUBLAS_STATUS_SUCCESS);
  cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST);
  CHECK_CUDA(cudaMemcpy(out, d, sizeof out, cudaMemcpyDeviceToHost));
  EXPECT(near(out[0], 10, 1e-15) && near(out[2], -0.6, 1e-15) &&
             near(out[3], 0.8, 1e-15) && near(out[1], 1 / -0.6, 1e-15),
         "drotg in device memory: r %g z %g c %g s %g", out[0], out[1], out[2],
         out[3]);
  CHECK_CUDA(cudaFree(d));
  EXPECT_STATUS(cublasDrotg(h, &in[0], &in[1], &in[2], nullptr),
                CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_STATUS(cublasDrotg(nullptr, &in[0], &in[1], &in[2], &in[3]),
                CUBLAS_STATUS_NOT_INITIALIZED);
}

/* The H that param describes (flag, h11, h21, h12, h22). */
static void param_matrix(const double *p, double H[2][2]) {
  H[0][0] = p[1], H[1][0] = p[2], H[0][1] = p[3], H[1][1] = p[4];
  if (p[0] == 0)
    H[0][0] = H[1][1] = 1;
  else if (p[0] == 1)
    H[0][1] = 1, H[1][0] = -1;
  else if (p[0] == -2)
    H[0][0] = H[1][1] = 1, H[0][1] = H[1][0] = 0;
}

/* rotmg: H (x1, y1) has second element 0, and d1' x1'^2 + ... keeps the
 * weighted norm: d1 x1^2 + d2 y1^2 = d1' x1'^2. rotm applies H. */
static void rotm(cublasHandle_t h) {
  const double cases[][4] = {
      {2, 3, 1.5, 0.5}, {1, 1, 0.25, 4}, {1e-9, 1, 1, 2}, {4, 0.5, 0, 0}};
  for (const auto &in : cases) {
    double d1 = in[0], d2 = in[1], x1 = in[2], p[5] = {9, 9, 9, 9, 9};
    double y1 = in[3];
    EXPECT_STATUS(cublasDrotmg(h, &d1, &d2, &x1, &y1, p),
                  CUBLAS_STATUS_SUCCESS);
    EXPECT(p[0] == -2 || p[0] == -1 || p[0] == 0 || p[0] == 1, "drotmg flag %g",
           p[0]);
    double H[2][2];
    param_matrix(p, H);
    double hx = H[0][0] * in[2] + H[0][1] * in[3];
    double hy = H[1][0] * in[2] + H[1][1] * in[3];
    if (p[0] != -2) {
      EXPECT(std::fabs(hy) <= 1e-12 * (1 + std::fabs(hx)) &&
                 near(hx, x1, 1e-12),
             "drotmg (%g %g %g %g): H (x1, y1) = (%g, %g), x1' %g", in[0],
             in[1], in[2], in[3], hx, hy, x1);
      EXPECT(near(d1 * x1 * x1, in[0] * in[2] * in[2] + in[1] * in[3] * in[3],
                  1e-12),
             "drotmg weighted norm: %g", d1 * x1 * x1);
    }
  }
  /* rotm with each flag, a negative increment, against the host H. */
  const int n = 5;
  const double params[][5] = {{-1, 0.5, -2, 3, 0.25},
                              {0, 7, 0.5, -1.5, 7},
                              {1, 2, 7, 7, -3},
                              {-2, 7, 7, 7, 7}};
  std::vector<double> x(n), y(2 * n);
  for (int i = 0; i < n; ++i)
    x[i] = 1 + i;
  for (int i = 0; i < 2 * n; ++i)
    y[i] = 0.5 * i - 2;
  double *dx, *dy, *dp;
  CHECK_CUDA(cudaMalloc(&dx, n * sizeof(double)));
  CHECK_CUDA(cudaMalloc(&dy, 2 * n * sizeof(double)));
  CHECK_CUDA(cudaMalloc(&dp, 5 * sizeof(double)));
  for (int mode = 0; mode < 2; ++mode)
    for (const auto &p : params) {
      CHECK_CUDA(cudaMemcpy(dx, x.data(), n * 8, cudaMemcpyHostToDevice));
      CHECK_CUDA(cudaMemcpy(dy, y.data(), 2 * n * 8, cudaMemcpyHostToDevice));
      CHECK_CUDA(cudaMemcpy(dp, p, 5 * 8, cudaMemcpyHostToDevice));
      cublasSetPointerMode(h, mode ? CUBLAS_POINTER_MODE_DEVICE
                                   : CUBLAS_POINTER_MODE_HOST);
      /* The ILP64 form in device mode, the 32-bit one in host mode. */
      if (mode)
        EXPECT_STATUS(cublasDrotm_64(h, n, dx, 1, dy, -2, dp),
                      CUBLAS_STATUS_SUCCESS);
      else
        EXPECT_STATUS(cublasDrotm(h, n, dx, 1, dy, -2, p),
                      CUBLAS_STATUS_SUCCESS);
      cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST);
      double H[2][2];
      param_matrix(p, H);
      std::vector<double> gx(n), gy(2 * n);
      CHECK_CUDA(cudaMemcpy(gx.data(), dx, n * 8, cudaMemcpyDeviceToHost));
      CHECK_CUDA(cudaMemcpy(gy.data(), dy, 2 * n * 8, cudaMemcpyDeviceToHost));
      for (int i = 0; i < n; ++i) {
        int yi = (n - 1 - i) * 2;
        double wx = H[0][0] * x[i] + H[0][1] * y[yi];
        double wy = H[1][0] * x[i] + H[1][1] * y[yi];
        EXPECT(near(gx[i], wx, 1e-15) && near(gy[yi], wy, 1e-15),
               "drotm flag %g mode %d element %d: (%g, %g), expected (%g, %g)",
               p[0], mode, i, gx[i], gy[yi], wx, wy);
      }
    }
  float sx[2] = {1, 2}, sp[5] = {1, 2, 0, 0, 3};
  float *dsx;
  CHECK_CUDA(cudaMalloc(&dsx, sizeof sx));
  CHECK_CUDA(cudaMemcpy(dsx, sx, sizeof sx, cudaMemcpyHostToDevice));
  /* x and y the same vector: x' = 2 x + y, y' = -x + 3 y from the old
   * values, computed element by element as BLAS does. */
  EXPECT_STATUS(cublasSrotm(h, 1, dsx, 1, dsx + 1, 1, sp),
                CUBLAS_STATUS_SUCCESS);
  CHECK_CUDA(cudaMemcpy(sx, dsx, sizeof sx, cudaMemcpyDeviceToHost));
  EXPECT(sx[0] == 4 && sx[1] == 5, "srotm flag 1: (%g, %g)", sx[0], sx[1]);
  EXPECT_STATUS(cublasSrotm(h, 1, dsx, 1, dsx + 1, 1, nullptr),
                CUBLAS_STATUS_INVALID_VALUE);
  float f1 = -1, f2 = 1, fx = 1, fy = 1, fp[5];
  EXPECT_STATUS(cublasSrotmg(h, &f1, &f2, &fx, &fy, fp), CUBLAS_STATUS_SUCCESS);
  EXPECT(fp[0] == -1 && fp[1] == 0 && fp[4] == 0 && f1 == 0 && fx == 0,
         "srotmg with d1 < 0: flag %g", fp[0]);
  CHECK_CUDA(cudaFree(dx));
  CHECK_CUDA(cudaFree(dy));
  CHECK_CUDA(cudaFree(dp));
  CHECK_CUDA(cudaFree(dsx));
}

/* The ILP64 forms compute as the 32-bit ones. */
static void ilp64(cublasHandle_t h) {
  const int64_t n = 6;
  std::vector<double> x(n), y(n);
  for (int i = 0; i < n; ++i)
    x[i] = i % 2 ? -i : i * 0.5, y[i] = 1;
  double *dx, *dy;
  CHECK_CUDA(cudaMalloc(&dx, n * 8));
  CHECK_CUDA(cudaMalloc(&dy, n * 8));
  EXPECT_STATUS(cublasSetVector_64(n, 8, x.data(), 1, dx, 1),
                CUBLAS_STATUS_SUCCESS);
  EXPECT_STATUS(cublasSetVector_64(n, 8, y.data(), 1, dy, 1),
                CUBLAS_STATUS_SUCCESS);
  double two = 2;
  EXPECT_STATUS(cublasDaxpy_64(h, n, &two, dx, 1, dy, 1),
                CUBLAS_STATUS_SUCCESS);
  std::vector<double> got(n);
  EXPECT_STATUS(cublasGetVector_64(n, 8, dy, 1, got.data(), 1),
                CUBLAS_STATUS_SUCCESS);
  for (int i = 0; i < n; ++i)
    EXPECT(got[i] == 1 + 2 * x[i], "daxpy_64 element %d: %g", i, got[i]);
  int64_t imax = -1;
  EXPECT_STATUS(cublasIdamax_64(h, n, dx, 1, &imax), CUBLAS_STATUS_SUCCESS);
  EXPECT(imax == 6, "idamax_64: %lld, expected 6", (long long)imax);
  /* C (2 x 3) = A (2 x 2) B (2 x 3), the two forms. */
  double A[4] = {1, 2, 3, 4}, B[6] = {1, 0, 0, 1, 2, -1}, C[6];
  double *dA, *dB, *dC, one = 1, zero = 0;
  CHECK_CUDA(cudaMalloc(&dA, sizeof A));
  CHECK_CUDA(cudaMalloc(&dB, sizeof B));
  CHECK_CUDA(cudaMalloc(&dC, sizeof C));
  EXPECT_STATUS(cublasSetMatrix_64(2, 2, 8, A, 2, dA, 2),
                CUBLAS_STATUS_SUCCESS);
  EXPECT_STATUS(cublasSetMatrix_64(2, 3, 8, B, 2, dB, 2),
                CUBLAS_STATUS_SUCCESS);
  const double want[6] = {1, 2, 3, 4, -1, 0};
  for (int form = 0; form < 2; ++form) {
    CHECK_CUDA(cudaMemset(dC, 0, sizeof C));
    if (form == 0)
      EXPECT_STATUS(cublasDgemm_64(h, CUBLAS_OP_N, CUBLAS_OP_N, 2, 3, 2, &one,
                                   dA, 2, dB, 2, &zero, dC, 2),
                    CUBLAS_STATUS_SUCCESS);
    else
      EXPECT_STATUS(cublasGemmEx_64(h, CUBLAS_OP_N, CUBLAS_OP_N, 2, 3, 2, &one,
                                    dA, CUDA_R_64F, 2, dB, CUDA_R_64F, 2, &zero,
                                    dC, CUDA_R_64F, 2, CUBLAS_COMPUTE_64F,
                                    CUBLAS_GEMM_DEFAULT),
                    CUBLAS_STATUS_SUCCESS);
    EXPECT_STATUS(cublasGetMatrix_64(2, 3, 8, dC, 2, C, 2),
                  CUBLAS_STATUS_SUCCESS);
    for (int i = 0; i < 6; ++i)
      EXPECT(C[i] == want[i], "form %d: C[%d] %g, expected %g", form, i, C[i],
             want[i]);
  }
  /* The argument checks are the same: lda below m. */
  EXPECT_STATUS(cublasDgemm_64(h, CUBLAS_OP_N, CUBLAS_OP_N, 2, 3, 2, &one, dA,
                               1, dB, 2, &zero, dC, 2),
                CUBLAS_STATUS_INVALID_VALUE);
  CHECK_CUDA(cudaFree(dx));
  CHECK_CUDA(cudaFree(dy));
  CHECK_CUDA(cudaFree(dA));
  CHECK_CUDA(cudaFree(dB));
  CHECK_CUDA(cudaFree(dC));
}

/* AxpyEx, DotEx, DotcEx, Nrm2Ex, AsumEx, ScalEx, IamaxEx_64, CopyEx and
 * SwapEx compute as their typed forms; x and y of different types are
 * NOT_SUPPORTED. */
static void ex_forms(cublasHandle_t h) {
  const int n = 4;
  float x[n] = {1, -3, 2, 0.5f}, y[n] = {2, 2, 2, 2};
  float *dx, *dy;
  CHECK_CUDA(cudaMalloc(&dx, sizeof x));
  CHECK_CUDA(cudaMalloc(&dy, sizeof y));
  CHECK_CUDA(cudaMemcpy(dx, x, sizeof x, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(dy, y, sizeof y, cudaMemcpyHostToDevice));
  float alpha = 0.5f, dot = 0, nrm = 0, asum = 0;
  EXPECT_STATUS(cublasAxpyEx(h, n, &alpha, CUDA_R_32F, dx, CUDA_R_32F, 1, dy,
                             CUDA_R_32F, 1, CUDA_R_32F),
                CUBLAS_STATUS_SUCCESS);
  EXPECT_STATUS(cublasDotEx(h, n, dx, CUDA_R_32F, 1, dy, CUDA_R_32F, 1, &dot,
                            CUDA_R_32F, CUDA_R_32F),
                CUBLAS_STATUS_SUCCESS);
  float want = 0;
  for (int i = 0; i < n; ++i)
    want += x[i] * (2 + 0.5f * x[i]);
  EXPECT(dot == want, "dotEx after axpyEx: %g, expected %g", dot, want);
  EXPECT_STATUS(
      cublasNrm2Ex(h, n, dx, CUDA_R_32F, 1, &nrm, CUDA_R_32F, CUDA_R_32F),
      CUBLAS_STATUS_SUCCESS);
  EXPECT_STATUS(
      cublasAsumEx(h, n, dx, CUDA_R_32F, 1, &asum, CUDA_R_32F, CUDA_R_32F),
      CUBLAS_STATUS_SUCCESS);
  EXPECT(std::fabs(nrm - std::sqrt(14.25f)) < 1e-6f && asum == 6.5f,
         "nrm2Ex %g, asumEx %g", nrm, asum);
  int64_t imax = 0;
  EXPECT_STATUS(cublasIamaxEx_64(h, n, dx, CUDA_R_32F, 1, &imax),
                CUBLAS_STATUS_SUCCESS);
  EXPECT(imax == 2, "iamaxEx_64: %lld", (long long)imax);
  float two = 2;
  EXPECT_STATUS(
      cublasScalEx(h, n, &two, CUDA_R_32F, dx, CUDA_R_32F, 1, CUDA_R_32F),
      CUBLAS_STATUS_SUCCESS);
  EXPECT_STATUS(cublasSwapEx(h, n, dx, CUDA_R_32F, 1, dy, CUDA_R_32F, 1),
                CUBLAS_STATUS_SUCCESS);
  EXPECT_STATUS(cublasCopyEx(h, n, dy, CUDA_R_32F, 1, dx, CUDA_R_32F, 1),
                CUBLAS_STATUS_SUCCESS);
  float got[n];
  CHECK_CUDA(cudaMemcpy(got, dx, sizeof got, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i)
    EXPECT(got[i] == 2 * x[i], "scalEx, swapEx, copyEx: x[%d] %g", i, got[i]);
  cuComplex cx[2] = {make_cuComplex(3, 4), make_cuComplex(0, 0)};
  cuComplex *dcx, cdot;
  CHECK_CUDA(cudaMalloc(&dcx, sizeof cx));
  CHECK_CUDA(cudaMemcpy(dcx, cx, sizeof cx, cudaMemcpyHostToDevice));
  EXPECT_STATUS(cublasDotcEx(h, 2, dcx, CUDA_C_32F, 1, dcx, CUDA_C_32F, 1,
                             &cdot, CUDA_C_32F, CUDA_C_32F),
                CUBLAS_STATUS_SUCCESS);
  EXPECT_STATUS(
      cublasNrm2Ex(h, 2, dcx, CUDA_C_32F, 1, &nrm, CUDA_R_32F, CUDA_R_32F),
      CUBLAS_STATUS_SUCCESS);
  EXPECT(cdot.x == 25 && cdot.y == 0 && nrm == 5, "dotcEx (%g, %g), nrm2Ex %g",
         cdot.x, cdot.y, nrm);
  EXPECT_STATUS(cublasCopyEx(h, n, dx, CUDA_R_32F, 1, dy, CUDA_R_64F, 1),
                CUBLAS_STATUS_NOT_SUPPORTED);
  /* RotEx (as Srot), RotgEx and RotmgEx (as Drotg, Drotmg), RotmEx. */
  float c = 0.6f, sn = 0.8f;
  CHECK_CUDA(cudaMemcpy(dx, x, sizeof x, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(dy, y, sizeof y, cudaMemcpyHostToDevice));
  EXPECT_STATUS(cublasRotEx(h, n, dx, CUDA_R_32F, 1, dy, CUDA_R_32F, 1, &c, &sn,
                            CUDA_R_32F, CUDA_R_32F),
                CUBLAS_STATUS_SUCCESS);
  float gx[n], gy[n];
  CHECK_CUDA(cudaMemcpy(gx, dx, sizeof gx, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(gy, dy, sizeof gy, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i)
    EXPECT(near(gx[i], c * x[i] + sn * y[i], 1e-6) &&
               near(gy[i], c * y[i] - sn * x[i], 1e-6),
           "rotEx element %d: (%g, %g)", i, gx[i], gy[i]);
  double ra = 3, rb = 4, rc, rs;
  EXPECT_STATUS(
      cublasRotgEx(h, &ra, &rb, CUDA_R_64F, &rc, &rs, CUDA_R_64F, CUDA_R_64F),
      CUBLAS_STATUS_SUCCESS);
  EXPECT(near(ra, 5, 1e-15) && near(rc, 0.6, 1e-15) && near(rs, 0.8, 1e-15),
         "rotgEx: r %g c %g s %g", ra, rc, rs);
  double d1 = 2, d2 = 3, x1 = 1.5, y1 = 0.5, p[5];
  EXPECT_STATUS(cublasRotmgEx(h, &d1, CUDA_R_64F, &d2, CUDA_R_64F, &x1,
                              CUDA_R_64F, &y1, CUDA_R_64F, p, CUDA_R_64F,
                              CUDA_R_64F),
                CUBLAS_STATUS_SUCCESS);
  double H[2][2];
  param_matrix(p, H);
  EXPECT(std::fabs(H[1][0] * 1.5 + H[1][1] * 0.5) < 1e-12,
         "rotmgEx: H (x1, y1) has a second element %g",
         H[1][0] * 1.5 + H[1][1] * 0.5);
  float sp[5] = {-2, 0, 0, 0, 0};
  EXPECT_STATUS(cublasRotmEx(h, n, dx, CUDA_R_32F, 1, dy, CUDA_R_32F, 1, sp,
                             CUDA_R_32F, CUDA_R_32F),
                CUBLAS_STATUS_SUCCESS);
  EXPECT_STATUS(cublasRotmEx(h, n, dx, CUDA_R_32F, 1, dy, CUDA_R_32F, 1, sp,
                             CUDA_R_64F, CUDA_R_32F),
                CUBLAS_STATUS_NOT_SUPPORTED);
  CHECK_CUDA(cudaFree(dx));
  CHECK_CUDA(cudaFree(dy));
  CHECK_CUDA(cudaFree(dcx));
}

int main() {
  cublasHandle_t h;
  EXPECT_STATUS(cublasCreate(&h), CUBLAS_STATUS_SUCCESS);
  rotg(h);
  rotm(h);
  ilp64(h);
  ex_forms(h);
  CHECK_CUDA(cudaDeviceSynchronize());
  cublasDestroy(h);
  return finish();
}
