// rsqrt_ulp.cu: the reciprocal square roots and sqrtf against the exact
// value over many inputs, in ulps of the result, against CUDA's documented
// bounds (CUDA C++ Programming Guide, "Mathematical Functions", single
// precision): rsqrtf 2 ulp (rsqrt(float) is rsqrtf), sqrtf and __frsqrt_rn
// correctly rounded (0 ulp: within half an ulp of the exact value).
//
// The inputs: 2^20 positive floats at an even stride over every finite
// float (subnormals included), and 2^19 pseudo-random floats in [0.5, 8)
// (two binades of mantissas). The exact value is taken in long double on the
// host. Special values (0, -0, inf, negative, NaN) are checked one by one.
// It also builds with nvcc (nvcc -arch=sm_90 rsqrt_ulp.cu).
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#include "../check.cuh"

__global__ void roots(const float *x, float *r, float *rr, float *rn, float *s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  r[i] = rsqrtf(x[i]);
  rr[i] = rsqrt(x[i]);
  rn[i] = __frsqrt_rn(x[i]);
  s[i] = sqrtf(x[i]);
}

static float from_bits(unsigned u) {
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

// The error of `got` from `exact` in ulps of the float nearest `exact`
// (the spacing of floats at its binade; subnormal spacing below 2^-126).
static double ulps(float got, long double exact) {
  int e;
  std::frexp(static_cast<double>(exact), &e);
  long double ulp = std::ldexp(1.0L, (e - 1 < -126 ? -126 : e - 1) - 23);
  return static_cast<double>(std::fabs(static_cast<long double>(got) - exact) / ulp);
}

int main() {
  const int stride_n = 1 << 20, random_n = 1 << 19, specials = 6, n = stride_n + random_n + specials;
  std::vector<float> host(n);
  for (int i = 0; i < stride_n; ++i)  // 1 .. 0x7f7fffff (the largest finite float)
    host[i] = from_bits(1u + static_cast<unsigned>((0x7f7ffffeull * i) / (stride_n - 1)));
  unsigned seed = 12345u;
  for (int i = 0; i < random_n; ++i) {
    seed = seed * 1664525u + 1013904223u;
    host[stride_n + i] = from_bits(0x3f000000u + (seed >> 9) % 0x01800000u);  // [0.5, 8)
  }
  const float inf = from_bits(0x7f800000u);
  const float special[specials] = {0.0f, -0.0f, inf, -1.0f, from_bits(0x7fc00000u), -inf};
  for (int i = 0; i < specials; ++i) host[stride_n + random_n + i] = special[i];

  float *x, *r, *rr, *rn, *s;
  cudaMallocManaged(&x, n * sizeof(float));
  cudaMallocManaged(&r, n * sizeof(float));
  cudaMallocManaged(&rr, n * sizeof(float));
  cudaMallocManaged(&rn, n * sizeof(float));
  cudaMallocManaged(&s, n * sizeof(float));
  std::memcpy(x, host.data(), n * sizeof(float));
  roots<<<(n + 255) / 256, 256>>>(x, r, rr, rn, s, n);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);

  double worst_r = 0, worst_rn = 0, worst_s = 0;
  int bad_r = 0, bad_rr = 0, bad_rn = 0, bad_s = 0;
  for (int i = 0; i < stride_n + random_n; ++i) {
    const long double xi = x[i];
    const long double exact_r = 1.0L / std::sqrt(xi), exact_s = std::sqrt(xi);
    double e = ulps(r[i], exact_r);
    if (e > worst_r) worst_r = e;
    if (!(e <= 2.0)) ++bad_r;
    if (!(ulps(rr[i], exact_r) <= 2.0)) ++bad_rr;
    e = ulps(rn[i], exact_r);
    if (e > worst_rn) worst_rn = e;
    if (!(e <= 0.5)) ++bad_rn;
    e = ulps(s[i], exact_s);
    if (e > worst_s) worst_s = e;
    if (!(e <= 0.5)) ++bad_s;
  }
  std::printf("rsqrtf %.3f ulp, __frsqrt_rn %.3f ulp, sqrtf %.3f ulp at worst over %d inputs\n",
              worst_r, worst_rn, worst_s, stride_n + random_n);
  CHECK(bad_r == 0);
  CHECK(bad_rr == 0);
  CHECK(bad_rn == 0);
  CHECK(bad_s == 0);
  // The stride reaches every binade: the worst case is not trivially exact.
  CHECK(worst_r > 0.25 && worst_s > 0.25);

  const int k = stride_n + random_n;
  CHECK(r[k] == inf && r[k + 1] == -inf && r[k + 2] == 0.0f && !std::signbit(r[k + 2]));
  CHECK(std::isnan(r[k + 3]) && std::isnan(r[k + 4]) && std::isnan(r[k + 5]));
  CHECK(rn[k] == inf && rn[k + 1] == -inf && rn[k + 2] == 0.0f && std::isnan(rn[k + 3]));
  CHECK(s[k] == 0.0f && std::signbit(s[k + 1]) && s[k + 2] == inf && std::isnan(s[k + 3]));
  return finish();
}
