/*
 * gpu_results.cu: shifts by amounts known only at run time and float to
 * integer conversions give, in device code, what a GPU gives: PTX's shl and
 * shr clamp the amount to the register's width, cvt.rzi saturates to the
 * destination's range and gives 0 for NaN (PTX ISA, "shl", "shr", "cvt").
 * x86-64 takes the amount modulo the width and converts out-of-range
 * values and NaN to 0x80000000..., so without the device pass's GCC plugin
 * every check below fails.
 */
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>

#include "check.cuh"
#include "gpu_results.cuh"

struct results {
  unsigned masks[4];
  unsigned fields[3];
  int signs[3];
  unsigned long long wide[3];
  int ints[5];
  unsigned uints[4];
  long long longs[3];
  unsigned long long ulongs[3];
};

__global__ void shifts(const int *amounts, results *r) {
  if (threadIdx.x != 0)
    return;
  r->masks[0] = low_bits(amounts[0]);           /* 32 */
  r->masks[1] = low_bits(amounts[1]);           /* 5 */
  r->masks[2] = low_bits(amounts[2]);           /* 40 */
  r->masks[3] = low_bits((unsigned)amounts[3]); /* -1: 2^32 - 1 as PTX reads it */
  r->fields[0] = field_above(0xdeadbeefu, amounts[0]);
  r->fields[1] = field_above(0xdeadbeefu, amounts[4]); /* 4 */
  r->fields[2] = field_above(0xdeadbeefu, amounts[3]);
  r->signs[0] = spread_sign(-8, amounts[2]);
  r->signs[1] = spread_sign(8, amounts[0]);
  r->signs[2] = spread_sign(-8, amounts[5]); /* 1 */
  r->wide[0] = shifted_left<unsigned long long>(1, amounts[6]); /* 64 */
  r->wide[1] = shifted_left<unsigned long long>(1, amounts[7]); /* 63 */
  r->wide[2] = shifted_left<unsigned long long>(3, amounts[0]);
}

__global__ void conversions(const float *f, const double *d, results *r) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < 5)
    r->ints[i] = quantise<int>(f[i], 1.0f);
  if (i < 4)
    r->uints[i] = quantise<unsigned>(f[i + 5], 1.0f);
  if (i < 3) {
    r->longs[i] = quantise<long long>(d[i], 1.0);
    r->ulongs[i] = quantise<unsigned long long>(d[i + 3], 1.0);
  }
}

int main() {
  const int amounts[] = {32, 5, 40, -1, 4, 1, 64, 63};
  const float floats[] = {3e9f, -3e9f, NAN, -2.5f, 2147483520.0f,
                          -1.0f, 5e9f, NAN, 4294967040.0f};
  const double doubles[] = {1e19, -1e19, NAN, -3.0, 1e20, 12345.9};
  int *d_amounts;
  float *d_floats;
  double *d_doubles;
  results *d_r, r;
  cudaMalloc(&d_amounts, sizeof amounts);
  cudaMalloc(&d_floats, sizeof floats);
  cudaMalloc(&d_doubles, sizeof doubles);
  cudaMalloc(&d_r, sizeof r);
  cudaMemcpy(d_amounts, amounts, sizeof amounts, cudaMemcpyHostToDevice);
  cudaMemcpy(d_floats, floats, sizeof floats, cudaMemcpyHostToDevice);
  cudaMemcpy(d_doubles, doubles, sizeof doubles, cudaMemcpyHostToDevice);
  cudaMemset(d_r, 0x55, sizeof r);
  shifts<<<1, 32>>>(d_amounts, d_r);
  conversions<<<1, 32>>>(d_floats, d_doubles, d_r);
  CHECK(cudaMemcpy(&r, d_r, sizeof r, cudaMemcpyDeviceToHost) == cudaSuccess);

  CHECK(r.masks[0] == 0xffffffffu);
  CHECK(r.masks[1] == 0x1fu);
  CHECK(r.masks[2] == 0xffffffffu);
  CHECK(r.masks[3] == 0xffffffffu);
  CHECK(r.fields[0] == 0);
  CHECK(r.fields[1] == 0x0deadbeeu);
  CHECK(r.fields[2] == 0);
  CHECK(r.signs[0] == -1);
  CHECK(r.signs[1] == 0);
  CHECK(r.signs[2] == -4);
  CHECK(r.wide[0] == 0);
  CHECK(r.wide[1] == 0x8000000000000000ull);
  CHECK(r.wide[2] == 0x300000000ull);

  CHECK(r.ints[0] == std::numeric_limits<int>::max());
  CHECK(r.ints[1] == std::numeric_limits<int>::min());
  CHECK(r.ints[2] == 0);
  CHECK(r.ints[3] == -2);
  CHECK(r.ints[4] == 2147483520);
  CHECK(r.uints[0] == 0);
  CHECK(r.uints[1] == std::numeric_limits<unsigned>::max());
  CHECK(r.uints[2] == 0);
  CHECK(r.uints[3] == 4294967040u);
  CHECK(r.longs[0] == std::numeric_limits<long long>::max());
  CHECK(r.longs[1] == std::numeric_limits<long long>::min());
  CHECK(r.longs[2] == 0);
  CHECK(r.ulongs[0] == 0);
  CHECK(r.ulongs[1] == std::numeric_limits<unsigned long long>::max());
  CHECK(r.ulongs[2] == 12345);
  cudaFree(d_amounts);
  cudaFree(d_floats);
  cudaFree(d_doubles);
  cudaFree(d_r);
  return finish();
}
