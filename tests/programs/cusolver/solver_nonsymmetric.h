/* solver_nonsymmetric.h: checks that solver_selective.cu runs (one
 * program, so that the test builds once): cuSOLVER's nonsymmetric
 * eigen-solver cusolverDnXgeev, right and left vectors:
 * - a real 8 x 8 (D, all types real: LAPACK's dgeev form): W's real and
 *   imaginary halves, conjugate pairs together with the positive
 *   imaginary part first, the sum of W the trace, each vector (a pair's
 *   from its two columns) with A v = w v, u^H A = w u^H, unit norm and
 *   its largest component real;
 * - a complex 7 x 7 (Z and C) the same with complex W, VL and VR;
 * - a real A with a complex W: CUSOLVER_STATUS_NOT_SUPPORTED; bad ldvr:
 *   info -10.
 * The including file defines g_h (the handle, on a stream), g_info and
 * data_type<T>(). */
#ifndef SOLVER_NONSYMMETRIC_H
#define SOLVER_NONSYMMETRIC_H

#include "solver_host.h"

/* The eigenvalues and the right and left vectors of A by Xgeev, as
 * complex values: w (n), vr and vl (n x n). */
template <class T>
static cusolverStatus_t xgeev(const mat &a, int ldv, std::vector<cplx> *w,
                              mat *vr, mat *vl) {
  typedef typename real_of<T>::type R;
  int n = a.rows;
  bool real = !is_complex<T>();
  T *da = to_device<T>(a, n), *dvl, *dvr, *dw;
  CHECK_CUDA(cudaMalloc(&dvl, ldv * n * sizeof(T)));
  CHECK_CUDA(cudaMalloc(&dvr, ldv * n * sizeof(T)));
  CHECK_CUDA(cudaMalloc(&dw, 2 * n * sizeof(T)));
  cusolverDnParams_t params;
  EXPECT_STATUS(cusolverDnCreateParams(&params), CUSOLVER_STATUS_SUCCESS);
  size_t dbytes = 0, hbytes = 0;
  cusolverStatus_t s = cusolverDnXgeev_bufferSize(
      g_h, params, CUSOLVER_EIG_MODE_VECTOR, CUSOLVER_EIG_MODE_VECTOR, n,
      data_type<T>(), da, n, data_type<T>(), dw, data_type<T>(), dvl, ldv,
      data_type<T>(), dvr, ldv, data_type<T>(), &dbytes, &hbytes);
  if (s == CUSOLVER_STATUS_SUCCESS || s == CUSOLVER_STATUS_INVALID_VALUE) {
    void *dbuf, *hbuf = std::malloc(hbytes ? hbytes : 1);
    CHECK_CUDA(cudaMalloc(&dbuf, dbytes ? dbytes : 1));
    s = cusolverDnXgeev(g_h, params, CUSOLVER_EIG_MODE_VECTOR,
                        CUSOLVER_EIG_MODE_VECTOR, n, data_type<T>(), da, n,
                        data_type<T>(), dw, data_type<T>(), dvl, ldv,
                        data_type<T>(), dvr, ldv, data_type<T>(), dbuf, dbytes,
                        hbuf, hbytes, g_info);
    cudaFree(dbuf);
    std::free(hbuf);
  }
  if (s == CUSOLVER_STATUS_SUCCESS) {
    mat wm = from_device<T>(dw, real ? 2 * n : n, 1, real ? 2 * n : n);
    mat r = from_device<T>(dvr, n, n, ldv), l = from_device<T>(dvl, n, n, ldv);
    w->resize(n);
    for (int k = 0; k < n; ++k)
      (*w)[k] = real ? cplx(wm(k, 0).real(), wm(n + k, 0).real()) : wm(k, 0);
    *vr = r;
    *vl = l;
    /* dgeev's form: a pair's vectors from its two columns. */
    for (int k = 0; real && k + 1 < n; ++k)
      if ((*w)[k].imag() > 0) {
        for (int i = 0; i < n; ++i) {
          cplx re = r(i, k), im = r(i, k + 1);
          (*vr)(i, k) = re + cplx(0, 1) * im;
          (*vr)(i, k + 1) = re - cplx(0, 1) * im;
          re = l(i, k), im = l(i, k + 1);
          (*vl)(i, k) = re + cplx(0, 1) * im;
          (*vl)(i, k + 1) = re - cplx(0, 1) * im;
        }
        ++k;
      }
  }
  cudaFree(da);
  cudaFree(dvl);
  cudaFree(dvr);
  cudaFree(dw);
  cusolverDnDestroyParams(params);
  (void)sizeof(R);
  return s;
}

