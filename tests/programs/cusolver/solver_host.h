/* solver_host.h: what the cuSOLVER test programs share: the S/D/C/Z
 * calls as overloads of one name each, element conversions to
 * std::complex<double>, and host references (products, norms) for the
 * residual checks. */
#ifndef SOLVER_HOST_H
#define SOLVER_HOST_H

#include <cmath>
#include <complex>
#include <cstdlib>
#include <vector>

#include <cuComplex.h>
#include <cusolverDn.h>

#include "../cudalibs/check_libs.h"

typedef std::complex<double> cplx;

static inline cplx to_c(float v) { return cplx(v, 0); }
static inline cplx to_c(double v) { return cplx(v, 0); }
static inline cplx to_c(cuComplex v) { return cplx(v.x, v.y); }
static inline cplx to_c(cuDoubleComplex v) { return cplx(v.x, v.y); }
template <class T> T from_c(cplx v);
template <> inline float from_c<float>(cplx v) { return (float)v.real(); }
template <> inline double from_c<double>(cplx v) { return v.real(); }
template <> inline cuComplex from_c<cuComplex>(cplx v) {
  return make_cuComplex((float)v.real(), (float)v.imag());
}
template <> inline cuDoubleComplex from_c<cuDoubleComplex>(cplx v) {
  return make_cuDoubleComplex(v.real(), v.imag());
}
template <class T> struct real_of { typedef T type; };
template <> struct real_of<cuComplex> { typedef float type; };
template <> struct real_of<cuDoubleComplex> { typedef double type; };
template <class T> bool is_complex() { return false; }
template <> inline bool is_complex<cuComplex>() { return true; }
template <> inline bool is_complex<cuDoubleComplex>() { return true; }
/* The tolerance of a residual relative to the data: single or double. */
template <class T> double tolerance() {
  return sizeof(typename real_of<T>::type) == 4 ? 1e-4 : 1e-11;
}
template <class T> const char *type_name() {
  return sizeof(T) == 4    ? "S"
         : sizeof(T) == 16 ? "Z"
         : is_complex<T>() ? "C"
                           : "D";
}

/* A column-major host matrix of complex doubles. */
struct mat {
  int rows, cols;
  std::vector<cplx> v;
  mat(int r, int c) : rows(r), cols(c), v((size_t)r * c) {}
  cplx &operator()(int i, int j) { return v[(size_t)j * rows + i]; }
  cplx operator()(int i, int j) const { return v[(size_t)j * rows + i]; }
};

/* Deterministic pseudo-random values in [-1, 1). */
static inline double rnd(void) {
  static unsigned s = 12345;
  s = s * 1103515245u + 12345u;
  return ((s >> 8) & 0xffff) / 32768.0 - 1.0;
}
/* A random matrix; complex values only for complex T. */
template <class T> mat random_mat(int r, int c) {
  mat m(r, c);
  for (auto &x : m.v)
    x = cplx(rnd(), is_complex<T>() ? rnd() : 0.0);
  return m;
}

static inline mat mul(const mat &a, const mat &b, bool ah = false) {
  int r = ah ? a.cols : a.rows, k = ah ? a.rows : a.cols;
  mat c(r, b.cols);
  for (int j = 0; j < b.cols; ++j)
    for (int i = 0; i < r; ++i) {
      cplx s = 0;
      for (int l = 0; l < k; ++l)
        s += (ah ? std::conj(a(l, i)) : a(i, l)) * b(l, j);
      c(i, j) = s;
    }
  return c;
}
static inline mat adjoint(const mat &a) {
  mat t(a.cols, a.rows);
  for (int j = 0; j < a.cols; ++j)
    for (int i = 0; i < a.rows; ++i)
      t(j, i) = std::conj(a(i, j));
  return t;
}
static inline mat transpose(const mat &a) {
  mat t(a.cols, a.rows);
  for (int j = 0; j < a.cols; ++j)
    for (int i = 0; i < a.rows; ++i)
      t(j, i) = a(i, j);
  return t;
}
static inline double norm(const mat &a) {
  double s = 0;
  for (auto x : a.v)
    s += std::norm(x);
  return std::sqrt(s);
}
static inline double diff(const mat &a, const mat &b) {
  double s = 0;
  for (size_t i = 0; i < a.v.size(); ++i)
    s += std::norm(a.v[i] - b.v[i]);
  return std::sqrt(s);
}
static inline mat eye(int n) {
  mat m(n, n);
  for (int i = 0; i < n; ++i)
    m(i, i) = 1;
  return m;
}

