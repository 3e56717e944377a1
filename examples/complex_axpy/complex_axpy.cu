/*
 * complex_axpy.cu: complex numbers from <cuComplex.h>, as a scalar argument
 * and as arrays.
 *
 * zaxpy: y = a * x + y in double precision (cuCmul, cuCadd).
 * cmul_conj: y = conj(x) * a in single precision (cuConjf, cuCmulf).
 */
#include <cuComplex.h>

extern "C" __global__ void zaxpy(int n, cuDoubleComplex a,
                                 const cuDoubleComplex *x,
                                 cuDoubleComplex *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = cuCadd(cuCmul(a, x[i]), y[i]);
}

extern "C" __global__ void cmul_conj(int n, cuFloatComplex a,
                                     const cuFloatComplex *x,
                                     cuFloatComplex *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = cuCmulf(cuConjf(x[i]), a);
}