template <class T> static void check_xgeev(int n) {
  const char *t = type_name<T>();
  mat a = random_mat<T>(n, n);
  std::vector<cplx> w;
  mat vr(n, n), vl(n, n);
  EXPECT_STATUS(xgeev<T>(a, n + 1, &w, &vr, &vl), CUSOLVER_STATUS_SUCCESS);
  EXPECT(device_int(g_info) == 0, "%sXgeev: info %d", t, device_int(g_info));
  if ((int)w.size() != n)
    return;
  cplx trace = 0, sum = 0;
  int pairs = 0;
  for (int k = 0; k < n; ++k) {
    trace += a(k, k);
    sum += w[k];
    if (!is_complex<T>() && w[k].imag() != 0) {
      /* A pair: conjugates, the positive imaginary part first. */
      bool first = k + 1 < n && w[k].imag() > 0 && w[k + 1] == std::conj(w[k]);
      EXPECT(first || (k > 0 && w[k - 1] == std::conj(w[k])),
             "%sXgeev: W[%d] = %g%+gi is not in a pair", t, k, w[k].real(),
             w[k].imag());
      pairs += first;
    }
  }
  EXPECT(std::abs(trace - sum) < tolerance<T>() * 10 * norm(a),
         "%sXgeev: sum of W %g%+gi, trace %g%+gi", t, sum.real(), sum.imag(),
         trace.real(), trace.imag());
  double worst = 0;
  for (int k = 0; k < n; ++k) {
    mat v(n, 1), u(n, 1);
    for (int i = 0; i < n; ++i) {
      v(i, 0) = vr(i, k);
      u(i, 0) = vl(i, k);
    }
    mat av = mul(a, v), uha = mul(u, a, true);
    for (int i = 0; i < n; ++i) {
      av(i, 0) -= w[k] * v(i, 0);
      uha(0, i) -= w[k] * std::conj(u(i, 0));
    }
    worst = std::max(worst, std::max(norm(av), norm(uha)) / norm(a));
    /* Unit norm, largest component real. */
    int big = 0;
    for (int i = 1; i < n; ++i)
      if (std::abs(v(i, 0)) > std::abs(v(big, 0)))
        big = i;
    EXPECT(std::fabs(norm(v) - 1) < tolerance<T>() * 10 &&
               std::fabs(v(big, 0).imag()) < tolerance<T>() * 10,
           "%sXgeev: vector %d norm %g, largest component %g%+gi", t, k,
           norm(v), v(big, 0).real(), v(big, 0).imag());
  }
  EXPECT(worst < tolerance<T>() * 10,
         "%sXgeev: worst ||A v - w v|| or ||u^H A - w u^H|| %g", t, worst);
  if (!is_complex<T>())
    std::printf("%sXgeev n=%d: %d conjugate pairs\n", t, n, pairs);
}

static void check_nonsymmetric(void) {
  check_xgeev<double>(8);
  check_xgeev<float>(6);
  check_xgeev<cuDoubleComplex>(7);
  check_xgeev<cuComplex>(5);
  /* A real A with a complex W; a bad ldvr. */
  double *da;
  cuDoubleComplex *dw;
  CHECK_CUDA(cudaMalloc(&da, 16 * sizeof(double)));
  CHECK_CUDA(cudaMalloc(&dw, 4 * sizeof(cuDoubleComplex)));
  cusolverDnParams_t params;
  EXPECT_STATUS(cusolverDnCreateParams(&params), CUSOLVER_STATUS_SUCCESS);
  EXPECT_STATUS(cusolverDnXgeev(g_h, params, CUSOLVER_EIG_MODE_NOVECTOR,
                                CUSOLVER_EIG_MODE_NOVECTOR, 4, CUDA_R_64F, da,
                                4, CUDA_C_64F, dw, CUDA_R_64F, NULL, 1,
                                CUDA_R_64F, NULL, 1, CUDA_R_64F, NULL, 0, NULL,
                                0, g_info),
                CUSOLVER_STATUS_NOT_SUPPORTED);
  EXPECT_STATUS(cusolverDnXgeev(g_h, params, CUSOLVER_EIG_MODE_NOVECTOR,
                                CUSOLVER_EIG_MODE_VECTOR, 4, CUDA_R_64F, da, 4,
                                CUDA_R_64F, dw, CUDA_R_64F, NULL, 1, CUDA_R_64F,
                                da, 3, CUDA_R_64F, NULL, 0, NULL, 0, g_info),
                CUSOLVER_STATUS_INVALID_VALUE);
  EXPECT(device_int(g_info) == -10, "Xgeev: ldvr < n: info %d",
         device_int(g_info));
  cusolverDnDestroyParams(params);
  cudaFree(da);
  cudaFree(dw);
}

#endif /* SOLVER_NONSYMMETRIC_H */
