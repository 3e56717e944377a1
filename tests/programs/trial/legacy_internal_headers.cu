// Public programs include CUDA's internal headers by their old names:
// <device_double_functions.h> (a softmax layer, programs built on the samples'
// helper_cuda.h) and <common_functions.h> next to <device_functions.h> and
// <math_functions.h>. nvcc 13 still builds them, with a warning that the
// header is internal. cuemu had no shim of the first two, so the real
// toolkit's crt/ headers were found and did not compile ("conflicting
// declaration of 'long long int __double_as_longlong(double)' with 'C'
// linkage"; "macro "clock" passed 1 arguments"). The double intrinsics they
// declare must run, and clock() and memset must be callable in device code.
// <host_defines.h> (CUDA's qualifier macros, which older code includes for
// __align__ and __forceinline__) had no shim either: the toolkit's redefined
// __global__, and the kernel's launch below was refused ("a host function
// call cannot be configured").
#include <cuda_runtime.h>
#include <device_functions.h>
#include <device_double_functions.h>
#include <common_functions.h>
#include <math_functions.h>
#include <host_defines.h>
#include "../check.cuh"

struct Bits {
  long long int as_ll;
  double back;
  int hi, lo;
  double joined, fma, sum, product;
  int clock_ran;
  unsigned char zeroed;
};

__global__ void legacy_kernel(Bits *out, double x) {
  Bits b;
  memset(&b, 0xff, sizeof b);
  b.zeroed = 0xff;
  unsigned char bytes[4] = {1, 2, 3, 4};
  memset(bytes, 0, sizeof bytes);  // common_functions.h's device memset
  b.zeroed = bytes[0] | bytes[3];
  b.as_ll = __double_as_longlong(x);
  b.back = __longlong_as_double(b.as_ll);
  b.hi = __double2hiint(x);
  b.lo = __double2loint(x);
  b.joined = __hiloint2double(b.hi, b.lo);
  b.fma = __fma_rn(x, 2.0, 0.25);
  b.sum = __dadd_rn(x, 1.0);
  b.product = __dmul_rn(x, 4.0);
  clock_t start = clock();
  b.clock_ran = clock() >= start;
  *out = b;
}

int main() {
  const double x = 1.5;
  Bits *d_out;
  cudaMalloc(&d_out, sizeof(Bits));
  legacy_kernel<<<1, 1>>>(d_out, x);
  Bits h;
  cudaMemcpy(&h, d_out, sizeof h, cudaMemcpyDeviceToHost);
  // 1.5 is 0x3FF8000000000000 in IEEE 754 binary64.
  CHECK(h.as_ll == 0x3FF8000000000000LL);
  CHECK(h.back == x);
  CHECK(h.hi == 0x3FF80000 && h.lo == 0);
  CHECK(h.joined == x);
  CHECK(h.fma == 3.25 && h.sum == 2.5 && h.product == 6.0);
  CHECK(h.clock_ran == 1 && h.zeroed == 0);
  cudaFree(d_out);
  return finish();
}
