// complex_traits.cuh: one interface over cuDoubleComplex, cuFloatComplex and
// thrust::complex<double>, so that the gate kernels are written once.
#ifndef QSIM_COMPLEX_TRAITS_CUH
#define QSIM_COMPLEX_TRAITS_CUH
#include <cuComplex.h>
#include <thrust/complex.h>

namespace qsim {

template <typename T> struct ComplexOps;

template <> struct ComplexOps<cuDoubleComplex> {
  typedef double real_t;
  __host__ __device__ static cuDoubleComplex make(double r, double i) { return make_cuDoubleComplex(r, i); }
  __host__ __device__ static cuDoubleComplex add(cuDoubleComplex a, cuDoubleComplex b) { return cuCadd(a, b); }
  __host__ __device__ static cuDoubleComplex mul(cuDoubleComplex a, cuDoubleComplex b) { return cuCmul(a, b); }
  __host__ __device__ static double re(cuDoubleComplex a) { return cuCreal(a); }
  __host__ __device__ static double im(cuDoubleComplex a) { return cuCimag(a); }
  __host__ __device__ static double norm2(cuDoubleComplex a) { return a.x * a.x + a.y * a.y; }
};

template <> struct ComplexOps<cuFloatComplex> {
  typedef float real_t;
  __host__ __device__ static cuFloatComplex make(double r, double i) { return make_cuFloatComplex((float)r, (float)i); }
  __host__ __device__ static cuFloatComplex add(cuFloatComplex a, cuFloatComplex b) { return cuCaddf(a, b); }
  __host__ __device__ static cuFloatComplex mul(cuFloatComplex a, cuFloatComplex b) { return cuCmulf(a, b); }
  __host__ __device__ static float re(cuFloatComplex a) { return cuCrealf(a); }
  __host__ __device__ static float im(cuFloatComplex a) { return cuCimagf(a); }
  __host__ __device__ static float norm2(cuFloatComplex a) { return a.x * a.x + a.y * a.y; }
};

template <> struct ComplexOps<thrust::complex<double> > {
  typedef double real_t;
  typedef thrust::complex<double> C;
  __host__ __device__ static C make(double r, double i) { return C(r, i); }
  __host__ __device__ static C add(C a, C b) { return a + b; }
  __host__ __device__ static C mul(C a, C b) { return a * b; }
  __host__ __device__ static double re(C a) { return a.real(); }
  __host__ __device__ static double im(C a) { return a.imag(); }
  __host__ __device__ static double norm2(C a) { return thrust::norm(a); }
};

// A 2x2 gate matrix, row major: {m00, m01, m10, m11}.
template <typename T> struct Mat2 {
  T m[4];
};

}  // namespace qsim

#endif  // QSIM_COMPLEX_TRAITS_CUH
