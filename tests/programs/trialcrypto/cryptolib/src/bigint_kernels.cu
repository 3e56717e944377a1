// bigint_kernels.cu - modular exponentiation kernels (relocatable device code).
// NVCC_OPTIONS: -rdc=true -I../include -I../host
#include "bigint.cuh"

__device__ void mont_sqr256(uint32_t r[8], const uint32_t a[8], const ModCtx256 &ctx) {
  mp::mont_mul<8>(r, a, a, ctx.n, ctx.nprime);
}

__global__ void modexp256(const mp::Num<8> *__restrict__ base, const mp::Num<8> *__restrict__ exps,
                          mp::Num<8> *__restrict__ out, int count, ModCtx256 ctx) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid >= count) return;
  uint32_t x[8], acc[8], tmp[8];
  mp::mont_mul<8>(x, base[tid].w, ctx.r2, ctx.n, ctx.nprime);
#pragma unroll
  for (int i = 0; i < 8; ++i) acc[i] = ctx.one[i];
  const mp::Num<8> e = exps[tid];
  for (int bit = 255; bit >= 0; --bit) {
    mont_sqr256(tmp, acc, ctx);
    if ((e.w[bit / 32] >> (bit % 32)) & 1)
      mp::mont_mul<8>(acc, tmp, x, ctx.n, ctx.nprime);
    else
#pragma unroll
      for (int i = 0; i < 8; ++i) acc[i] = tmp[i];
  }
  uint32_t unit[8] = {1, 0, 0, 0, 0, 0, 0, 0};
  mp::mont_mul<8>(tmp, acc, unit, ctx.n, ctx.nprime);
  out[tid] = *reinterpret_cast<mp::Num<8> *>(tmp);
}
