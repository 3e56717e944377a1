/* cublas_host.h: host helpers of the cuBLAS test programs that check double
 * and double complex forms from one template: the std::complex<double>
 * host type passed as cuDoubleComplex (cz), conjugate and real part that
 * also take a double, CALL (the D or the Z form of a routine, as the
 * template's T is), deterministic test values, and copies to and from
 * device memory. */
#ifndef CUBLAS_HOST_H
#define CUBLAS_HOST_H

#include <cmath>
#include <complex>
#include <type_traits>
#include <vector>

/* cuDoubleComplex: the includer has included <cublas_v2.h> or <cublas.h>. */

#include "check_libs.h"

typedef std::complex<double> Z;

static inline double *cz(double *p) { return p; }
static inline const double *cz(const double *p) { return p; }
static inline cuDoubleComplex *cz(Z *p) {
  return reinterpret_cast<cuDoubleComplex *>(p);
}
static inline const cuDoubleComplex *cz(const Z *p) {
  return reinterpret_cast<const cuDoubleComplex *>(p);
}
static inline double cj(double v) { return v; }
static inline Z cj(Z v) { return std::conj(v); }
static inline double re(double v) { return v; }
static inline double re(Z v) { return v.real(); }

/* Calls the D or the Z form, as the enclosing template's T is. */
#define CALL(D, Z_, ...)                                                       \
  [&] {                                                                        \
    if constexpr (std::is_same<T, double>::value)                              \
      return D(__VA_ARGS__);                                                   \
    else                                                                       \
      return Z_(__VA_ARGS__);                                                  \
  }()

template <typename T> static T value(int seed) {
  double a = std::sin(seed * 1.7 + 0.3), b = std::cos(seed * 0.9 + 0.1);
  if constexpr (std::is_same<T, double>::value)
    return a;
  else
    return T(a, b);
}

template <typename T> static std::vector<T> values(size_t n, int seed) {
  std::vector<T> v(n);
  for (size_t i = 0; i < n; ++i)
    v[i] = value<T>(seed + (int)i);
  return v;
}

template <typename T> static T *dev(const std::vector<T> &v) {
  T *d;
  CHECK_CUDA(cudaMalloc(&d, v.size() * sizeof(T) + 16));
  CHECK_CUDA(
      cudaMemcpy(d, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice));
  return d;
}

template <typename T> static std::vector<T> host(const T *d, size_t n) {
  std::vector<T> v(n);
  CHECK_CUDA(cudaMemcpy(v.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
  return v;
}

#endif /* CUBLAS_HOST_H */
