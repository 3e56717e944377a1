/*
 * intrinsics.cu: device intrinsics checked against values worked out by
 * hand: the cache-hinted loads and stores for every type CUDA declares them
 * for (sm_32_intrinsics.h, cuda_fp16.h, cuda_bf16.h); __fns with the PTX
 * ISA's examples; __funnelshift_l/lc/r/rc; every __dp4a and __dp2a_lo/hi
 * overload; the bit casts and rounding conversions of the type-casting
 * intrinsics; packed half2 and bfloat162 arithmetic rounded to nearest
 * even (ties, overflow, a fused multiply-add that differs from a multiply
 * then an add); the address-space predicates; __prof_trigger.
 */
#include <cstdio>
#include <cstring>

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include "../check.cuh"

/* ---- Cache-hinted loads and stores ---------------------------------------- */

/* out[k * n + i] = the k-th load form of in[i], stored by the k-th store
 * form (k < 6 loads; the stores cycle through their 4 forms). */
template <class T>
__global__ void hinted_copy(const T *in, T *out, int n) {
  int i = threadIdx.x;
  if (i >= n)
    return;
  T v[6] = {__ldg(in + i),  __ldcg(in + i), __ldca(in + i),
            __ldcs(in + i), __ldlu(in + i), __ldcv(in + i)};
  for (int k = 0; k < 6; ++k) {
    T *dst = out + k * n + i;
    switch (k % 4) {
    case 0: __stwb(dst, v[k]); break;
    case 1: __stcg(dst, v[k]); break;
    case 2: __stcs(dst, v[k]); break;
    default: __stwt(dst, v[k]); break;
    }
  }
}

template <class T> static void check_hinted(const char *name) {
  const int n = 5;
  unsigned char bytes[n * sizeof(T)];
  for (size_t i = 0; i < sizeof bytes; ++i)
    bytes[i] = (unsigned char)(i * 37 + 11);
  T *in = nullptr, *out = nullptr;
  CHECK(cudaMalloc(&in, sizeof bytes) == cudaSuccess);
  CHECK(cudaMalloc(&out, 6 * sizeof bytes) == cudaSuccess);
  CHECK(cudaMemcpy(in, bytes, sizeof bytes, cudaMemcpyHostToDevice) ==
        cudaSuccess);
  hinted_copy<T><<<1, 32>>>(in, out, n);
  unsigned char back[6 * sizeof bytes];
  CHECK(cudaMemcpy(back, out, sizeof back, cudaMemcpyDeviceToHost) ==
        cudaSuccess);
  for (int k = 0; k < 6; ++k)
    if (std::memcmp(back + k * sizeof bytes, bytes, sizeof bytes) != 0) {
      std::fprintf(stderr, "hinted load/store of %s: form %d differs\n", name,
                   k);
      ++check_failures;
    }
  cudaFree(in);
  cudaFree(out);
}

static void hinted_all() {
#define HINTED(T) check_hinted<T>(#T)
  HINTED(char); HINTED(signed char); HINTED(unsigned char);
  HINTED(short); HINTED(unsigned short); HINTED(int); HINTED(unsigned int);
  HINTED(long); HINTED(unsigned long); HINTED(long long);
  HINTED(unsigned long long); HINTED(float); HINTED(double);
  HINTED(char2); HINTED(char4); HINTED(uchar2); HINTED(uchar4);
  HINTED(short2); HINTED(short4); HINTED(ushort2); HINTED(ushort4);
  HINTED(int2); HINTED(int4); HINTED(uint2); HINTED(uint4);
  HINTED(float2); HINTED(float4); HINTED(double2); HINTED(longlong2);
  HINTED(ulonglong2); HINTED(__half); HINTED(__half2);
  HINTED(__nv_bfloat16); HINTED(__nv_bfloat162);
#undef HINTED
}

/* ---- Integer intrinsics ------------------------------------------------------ */