/* Device copies with a leading dimension ld >= rows. */
template <class T> T *to_device(const mat &m, int ld) {
  std::vector<T> h((size_t)ld * m.cols, from_c<T>(0));
  for (int j = 0; j < m.cols; ++j)
    for (int i = 0; i < m.rows; ++i)
      h[(size_t)j * ld + i] = from_c<T>(m(i, j));
  T *d;
  CHECK_CUDA(cudaMalloc(&d, h.size() * sizeof(T)));
  CHECK_CUDA(
      cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
  return d;
}
template <class T> mat from_device(const T *d, int rows, int cols, int ld) {
  std::vector<T> h((size_t)ld * cols);
  CHECK_CUDA(
      cudaMemcpy(h.data(), d, h.size() * sizeof(T), cudaMemcpyDeviceToHost));
  mat m(rows, cols);
  for (int j = 0; j < cols; ++j)
    for (int i = 0; i < rows; ++i)
      m(i, j) = to_c(h[(size_t)j * ld + i]);
  return m;
}
static inline int device_int(const int *d) {
  int v;
  CHECK_CUDA(cudaMemcpy(&v, d, sizeof v, cudaMemcpyDeviceToHost));
  return v;
}

/* ---- One name for the four types ------------------------------------- */

#define SOLVER_OVERLOADS(P, T, R, OR, SY)                                      \
  static cusolverStatus_t getrf_bufferSize(cusolverDnHandle_t h, int m, int n, \
                                           T *a, int lda, int *lw) {           \
    return cusolverDn##P##getrf_bufferSize(h, m, n, a, lda, lw);               \
  }                                                                            \
  static cusolverStatus_t getrf(cusolverDnHandle_t h, int m, int n, T *a,      \
                                int lda, T *w, int *ipiv, int *info) {         \
    return cusolverDn##P##getrf(h, m, n, a, lda, w, ipiv, info);               \
  }                                                                            \
  static cusolverStatus_t getrs(cusolverDnHandle_t h, cublasOperation_t op,    \
                                int n, int nrhs, const T *a, int lda,          \
                                const int *ipiv, T *b, int ldb, int *info) {   \
    return cusolverDn##P##getrs(h, op, n, nrhs, a, lda, ipiv, b, ldb, info);   \
  }                                                                            \
  static cusolverStatus_t potrf_bufferSize(cusolverDnHandle_t h,               \
                                           cublasFillMode_t u, int n, T *a,    \
                                           int lda, int *lw) {                 \
    return cusolverDn##P##potrf_bufferSize(h, u, n, a, lda, lw);               \
  }                                                                            \
  static cusolverStatus_t potrf(cusolverDnHandle_t h, cublasFillMode_t u,      \
                                int n, T *a, int lda, T *w, int lw,            \
                                int *info) {                                   \
    return cusolverDn##P##potrf(h, u, n, a, lda, w, lw, info);                 \
  }                                                                            \
  static cusolverStatus_t potrs(cusolverDnHandle_t h, cublasFillMode_t u,      \
                                int n, int nrhs, const T *a, int lda, T *b,    \
                                int ldb, int *info) {                          \
    return cusolverDn##P##potrs(h, u, n, nrhs, a, lda, b, ldb, info);          \
  }                                                                            \
  static cusolverStatus_t potri_bufferSize(cusolverDnHandle_t h,               \
                                           cublasFillMode_t u, int n, T *a,    \
                                           int lda, int *lw) {                 \
    return cusolverDn##P##potri_bufferSize(h, u, n, a, lda, lw);               \
  }                                                                            \
  static cusolverStatus_t potri(cusolverDnHandle_t h, cublasFillMode_t u,      \
                                int n, T *a, int lda, T *w, int lw,            \
                                int *info) {                                   \
    return cusolverDn##P##potri(h, u, n, a, lda, w, lw, info);                 \
  }                                                                            \
  static cusolverStatus_t geqrf_bufferSize(cusolverDnHandle_t h, int m, int n, \
                                           T *a, int lda, int *lw) {           \
    return cusolverDn##P##geqrf_bufferSize(h, m, n, a, lda, lw);               \
  }                                                                            \
  static cusolverStatus_t geqrf(cusolverDnHandle_t h, int m, int n, T *a,      \
                                int lda, T *tau, T *w, int lw, int *info) {    \
    return cusolverDn##P##geqrf(h, m, n, a, lda, tau, w, lw, info);            \
  }                                                                            \
  static cusolverStatus_t mqr_bufferSize(                                      \
      cusolverDnHandle_t h, cublasSideMode_t s, cublasOperation_t op, int m,   \
      int n, int k, const T *a, int lda, const T *tau, const T *c, int ldc,    \
      int *lw) {                                                               \
    return cusolverDn##P##OR##mqr_bufferSize(h, s, op, m, n, k, a, lda, tau,   \
                                             c, ldc, lw);                      \
  }                                                                            \
  static cusolverStatus_t mqr(cusolverDnHandle_t h, cublasSideMode_t s,        \
                              cublasOperation_t op, int m, int n, int k,       \
                              const T *a, int lda, const T *tau, T *c,         \
                              int ldc, T *w, int lw, int *info) {              \
    return cusolverDn##P##OR##mqr(h, s, op, m, n, k, a, lda, tau, c, ldc, w,   \
                                  lw, info);                                   \
  }                                                                            \
  static cusolverStatus_t gqr_bufferSize(cusolverDnHandle_t h, int m, int n,   \
                                         int k, const T *a, int lda,           \
                                         const T *tau, int *lw) {              \
    return cusolverDn##P##OR##gqr_bufferSize(h, m, n, k, a, lda, tau, lw);     \
  }                                                                            \
  static cusolverStatus_t gqr(cusolverDnHandle_t h, int m, int n, int k, T *a, \
                              int lda, const T *tau, T *w, int lw,             \
                              int *info) {                                     \
    return cusolverDn##P##OR##gqr(h, m, n, k, a, lda, tau, w, lw, info);       \
  }                                                                            \
  static cusolverStatus_t gesvd_bufferSize(cusolverDnHandle_t h, T *, int m,   \
                                           int n, int *lw) {                   \
    return cusolverDn##P##gesvd_bufferSize(h, m, n, lw);                       \
  }                                                                            \
  static cusolverStatus_t gesvd(cusolverDnHandle_t h, signed char ju,          \
                                signed char jv, int m, int n, T *a, int lda,   \
                                R *s, T *u, int ldu, T *vt, int ldvt, T *w,    \
                                int lw, R *rw, int *info) {                    \
    return cusolverDn##P##gesvd(h, ju, jv, m, n, a, lda, s, u, ldu, vt, ldvt,  \
                                w, lw, rw, info);                              \
  }                                                                            \
  static cusolverStatus_t evd_bufferSize(                                      \
      cusolverDnHandle_t h, cusolverEigMode_t j, cublasFillMode_t u, int n,    \
      const T *a, int lda, const R *w, int *lw) {                              \
    return cusolverDn##P##SY##evd_bufferSize(h, j, u, n, a, lda, w, lw);       \
  }                                                                            \
  static cusolverStatus_t evd(cusolverDnHandle_t h, cusolverEigMode_t j,       \
                              cublasFillMode_t u, int n, T *a, int lda, R *w,  \
                              T *work, int lw, int *info) {                    \
    return cusolverDn##P##SY##evd(h, j, u, n, a, lda, w, work, lw, info);      \
  }

SOLVER_OVERLOADS(S, float, float, or, sy)
SOLVER_OVERLOADS(D, double, double, or, sy)
SOLVER_OVERLOADS(C, cuComplex, float, un, he)
SOLVER_OVERLOADS(Z, cuDoubleComplex, double, un, he)

#endif /* SOLVER_HOST_H */
