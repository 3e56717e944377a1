/* cublas_legacy.cu: a program of the legacy cuBLAS API (<cublas.h>, no
 * handle) in the style of old CUDA samples: cublasInit, cublasAlloc,
 * cublasSetVector/GetVector, level 1 results returned by value (sdot,
 * isamax, cdotc, dznrm2), zrotg's b by value, sgemm and strmm (in place)
 * with character arguments, cherk with real scalars, cublasGetError after
 * a bad argument (cleared as it is read) and before cublasInit,
 * cublasFree and cublasShutdown; against host references.
 * CUEMU_OPTIONS: -lcublas */
#include <cmath>
#include <cstdio>

#include <cublas.h>

#include "check_libs.h"

int main() {
  /* Before cublasInit: NOT_INITIALIZED, through cublasGetError. */
  float dummy = 0;
  cublasSscal(1, 2.0f, &dummy, 1);
  EXPECT_STATUS(cublasGetError(), CUBLAS_STATUS_NOT_INITIALIZED);
  EXPECT_STATUS(cublasGetError(), CUBLAS_STATUS_SUCCESS);
  EXPECT_STATUS(cublasInit(), CUBLAS_STATUS_SUCCESS);

  const int n = 5;
  float hx[n] = {1, -2, 3, -4, 0.5f}, hy[n] = {2, 2, 2, 2, 2};
  float *dx, *dy;
  EXPECT_STATUS(cublasAlloc(n, sizeof(float), (void **)&dx),
                CUBLAS_STATUS_SUCCESS);
  EXPECT_STATUS(cublasAlloc(n, sizeof(float), (void **)&dy),
                CUBLAS_STATUS_SUCCESS);
  cublasSetVector(n, sizeof(float), hx, 1, dx, 1);
  cublasSetVector(n, sizeof(float), hy, 1, dy, 1);
  cublasSaxpy(n, 3.0f, dx, 1, dy, 1); /* y = 3 x + 2 */
  float dot = cublasSdot(n, dx, 1, dy, 1), want = 0;
  for (int i = 0; i < n; ++i)
    want += hx[i] * (3 * hx[i] + 2);
  EXPECT(dot == want, "cublasSdot: %g, expected %g", dot, want);
  EXPECT(cublasIsamax(n, dx, 1) == 4, "cublasIsamax: %d",
         cublasIsamax(n, dx, 1));
  EXPECT_STATUS(cublasGetError(), CUBLAS_STATUS_SUCCESS);

  /* C (2 x 2) = A^T B with A, B 3 x 2; then C = triu(U) C in place. */
  float A[6] = {1, 2, 3, 4, 5, 6}, B[6] = {1, 0, -1, 2, 1, 0}, C[4];
  float *dA, *dB, *dC;
  cublasAlloc(6, sizeof(float), (void **)&dA);
  cublasAlloc(6, sizeof(float), (void **)&dB);
  cublasAlloc(4, sizeof(float), (void **)&dC);
  cublasSetMatrix(3, 2, sizeof(float), A, 3, dA, 3);
  cublasSetMatrix(3, 2, sizeof(float), B, 3, dB, 3);
  cublasSgemm('t', 'N', 2, 2, 3, 1.0f, dA, 3, dB, 3, 0.0f, dC, 2);
  cublasGetMatrix(2, 2, sizeof(float), dC, 2, C, 2);
  /* A^T B: [1 2 3; 4 5 6] [1 2; 0 1; -1 0] = [-2 4; -2 13]. */
  EXPECT(C[0] == -2 && C[1] == -2 && C[2] == 4 && C[3] == 13,
         "cublasSgemm('t', 'N'): %g %g %g %g", C[0], C[1], C[2], C[3]);
  /* U = [1 3; . 4] (upper of A's first 2 x 2 with lda 3: A(0,0) 1,
   * A(0,1) 4, A(1,1) 5): C = 2 U C. */
  cublasStrmm('L', 'U', 'N', 'N', 2, 2, 2.0f, dA, 3, dC, 2);
  cublasGetMatrix(2, 2, sizeof(float), dC, 2, C, 2);
  /* U = [1 4; 0 5]: U C = [-10 56; -10 65], times 2. */
  EXPECT(C[0] == -20 && C[1] == -20 && C[2] == 112 && C[3] == 130,
         "cublasStrmm in place: %g %g %g %g", C[0], C[1], C[2], C[3]);
  /* A bad character: INVALID_VALUE, read once. */
  cublasSgemm('X', 'N', 2, 2, 3, 1.0f, dA, 3, dB, 3, 0.0f, dC, 2);
  EXPECT_STATUS(cublasGetError(), CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_STATUS(cublasGetError(), CUBLAS_STATUS_SUCCESS);

  /* Complex: cdotc returned by value, dznrm2, zrotg with b by value. */
  cuComplex cx[2] = {make_cuComplex(1, 2), make_cuComplex(0, -1)},
            cy[2] = {make_cuComplex(3, 0), make_cuComplex(1, 1)};
  cuComplex *dcx, *dcy;
  cublasAlloc(2, sizeof(cuComplex), (void **)&dcx);
  cublasAlloc(2, sizeof(cuComplex), (void **)&dcy);
  cublasSetVector(2, sizeof(cuComplex), cx, 1, dcx, 1);
  cublasSetVector(2, sizeof(cuComplex), cy, 1, dcy, 1);
  cuComplex cd = cublasCdotc(2, dcx, 1, dcy, 1);
  /* conj(1+2i) 3 + conj(-i) (1+i) = 3 - 6i + i (1 + i) = 2 - 5i. */
  EXPECT(cd.x == 2 && cd.y == -5, "cublasCdotc: (%g, %g)", cd.x, cd.y);
  cuDoubleComplex za = make_cuDoubleComplex(3, 4),
                  zb = make_cuDoubleComplex(0, 0), zs;
  double zc;
  cublasZrotg(&za, zb, &zc, &zs);
  EXPECT(zc == 1 && zs.x == 0 && zs.y == 0 && std::fabs(za.x - 3) < 1e-15 &&
             std::fabs(za.y - 4) < 1e-15,
         "cublasZrotg with b 0: c %g s (%g, %g)", zc, zs.x, zs.y);
  cuDoubleComplex *dz;
  cuDoubleComplex hz[2] = {make_cuDoubleComplex(3, 0),
                           make_cuDoubleComplex(0, 4)};
  cublasAlloc(2, sizeof(cuDoubleComplex), (void **)&dz);
  cublasSetVector(2, sizeof(cuDoubleComplex), hz, 1, dz, 1);
  double nrm = cublasDznrm2(2, dz, 1);
  EXPECT(std::fabs(nrm - 5) < 1e-15, "cublasDznrm2: %g", nrm);

  /* cherk with real alpha and beta: C = x x^H (1 x 1 from a 1 x 2 A). */
  cuComplex *dh;
  cublasAlloc(1, sizeof(cuComplex), (void **)&dh);
  cublasCherk('U', 'N', 1, 2, 1.0f, dcx, 1, 0.0f, dh, 1);
  cuComplex h;
  cublasGetVector(1, sizeof(cuComplex), dh, 1, &h, 1);
  EXPECT(h.x == 6 && h.y == 0, "cublasCherk: (%g, %g), expected (6, 0)", h.x,
         h.y);
  EXPECT_STATUS(cublasGetError(), CUBLAS_STATUS_SUCCESS);

  EXPECT_STATUS(cublasFree(dx), CUBLAS_STATUS_SUCCESS);
  cublasFree(dy), cublasFree(dA), cublasFree(dB), cublasFree(dC);
  cublasFree(dcx), cublasFree(dcy), cublasFree(dz), cublasFree(dh);
  EXPECT_STATUS(cublasShutdown(), CUBLAS_STATUS_SUCCESS);
  return finish();
}
