/* sparse_interleaved.h: cuSPARSE's batched banded solvers with interleaved
 * systems (element i of system k at i * batch + k), against residuals
 * computed on the host: cusparseDgtsvInterleavedBatch with algo 0
 * (cuThomas, diagonally dominant systems) and algo 1 (LU with pivoting, a
 * system whose first pivot is zero), cusparseDgpsvInterleavedBatch
 * (pentadiagonal, algo 0), and cusparseZgtsvInterleavedBatch (algo 2),
 * each with its bufferSizeExt. check_interleaved() is run by
 * check_formats() of sparse_formats.h, which includes this header after its
 * upload() and download(). */
#ifndef SPARSE_INTERLEAVED_H
#define SPARSE_INTERLEAVED_H
#include <cmath>
#include <complex>
#include <vector>

#include <cusparse.h>

#include "../cudalibs/check_libs.h"

/* The diagonals (lowest first) and right-hand sides of `batch` systems of m
 * rows with `width` sub- and superdiagonals, interleaved; system 0's
 * diagonal is zero at row 0 when `zero_pivot`. */
template <class T>
static void interleaved_systems(int m, int batch, int width, bool dominant,
                                bool zero_pivot, std::vector<std::vector<T>> &diags,
                                std::vector<T> &rhs) {
  diags.assign(2 * width + 1, std::vector<T>((size_t)m * batch, T(0)));
  rhs.assign((size_t)m * batch, T(0));
  unsigned s = 7u;
  for (int k = 0; k < batch; ++k)
    for (int i = 0; i < m; ++i) {
      for (int d = -width; d <= width; ++d) {
        s = s * 1103515245u + 12345u;
        double v = (double)((s >> 9) % 97) / 24.0 - 2.0;
        if (i + d < 0 || i + d >= m)
          v = 0; /* outside the matrix: cuSPARSE's zeros */
        if (d == 0 && dominant)
          v = 3.0 * width * 4.0 + v;
        if (d == 0 && zero_pivot && k == 0 && i == 0)
          v = 0;
        diags[d + width][(size_t)i * batch + k] = T(v);
      }
      rhs[(size_t)i * batch + k] = T(1.0 + 0.5 * i - 0.25 * k);
    }
}

/* The largest |A x - b| over the systems. */
template <class T>
static double interleaved_residual(int m, int batch, int width,
                                   const std::vector<std::vector<T>> &diags,
                                   const std::vector<T> &x,
                                   const std::vector<T> &b) {
  double worst = 0;
  for (int k = 0; k < batch; ++k)
    for (int i = 0; i < m; ++i) {
      T s = T(0);
      for (int d = -width; d <= width; ++d)
        if (i + d >= 0 && i + d < m)
          s += diags[d + width][(size_t)i * batch + k] *
               x[(size_t)(i + d) * batch + k];
      double r = std::abs(s - b[(size_t)i * batch + k]);
      worst = r > worst || r != r ? r : worst;
    }
  return worst;
}

/* Solves with cusparse?gtsvInterleavedBatch (width 1) or
 * cusparse?gpsvInterleavedBatch (width 2); the residual's size. */
template <class T, class Device>
static double interleaved_solve(cusparseHandle_t h, int algo, int width,
                                bool dominant, bool zero_pivot) {
  const int m = 9, batch = 3;
  std::vector<std::vector<T>> diags;
  std::vector<T> rhs;
  interleaved_systems(m, batch, width, dominant, zero_pivot, diags, rhs);
  std::vector<Device *> d;
  for (auto &v : diags)
    d.push_back((Device *)upload(v));
  Device *x = (Device *)upload(rhs);
  size_t size = 0;
  void *buffer = nullptr;
  if (width == 1) {
    if (sizeof(T) == sizeof(double)) {
      EXPECT_STATUS(cusparseDgtsvInterleavedBatch_bufferSizeExt(
                        h, algo, m, (double *)d[0], (double *)d[1],
                        (double *)d[2], (double *)x, batch, &size),
                    CUSPARSE_STATUS_SUCCESS);
      CHECK_CUDA(cudaMalloc(&buffer, size));
      EXPECT_STATUS(cusparseDgtsvInterleavedBatch(
                        h, algo, m, (double *)d[0], (double *)d[1],
                        (double *)d[2], (double *)x, batch, buffer),
                    CUSPARSE_STATUS_SUCCESS);
    } else {
      EXPECT_STATUS(cusparseZgtsvInterleavedBatch_bufferSizeExt(
                        h, algo, m, (cuDoubleComplex *)d[0],
                        (cuDoubleComplex *)d[1], (cuDoubleComplex *)d[2],
                        (cuDoubleComplex *)x, batch, &size),
                    CUSPARSE_STATUS_SUCCESS);
      CHECK_CUDA(cudaMalloc(&buffer, size));
      EXPECT_STATUS(cusparseZgtsvInterleavedBatch(
                        h, algo, m, (cuDoubleComplex *)d[0],
                        (cuDoubleComplex *)d[1], (cuDoubleComplex *)d[2],
                        (cuDoubleComplex *)x, batch, buffer),
                    CUSPARSE_STATUS_SUCCESS);
    }
  } else {
    EXPECT_STATUS(cusparseDgpsvInterleavedBatch_bufferSizeExt(
                      h, algo, m, (double *)d[0], (double *)d[1],
                      (double *)d[2], (double *)d[3], (double *)d[4],
                      (double *)x, batch, &size),
                  CUSPARSE_STATUS_SUCCESS);
    CHECK_CUDA(cudaMalloc(&buffer, size));
    EXPECT_STATUS(cusparseDgpsvInterleavedBatch(
                      h, algo, m, (double *)d[0], (double *)d[1],
                      (double *)d[2], (double *)d[3], (double *)d[4],
                      (double *)x, batch, buffer),
                  CUSPARSE_STATUS_SUCCESS);
  }
  std::vector<T> got = download((T *)x, rhs.size());
  for (Device *p : d)
    cudaFree(p);
  cudaFree(x);
  cudaFree(buffer);
  return interleaved_residual(m, batch, width, diags, got, rhs);
}

static void check_interleaved(cusparseHandle_t h) {
  typedef std::complex<double> cz;
  double thomas = interleaved_solve<double, double>(h, 0, 1, true, false);
  double pivoted = interleaved_solve<double, double>(h, 1, 1, false, true);
  double penta = interleaved_solve<double, double>(h, 0, 2, false, true);
  double complex_qr = interleaved_solve<cz, cuDoubleComplex>(h, 2, 1, false, true);
  if (!(thomas < 1e-12 && pivoted < 1e-10 && penta < 1e-10 &&
        complex_qr < 1e-10)) {
    std::printf("interleaved batches: residuals %g (cuThomas), %g (LU), %g "
                "(gpsv), %g (complex QR)\n",
                thomas, pivoted, penta, complex_qr);
    ++g_failures;
  }
  /* gpsv has one algorithm; gtsv three. */
  size_t size = 0;
  double *p = nullptr;
  CHECK_CUDA(cudaMalloc(&p, 64 * sizeof(double)));
  EXPECT_STATUS(cusparseDgpsvInterleavedBatch_bufferSizeExt(
                    h, 1, 4, p, p, p, p, p, p, 2, &size),
                CUSPARSE_STATUS_INVALID_VALUE);
  EXPECT_STATUS(cusparseDgtsvInterleavedBatch_bufferSizeExt(h, 3, 4, p, p, p,
                                                            p, 2, &size),
                CUSPARSE_STATUS_INVALID_VALUE);
  cudaFree(p);
}

#endif /* SPARSE_INTERLEAVED_H */
