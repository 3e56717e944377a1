// cupy/cuComplex_bridge.h of the fake CuPy: what translate_cucomplex=True
// includes instead of <cuComplex.h>. cuComplex's types and functions over
// CuPy's complex<T> (cupy/complex.cuh), so that code written for
// cuComplex.h and code using complex<T> share one type.
#ifndef FAKE_CUPY_CUCOMPLEX_BRIDGE_H
#define FAKE_CUPY_CUCOMPLEX_BRIDGE_H
#include <cupy/complex.cuh>

typedef complex<float> cuFloatComplex;
typedef complex<double> cuDoubleComplex;
typedef cuFloatComplex cuComplex;

__host__ __device__ inline float cuCrealf(cuFloatComplex z) { return z.real(); }
__host__ __device__ inline float cuCimagf(cuFloatComplex z) { return z.imag(); }
__host__ __device__ inline cuFloatComplex make_cuFloatComplex(float r, float i) { return cuFloatComplex(r, i); }
__host__ __device__ inline cuFloatComplex make_cuComplex(float r, float i) { return cuFloatComplex(r, i); }
__host__ __device__ inline cuFloatComplex cuConjf(cuFloatComplex z) { return thrust::conj(z); }
__host__ __device__ inline cuFloatComplex cuCaddf(cuFloatComplex a, cuFloatComplex b) { return a + b; }
__host__ __device__ inline cuFloatComplex cuCsubf(cuFloatComplex a, cuFloatComplex b) { return a - b; }
__host__ __device__ inline cuFloatComplex cuCmulf(cuFloatComplex a, cuFloatComplex b) { return a * b; }
__host__ __device__ inline cuFloatComplex cuCdivf(cuFloatComplex a, cuFloatComplex b) { return a / b; }
__host__ __device__ inline float cuCabsf(cuFloatComplex z) { return thrust::abs(z); }
__host__ __device__ inline cuFloatComplex cuCfmaf(cuFloatComplex a, cuFloatComplex b, cuFloatComplex c) { return a * b + c; }

__host__ __device__ inline double cuCreal(cuDoubleComplex z) { return z.real(); }
__host__ __device__ inline double cuCimag(cuDoubleComplex z) { return z.imag(); }
__host__ __device__ inline cuDoubleComplex make_cuDoubleComplex(double r, double i) { return cuDoubleComplex(r, i); }
__host__ __device__ inline cuDoubleComplex cuConj(cuDoubleComplex z) { return thrust::conj(z); }
__host__ __device__ inline cuDoubleComplex cuCadd(cuDoubleComplex a, cuDoubleComplex b) { return a + b; }
__host__ __device__ inline cuDoubleComplex cuCsub(cuDoubleComplex a, cuDoubleComplex b) { return a - b; }
__host__ __device__ inline cuDoubleComplex cuCmul(cuDoubleComplex a, cuDoubleComplex b) { return a * b; }
__host__ __device__ inline cuDoubleComplex cuCdiv(cuDoubleComplex a, cuDoubleComplex b) { return a / b; }
__host__ __device__ inline double cuCabs(cuDoubleComplex z) { return thrust::abs(z); }
__host__ __device__ inline cuDoubleComplex cuCfma(cuDoubleComplex a, cuDoubleComplex b, cuDoubleComplex c) { return a * b + c; }
__host__ __device__ inline cuDoubleComplex cuComplexFloatToDouble(cuFloatComplex z) { return cuDoubleComplex(z); }
__host__ __device__ inline cuFloatComplex cuComplexDoubleToFloat(cuDoubleComplex z) { return cuFloatComplex(z); }

#endif