__global__ void integer_intrinsics(unsigned *u, int *s) {
  /* __fns: the PTX ISA's examples, offset 0, and searches that fail. */
  u[0] = __fns(0xaaaaaaaau, 3, 1);
  u[1] = __fns(0xaaaaaaaau, 3, -1);
  u[2] = __fns(0xaaaaaaaau, 2, 1);
  u[3] = __fns(0xaaaaaaaau, 2, -1);
  u[4] = __fns(0xaaaaaaaau, 2, 0);
  u[5] = __fns(0x1u, 5, 2);
  u[6] = __fns(0x80000001u, 0, 2);
  u[7] = __fns(0x80000001u, 31, -2);
  /* Funnel shifts of hi:lo = 0x01234567:89abcdef. */
  u[8] = __funnelshift_l(0x89abcdefu, 0x01234567u, 8);
  u[9] = __funnelshift_l(0x89abcdefu, 0x01234567u, 40);  /* shift & 31 */
  u[10] = __funnelshift_lc(0x89abcdefu, 0x01234567u, 40); /* min(shift, 32) */
  u[11] = __funnelshift_r(0x89abcdefu, 0x01234567u, 8);
  u[12] = __funnelshift_r(0x89abcdefu, 0x01234567u, 40);
  u[13] = __funnelshift_rc(0x89abcdefu, 0x01234567u, 40);
  /* __dp4a: bytes (-128, 127, -1, 1) . (5, 4, 3, 2) = -133. */
  s[0] = __dp4a((int)0x01ff7f80, (int)0x02030405, 1000);
  u[14] = __dp4a(0x01ff7f80u, 0x02030405u, 1000u); /* 128, 127, 255, 1 */
  s[1] = __dp4a(make_char4(-128, 127, -1, 1), make_char4(5, 4, 3, 2), 1000);
  u[15] = __dp4a(make_uchar4(128, 127, 255, 1), make_uchar4(5, 4, 3, 2), 1000u);
  /* __dp2a: halves (3, -2) with bytes (2, 127) (lo) or (1, -128) (hi). */
  s[2] = __dp2a_lo((int)0xfffe0003, (int)0x80017f02, 10);
  s[3] = __dp2a_hi((int)0xfffe0003, (int)0x80017f02, 10);
  u[16] = __dp2a_lo(0xfffe0003u, 0x80017f02u, 10u);
  u[17] = __dp2a_hi(0xfffe0003u, 0x80017f02u, 10u);
  s[4] = __dp2a_lo(make_short2(3, -2), make_char4(2, 127, 1, -128), 10);
  s[5] = __dp2a_hi(make_short2(3, -2), make_char4(2, 127, 1, -128), 10);
  u[18] = __dp2a_lo(make_ushort2(3, 65534), make_uchar4(2, 127, 1, 128), 10u);
  u[19] = __dp2a_hi(make_ushort2(3, 65534), make_uchar4(2, 127, 1, 128), 10u);
}

static void integers() {
  unsigned *u = nullptr;
  int *s = nullptr;
  CHECK(cudaMallocManaged(&u, 20 * sizeof(unsigned)) == cudaSuccess);
  CHECK(cudaMallocManaged(&s, 6 * sizeof(int)) == cudaSuccess);
  integer_intrinsics<<<1, 1>>>(u, s);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  const unsigned eu[20] = {3, 3, 3, 1, 0xffffffffu, 0xffffffffu, 31, 0,
                           0x23456789u, 0x23456789u, 0x89abcdefu,
                           0x6789abcdu, 0x6789abcdu, 0x01234567u,
                           2915u, 2915u, 8322834u, 8388365u, 8322834u,
                           8388365u};
  const int es[6] = {867, 867, -238, 269, -238, 269};
  for (int i = 0; i < 20; ++i)
    if (u[i] != eu[i]) {
      std::fprintf(stderr, "integer intrinsic u[%d]: got %#x, expected %#x\n",
                   i, u[i], eu[i]);
      ++check_failures;
    }
  for (int i = 0; i < 6; ++i)
    if (s[i] != es[i]) {
      std::fprintf(stderr, "integer intrinsic s[%d]: got %d, expected %d\n", i,
                   s[i], es[i]);
      ++check_failures;
    }
  cudaFree(u);
  cudaFree(s);
}

/* ---- Bit casts and rounding conversions -------------------------------------- */

struct Casts {
  float f[12];
  int i[10];
  unsigned u[4];
  long long ll[4];
  double d[6];
};

