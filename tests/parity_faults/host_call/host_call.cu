/* host_call.cu: wrong on purpose: a __host__ __device__ function calls exit(),
 * a host function (nvcc only warns, #20011-D; the compile does not judge it
 * there). The emulated leg must fail with an error at exit's line, and the
 * parity runner must go on (tests/parity_runner.sh). */
#include <cstdlib>

__host__ __device__ void give_up(int code) {
  exit(code); /* FAULT_LINE */
}

extern "C" __global__ void clamp(int n, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && x[i] > 0.99f)
    give_up(2);
  if (i < n) y[i] = x[i];
}
