// fma_contract.cu: a*b+c in a kernel, for a, b, c whose product rounded
// to float loses the bit that decides the sum: a = b = 1 + 2^-12,
// c = -(1 + 2^-11). Rounded once (a fused multiply-add, what nvcc's
// default -fmad=true makes of it: PTX fma.rn.f32) the sum is 2^-24;
// rounded twice (mul.rn then add.rn: -fmad=false, or __fmul_rn and
// __fadd_rn in any mode) it is 0. Prints "contracted 0x1p-24" or
// "contracted 0x0p+0", then the fmaf() and intrinsics' results, which do
// not depend on -fmad. Double precision likewise with 2^-27 and 2^-26.
// tests/driver_fmad.sh compares with the PTX that nvcc writes.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void multiply_add(const float *in, const double *din, float *out,
                             double *dout) {
  float a = in[0], b = in[1], c = in[2];
  out[0] = a * b + c;                        // contracted under -fmad=true
  out[1] = fmaf(a, b, c);                    // always fused
  out[2] = __fadd_rn(__fmul_rn(a, b), c);    // never fused
  double x = din[0], y = din[1], z = din[2];
  dout[0] = x * y + z;
  dout[1] = __dadd_rn(__dmul_rn(x, y), z);
}

int main() {
  float *in, *out;
  double *din, *dout;
  if (cudaMallocManaged(&in, 3 * sizeof *in) != cudaSuccess ||
      cudaMallocManaged(&out, 3 * sizeof *out) != cudaSuccess ||
      cudaMallocManaged(&din, 3 * sizeof *din) != cudaSuccess ||
      cudaMallocManaged(&dout, 2 * sizeof *dout) != cudaSuccess)
    return 1;
  in[0] = in[1] = 1.0f + 0x1p-12f;
  in[2] = -(1.0f + 0x1p-11f);
  din[0] = din[1] = 1.0 + 0x1p-27;
  din[2] = -(1.0 + 0x1p-26);
  multiply_add<<<1, 1>>>(in, din, out, dout);
  if (cudaDeviceSynchronize() != cudaSuccess)
    return 1;
  std::printf("contracted %a fmaf %a rn %a double %a double_rn %a\n",
              (double)out[0], (double)out[1], (double)out[2], dout[0],
              dout[1]);
  return 0;
}