__global__ void casts(Casts *c) {
  c->f[0] = __int_as_float(0x3f800000);
  c->i[0] = __float_as_int(-2.0f);
  c->f[1] = __uint_as_float(0x7f800000u);
  c->u[0] = __float_as_uint(0.5f);
  c->ll[0] = __double_as_longlong(1.0);
  c->d[0] = __longlong_as_double(0x4000000000000000ll);
  c->d[1] = __hiloint2double(0x3ff80000, 0);
  c->i[1] = __double2hiint(-1.5);
  c->i[2] = __double2loint(__hiloint2double(7, 0x12345678));
  c->i[3] = __float2int_rn(2.5f);  /* ties to even: 2 */
  c->i[4] = __float2int_rd(-2.5f); /* -3 */
  c->i[5] = __float2int_ru(2.1f);  /* 3 */
  c->i[6] = __float2int_rz(-2.9f); /* -2 */
  c->u[1] = __float2uint_rn(3.5f); /* 4 */
  c->f[2] = __int2float_rn(16777217); /* 2^24 + 1: ties to even, 2^24 */
  c->f[3] = __int2float_ru(16777217);
  c->f[4] = __int2float_rd(16777217);
  c->f[5] = __int2float_rz(-16777217);
  c->f[6] = __uint2float_rn(0xffffffffu); /* 2^32 */
  c->d[2] = __ll2double_rn(9007199254740993ll); /* 2^53 + 1 -> 2^53 */
  c->d[3] = __ll2double_ru(9007199254740993ll); /* 2^53 + 2 */
  c->ll[1] = __float2ll_rz(-3.7f);
  c->f[7] = __double2float_ru(1.0 + 0x1p-30); /* 1 + 2^-23 */
  c->f[8] = __double2float_rd(1.0 + 0x1p-30); /* 1 */
  c->i[7] = __double2int_rn(-0.5);            /* 0 */
  c->ll[2] = __double2ll_ru(-0.5);            /* 0 */
  c->u[2] = __double2uint_rd(7.99);           /* 7 */
  c->d[4] = __int2double_rn(-7);
  c->f[9] = __ull2float_rn(0xffffffffffffffffull); /* 2^64 */
  c->ll[3] = (long long)__double2ull_rz(1e19);
  c->f[10] = __ll2float_rd(-16777217ll); /* -(2^24 + 2) */
}

static void casts_test() {
  Casts *c = nullptr;
  CHECK(cudaMallocManaged(&c, sizeof(Casts)) == cudaSuccess);
  std::memset(c, 0, sizeof *c);
  casts<<<1, 1>>>(c);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(c->f[0] == 1.0f && c->i[0] == (int)0xc0000000);
  CHECK(c->f[1] == __builtin_huge_valf() && c->u[0] == 0x3f000000u);
  CHECK(c->ll[0] == 0x3ff0000000000000ll && c->d[0] == 2.0);
  CHECK(c->d[1] == 1.5 && c->i[1] == (int)0xbff80000 && c->i[2] == 0x12345678);
  CHECK(c->i[3] == 2 && c->i[4] == -3 && c->i[5] == 3 && c->i[6] == -2);
  CHECK(c->u[1] == 4u);
  CHECK(c->f[2] == 16777216.0f && c->f[3] == 16777218.0f &&
        c->f[4] == 16777216.0f && c->f[5] == -16777216.0f);
  CHECK(c->f[6] == 4294967296.0f);
  CHECK(c->d[2] == 9007199254740992.0 && c->d[3] == 9007199254740994.0);
  CHECK(c->ll[1] == -3);
  CHECK(c->f[7] == 1.0f + 0x1p-23f && c->f[8] == 1.0f);
  CHECK(c->i[7] == 0 && c->ll[2] == 0 && c->u[2] == 7u && c->d[4] == -7.0);
  CHECK(c->f[9] == 18446744073709551616.0f);
  CHECK((unsigned long long)c->ll[3] == 10000000000000000000ull);
  CHECK(c->f[10] == -16777218.0f);
  cudaFree(c);
}

/* ---- Packed half2 and bfloat162 ------------------------------------------------ */

