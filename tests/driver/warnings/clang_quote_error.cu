/* clang_quote_error.cu: a unit that includes Thrust, which cuemu compiles
 * with clang++, taking a kernel template's address as the wrong type (an
 * error nvcc gives too): clang++'s note quotes the kernel's line, which
 * must be the user's line with the caret under the kernel's name, never
 * cuemu's translation of it (tests/driver_warnings.sh). Not a program:
 * it does not compile. */
#include <thrust/complex.h>

template <typename T>
__global__ void scale_amplitudes(T *state, const int *count) { state[0] *= *count; }

typedef void (*ScaleKernel)(thrust::complex<double> *, int);

int main() {
  ScaleKernel k = scale_amplitudes<thrust::complex<double> >;
  return k != nullptr;
}
