// fast_math.cu: with --use_fast_math, kernels' sinf, cosf, tanf, sincosf,
// expf, exp10f, logf, log2f, log10f and powf are the fast intrinsics
// (__sinf, ...), as nvcc makes them (docs/device-math.md): each gives the
// bits of its intrinsic, and expf(50) gives __expf's, which is not the
// accurate expf(50) (the product 50 * log2(e) is rounded to float first).
// CUEMU_OPTIONS: --use_fast_math
// NVCC_OPTIONS: --use_fast_math
// It also builds with nvcc (nvcc -arch=sm_90 --use_fast_math fast_math.cu).
#include <cmath>
#include <cstdio>
#include <cstring>

// Each function against its intrinsic, at argument x: 0 where the bits
// agree, else 1 << (the function's number).
__global__ void compare(const float *x, int n, unsigned *differ, float fifty, float *expf50) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float a = x[i], b = 1.25f;
  float s1, c1, s2, c2;
  sincosf(a, &s1, &c1);
  __sincosf(a, &s2, &c2);
  const float pairs[][2] = {
      {sinf(a), __sinf(a)},         {cosf(a), __cosf(a)},     {tanf(a), __tanf(a)},
      {s1, s2},                     {c1, c2},                 {expf(a), __expf(a)},
      {exp10f(a), __exp10f(a)},     {logf(b + a * a), __logf(b + a * a)},
      {log2f(b + a * a), __log2f(b + a * a)}, {log10f(b + a * a), __log10f(b + a * a)},
      {powf(b + a * a, b), __powf(b + a * a, b)}};
  unsigned bits = 0;
  for (unsigned k = 0; k < sizeof pairs / sizeof pairs[0]; ++k)
    if (__float_as_uint(pairs[k][0]) != __float_as_uint(pairs[k][1]))
      bits |= 1u << k;
  differ[i] = bits;
  if (i == 0)
    *expf50 = expf(fifty);  // not a constant, which g++ would evaluate itself
}

int main() {
  const int n = 64;
  float *x, *expf50;
  unsigned *differ;
  if (cudaMallocManaged(&x, n * sizeof *x) != cudaSuccess ||
      cudaMallocManaged(&differ, n * sizeof *differ) != cudaSuccess ||
      cudaMallocManaged(&expf50, sizeof *expf50) != cudaSuccess) {
    std::printf("cudaMallocManaged failed\nFAIL\n");
    return 1;
  }
  for (int i = 0; i < n; ++i)
    x[i] = -7.0f + 0.23f * static_cast<float>(i);
  compare<<<2, 32>>>(x, n, differ, 50.0f, expf50);
  if (cudaDeviceSynchronize() != cudaSuccess) {
    std::printf("the kernel failed\nFAIL\n");
    return 1;
  }
  int bad = 0;
  for (int i = 0; i < n; ++i)
    if (differ[i]) {
      std::printf("x = %a: functions 0x%x differ from their intrinsics\n", x[i], differ[i]);
      ++bad;
    }
  // __expf(50)'s bits (libdevice's composition; the accurate expf(50) is
  // 0x638c881f, 5.18470546e+21).
  unsigned e;
  std::memcpy(&e, expf50, sizeof e);
  if (e != 0x638c8814u) {
    std::printf("expf(50) is %a (0x%08x), not __expf(50)'s 0x638c8814\n", *expf50, e);
    ++bad;
  }
  std::printf("%s\n", bad ? "FAIL" : "PASS");
  return bad ? 1 : 0;
}