__global__ void packed(unsigned short *h, unsigned *m) {
  const __half2 one_two = __halves2half2(__float2half(1.0f), __float2half(2.0f));
  const __half2 max_half = __halves2half2(__ushort_as_half(0x7bffu),
                                          __ushort_as_half(0x7bffu)); /* 65504 */
  /* 65504 + 16 is a tie between 65504 and 2^16 (infinity): even wins,
   * infinity; 65504 + 15 rounds to 65504. */
  __half2 r = __hadd2(max_half, __halves2half2(__float2half(16.0f),
                                               __float2half(15.0f)));
  h[0] = __half_as_ushort(__low2half(r));
  h[1] = __half_as_ushort(__high2half(r));
  /* (1 + 3 * 2^-10)^2 - 1, fused: 6 * 2^-10 + 2^-17 (0x1e02); a multiply
   * then an add would give 6 * 2^-10 (0x1e00). */
  __half a = __ushort_as_half(0x3c03u);
  __half2 f = __hfma2(__halves2half2(a, a), __halves2half2(a, a),
                      __halves2half2(__float2half(-1.0f), __float2half(-1.0f)));
  h[2] = __half_as_ushort(__low2half(f));
  __half2 mul_add = __hadd2(__hmul2(__halves2half2(a, a), __halves2half2(a, a)),
                            __halves2half2(__float2half(-1.0f),
                                           __float2half(-1.0f)));
  h[3] = __half_as_ushort(__low2half(mul_add));
  /* 1 / 3 and 1 / 4. */
  __half2 q = __h2div(__halves2half2(__float2half(1.0f), __float2half(1.0f)),
                      __halves2half2(__float2half(3.0f), __float2half(4.0f)));
  h[4] = __half_as_ushort(__low2half(q));
  h[5] = __half_as_ushort(__high2half(q));
  /* Complex multiply-add (1 + 2i)(3 + 4i) + (5 + 6i) = 0 + 16i. */
  __half2 z = __hcmadd(one_two, __halves2half2(__float2half(3.0f),
                                               __float2half(4.0f)),
                       __halves2half2(__float2half(5.0f), __float2half(6.0f)));
  h[6] = __half_as_ushort(__low2half(z));
  h[7] = __half_as_ushort(__high2half(z));
  /* Square roots and reciprocals. */
  __half2 sq = h2sqrt(__halves2half2(__float2half(4.0f), __float2half(9.0f)));
  h[8] = __half_as_ushort(__low2half(sq));
  h[9] = __half_as_ushort(__high2half(sq));
  __half2 rc = h2rcp(__halves2half2(__float2half(4.0f), __float2half(0.5f)));
  h[10] = __half_as_ushort(__low2half(rc));
  h[11] = __half_as_ushort(__high2half(rc));
  /* Comparisons: masks per lane, unordered forms true for NaN. */
  __half2 nan_one = __halves2half2(__ushort_as_half(0x7e00u), __float2half(1.0f));
  __half2 one_one = __halves2half2(__float2half(1.0f), __float2half(1.0f));
  m[0] = __heq2_mask(nan_one, one_one);   /* 0x ffff 0000 */
  m[1] = __hequ2_mask(nan_one, one_one);  /* 0x ffff ffff */
  m[2] = __hbeq2(nan_one, one_one);       /* 0 */
  m[3] = __hbequ2(nan_one, one_one);      /* 1 */
  m[4] = __hlt2_mask(one_two, __halves2half2(__float2half(2.0f),
                                             __float2half(2.0f))); /* 0x0000ffff */
  __half2 mx = __hmax2_nan(nan_one, one_one);
  h[12] = __half_as_ushort(__low2half(mx));
  __half2 mn = __hmin2(nan_one, __halves2half2(__float2half(0.0f),
                                               __float2half(-3.0f)));
  h[13] = __half_as_ushort(__low2half(mn)); /* NaN loses: 0 */
  h[14] = __half_as_ushort(__high2half(mn)); /* -3 */

  /* bfloat16: 1 + 2^-8 ties to 1 (even); (1 + 2^-7) + 2^-8 ties to
   * 1 + 2^-6 (even). */
  __nv_bfloat162 b = __hadd2(
      __halves2bfloat162(__ushort_as_bfloat16(0x3f80u),
                         __ushort_as_bfloat16(0x3f81u)),
      __halves2bfloat162(__ushort_as_bfloat16(0x3b80u),
                         __ushort_as_bfloat16(0x3b80u)));
  h[15] = __bfloat16_as_ushort(__low2bfloat16(b));
  h[16] = __bfloat16_as_ushort(__high2bfloat16(b));
  /* fma with relu: -1 * 2 + 1 = -1 -> 0; 3 * 3 + 0 = 9. */
  __nv_bfloat162 fr = __hfma2_relu(
      __floats2bfloat162_rn(-1.0f, 3.0f), __floats2bfloat162_rn(2.0f, 3.0f),
      __floats2bfloat162_rn(1.0f, 0.0f));
  h[17] = __bfloat16_as_ushort(__low2bfloat16(fr));
  h[18] = __bfloat16_as_ushort(__high2bfloat16(fr));
  /* float -> bf16 rounds to nearest even: 1 + 2^-8 -> 1, 1 + 3 * 2^-8 ->
   * 1 + 2^-6; float2 -> half2 the same way. */
  __nv_bfloat162 cv = __float22bfloat162_rn(make_float2(1.0f + 0x1p-8f,
                                                        1.0f + 0x3p-8f));
  h[19] = __bfloat16_as_ushort(__low2bfloat16(cv));
  h[20] = __bfloat16_as_ushort(__high2bfloat16(cv));
  __half2 hv = __float22half2_rn(make_float2(1.0f + 0x1p-11f, 65520.0f));
  h[21] = __half_as_ushort(__low2half(hv));  /* tie: 1 */
  h[22] = __half_as_ushort(__high2half(hv)); /* tie: infinity */
}

static void packed_test() {
  unsigned short *h = nullptr;
  unsigned *m = nullptr;
  CHECK(cudaMallocManaged(&h, 23 * sizeof(unsigned short)) == cudaSuccess);
  CHECK(cudaMallocManaged(&m, 5 * sizeof(unsigned)) == cudaSuccess);
  packed<<<1, 1>>>(h, m);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  const unsigned short eh[23] = {
      0x7c00, 0x7bff,         /* overflow tie, rounding down */
      0x1e02, 0x1e00,         /* fused vs separate */
      0x3555, 0x3400,         /* 1/3, 1/4 */
      0x0000, 0x4c00,         /* 0, 16 */
      0x4000, 0x4200,         /* 2, 3 */
      0x3400, 0x4000,         /* 0.25, 2 */
      0x7fff, 0x0000, 0xc200, /* canonical NaN, 0, -3 */
      0x3f80, 0x3f82,         /* bf16 ties */
      0x0000, 0x4110,         /* relu 0, 9 */
      0x3f80, 0x3f82,         /* bf16 conversion ties */
      0x3c00, 0x7c00};        /* half conversion ties */
  for (int i = 0; i < 23; ++i)
    if (h[i] != eh[i]) {
      std::fprintf(stderr, "packed h[%d]: got %#06x, expected %#06x\n", i,
                   h[i], eh[i]);
      ++check_failures;
    }
  const unsigned em[5] = {0xffff0000u, 0xffffffffu, 0, 1, 0x0000ffffu};
  for (int i = 0; i < 5; ++i)
    if (m[i] != em[i]) {
      std::fprintf(stderr, "packed m[%d]: got %#x, expected %#x\n", i, m[i],
                   em[i]);
      ++check_failures;
    }
  cudaFree(h);
  cudaFree(m);
}

/* ---- Address spaces ----------------------------------------------------------- */

/* flags[t] = bits: 1 static shared is shared, 2 dynamic shared is shared,
 * 4 a local is local, 8 global memory is global, 16 global is not shared
 * or local, 32 shared is not global or local, 64 null is in no space. */
template <bool Sync>
__global__ void spaces(const int *global, unsigned *flags) {
  __shared__ int tile[32];
  extern __shared__ int dyn[];
  int local = (int)threadIdx.x;
  volatile int *lp = &local;
  tile[threadIdx.x] = *lp;
  if (Sync)
    __syncthreads();
  unsigned f = 0;
  f |= __isShared(&tile[threadIdx.x]) ? 1u : 0u;
  f |= __isShared(dyn + threadIdx.x) ? 2u : 0u;
  f |= __isLocal((const void *)lp) ? 4u : 0u;
  f |= __isGlobal(global + threadIdx.x) ? 8u : 0u;
  f |= !__isShared(global) && !__isLocal(global) ? 16u : 0u;
  f |= !__isGlobal(tile) && !__isLocal(tile) && __isCtaShared(tile) ? 32u : 0u;
  f |= !__isGlobal(nullptr) && !__isShared(nullptr) ? 64u : 0u;
  __prof_trigger(0);
  flags[threadIdx.x] = f;
}

static void spaces_test() {
  int *g = nullptr;
  unsigned *flags = nullptr;
  CHECK(cudaMalloc(&g, 32 * sizeof(int)) == cudaSuccess);
  CHECK(cudaMallocManaged(&flags, 32 * sizeof(unsigned)) == cudaSuccess);
  spaces<false><<<2, 32, 32 * sizeof(int)>>>(g, flags);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  for (int t = 0; t < 32; ++t)
    CHECK(flags[t] == 127u);
  std::memset(flags, 0, 32 * sizeof(unsigned));
  spaces<true><<<2, 32, 32 * sizeof(int)>>>(g, flags);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  for (int t = 0; t < 32; ++t)
    CHECK(flags[t] == 127u);
  cudaFree(g);
  cudaFree(flags);
}

int main() {
  hinted_all();
  integers();
  casts_test();
  packed_test();
  spaces_test();
  return finish();
}
