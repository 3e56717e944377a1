/*
 * selftest_intrinsics.cu: self-checking kernels for CUDA's integer
 * intrinsics and the global min/max overloads. Each lane also checks values
 * that depend on its index, so all 32 bit positions are covered.
 */
#include "selftest.cuh"

#include <climits>

template <typename T>
__device__ static T opaque(T x) {
  volatile T v = x;
  return v;
}

extern "C" __global__ void selftest_intrinsics_bits(unsigned *failures) {
  const unsigned lane = threadIdx.x;
  const unsigned bit = 1u << lane;

  SELFTEST_CHECK(failures, __popc(bit) == 1 && __popc(0xffffffffu >> lane) == 32 - (int)lane);
  SELFTEST_CHECK(failures, __popc(opaque(0u)) == 0 && __popc(opaque(0xffffffffu)) == 32);
  SELFTEST_CHECK(failures, __popcll(opaque(~0ULL)) == 64 && __popcll(1ULL << (lane + 32)) == 1);
  SELFTEST_CHECK(failures, __popcll(opaque(0x8000000000000001ULL)) == 2);

  SELFTEST_CHECK(failures, __clz((int)bit) == 31 - (int)lane);
  SELFTEST_CHECK(failures, __clz(opaque(0)) == 32 && __clz(opaque(-1)) == 0);
  SELFTEST_CHECK(failures, __clzll(opaque(0LL)) == 64 && __clzll(opaque(1LL)) == 63 && __clzll(opaque(-1LL)) == 0);
  SELFTEST_CHECK(failures, __clzll((long long)(1ULL << (lane + 32))) == 31 - (int)lane);
  SELFTEST_CHECK(failures, __clzll((long long)(1ULL << lane)) == 63 - (int)lane);

  SELFTEST_CHECK(failures, __ffs((int)bit) == (int)lane + 1);
  SELFTEST_CHECK(failures, __ffs(opaque(0)) == 0 && __ffs(opaque(-1)) == 1 && __ffs(opaque(INT_MIN)) == 32);
  SELFTEST_CHECK(failures, __ffs(opaque(0x50)) == 5);
  SELFTEST_CHECK(failures, __ffsll(opaque(0LL)) == 0 && __ffsll(opaque(LLONG_MIN)) == 64);
  SELFTEST_CHECK(failures, __ffsll((long long)(1ULL << (lane + 32))) == (int)lane + 33);

  SELFTEST_CHECK(failures, __brev(bit) == 1u << (31 - lane));
  SELFTEST_CHECK(failures, __brev(opaque(0x12345678u)) == 0x1e6a2c48u && __brev(opaque(0u)) == 0u);
  SELFTEST_CHECK(failures, __brevll(opaque(1ULL)) == 1ULL << 63);
  SELFTEST_CHECK(failures, __brevll(opaque(0x0123456789abcdefULL)) == 0xf7b3d591e6a2c480ULL);
  SELFTEST_CHECK(failures, __brevll(1ULL << lane) == 1ULL << (63 - lane));

  /* Byte n of the result is byte s[4n+2:4n] of y:x. */
  const unsigned x = opaque(0x33221100u), y = opaque(0x77665544u);
  SELFTEST_CHECK(failures, __byte_perm(x, y, 0x3210u) == 0x33221100u && __byte_perm(x, y, 0x7654u) == 0x77665544u);
  SELFTEST_CHECK(failures, __byte_perm(x, y, 0x0123u) == 0x00112233u && __byte_perm(x, y, 0x5140u) == 0x55114400u);
  SELFTEST_CHECK(failures, __byte_perm(x, y, 0xffff3210u) == 0x33221100u);
  SELFTEST_CHECK(failures, __byte_perm(opaque(0x332211aau), y, 0x8888u) == 0xaaaaaaaau);
  SELFTEST_CHECK(failures, __byte_perm(x, y, lane & 7u) == 0x00000000u + ((lane & 7u) * 0x11u));

  /* Funnel shifts of hi:lo = 0x01234567:0x89abcdef. */
  const unsigned lo = opaque(0x89abcdefu), hi = opaque(0x01234567u);
  SELFTEST_CHECK(failures, __funnelshift_l(lo, hi, 4) == 0x12345678u && __funnelshift_l(lo, hi, 36) == 0x12345678u);
  SELFTEST_CHECK(failures, __funnelshift_l(lo, hi, 0) == hi && __funnelshift_l(lo, hi, 32) == hi);
  SELFTEST_CHECK(failures, __funnelshift_lc(lo, hi, 4) == 0x12345678u && __funnelshift_lc(lo, hi, 36) == lo);
  SELFTEST_CHECK(failures, __funnelshift_lc(lo, hi, 32) == lo && __funnelshift_lc(lo, hi, 0) == hi);
  SELFTEST_CHECK(failures, __funnelshift_r(lo, hi, 4) == 0x789abcdeu && __funnelshift_r(lo, hi, 36) == 0x789abcdeu);
  SELFTEST_CHECK(failures, __funnelshift_r(lo, hi, 0) == lo && __funnelshift_r(lo, hi, 32) == lo);
  SELFTEST_CHECK(failures, __funnelshift_rc(lo, hi, 4) == 0x789abcdeu && __funnelshift_rc(lo, hi, 36) == hi);
  SELFTEST_CHECK(failures, __funnelshift_rc(lo, hi, 0xffffffffu) == hi);
  /* With lo == hi, the funnel shifts rotate. */
  const unsigned r = opaque(0x80000001u);
  const unsigned rotl = lane ? (r << lane) | (r >> (32 - lane)) : r;
  const unsigned rotr = lane ? (r >> lane) | (r << (32 - lane)) : r;
  SELFTEST_CHECK(failures, __funnelshift_l(r, r, lane) == rotl && __funnelshift_r(r, r, lane) == rotr);
  SELFTEST_CHECK(failures, __funnelshift_l(r, r, lane + 32) == rotl && __funnelshift_r(r, r, lane + 64) == rotr);
}

extern "C" __global__ void selftest_intrinsics_arith(unsigned *failures) {
  const int lane = threadIdx.x;

  /* 24-bit multiplies use the low 24 bits, sign-extended for __mul24. */
  SELFTEST_CHECK(failures, __mul24(opaque(0x00800000), 2) == -16777216);
  SELFTEST_CHECK(failures, __mul24(opaque(0x007fffff), 0x007fffff) == (int)0xff000001u);
  SELFTEST_CHECK(failures, __mul24(opaque((int)0xff000003u), 5) == 15 && __mul24(opaque(-3), lane) == -3 * lane);
  SELFTEST_CHECK(failures, __umul24(opaque(0xff000003u), 5u) == 15u && __umul24(opaque(0xffffffu), 0xffffffu) == 0xfe000001u);

  SELFTEST_CHECK(failures, __mulhi(opaque(0x40000000), 4) == 1 && __mulhi(opaque(-1), 1) == -1);
  SELFTEST_CHECK(failures, __mulhi(opaque(INT_MIN), INT_MIN) == 0x40000000);
  SELFTEST_CHECK(failures, __umulhi(opaque(0xffffffffu), 0xffffffffu) == 0xfffffffeu);
  SELFTEST_CHECK(failures, __umulhi(opaque(1u << lane), 1u << (31 - lane)) == 0u);
  SELFTEST_CHECK(failures, __mul64hi(opaque(LLONG_MIN), 2LL) == -1LL && __mul64hi(opaque(1LL << 62), 4LL) == 1LL);
  SELFTEST_CHECK(failures, __mul64hi(opaque(-1LL), -1LL) == 0LL);
  SELFTEST_CHECK(failures, __umul64hi(opaque(~0ULL), ~0ULL) == ~0ULL - 1 && __umul64hi(opaque(1ULL << 63), 2ULL) == 1ULL);

  SELFTEST_CHECK(failures, __sad(opaque(-5), 10, 3u) == 18u && __sad(opaque(10), -5, 3u) == 18u);
  SELFTEST_CHECK(failures, __sad(opaque(INT_MAX), INT_MIN, 0u) == 0xffffffffu);
  SELFTEST_CHECK(failures, __usad(opaque(3u), 10u, 1u) == 8u && __usad(opaque(0xffffffffu), 0u, 1u) == 0u);

  SELFTEST_CHECK(failures, __hadd(opaque(INT_MAX), INT_MAX) == INT_MAX && __hadd(opaque(INT_MIN), INT_MIN) == INT_MIN);
  SELFTEST_CHECK(failures, __hadd(opaque(3), 4) == 3 && __rhadd(opaque(3), 4) == 4);
  SELFTEST_CHECK(failures, __hadd(opaque(-3), 0) == -2 && __rhadd(opaque(-3), 0) == -1);
  SELFTEST_CHECK(failures, __uhadd(opaque(0xffffffffu), 0xffffffffu) == 0xffffffffu && __uhadd(opaque(1u), 2u) == 1u);
  SELFTEST_CHECK(failures, __urhadd(opaque(0xffffffffu), 0xfffffffeu) == 0xffffffffu && __urhadd(opaque(1u), 2u) == 2u);

  /* __fns, with the PTX ISA's examples first. */
  const unsigned aa = opaque(0xaaaaaaaau);
  SELFTEST_CHECK(failures, __fns(aa, 3, 1) == 3u && __fns(aa, 3, -1) == 3u);
  SELFTEST_CHECK(failures, __fns(aa, 2, 1) == 3u && __fns(aa, 2, -1) == 1u);
  const unsigned m = opaque(0x16u); /* bits 1, 2 and 4 */
  SELFTEST_CHECK(failures, __fns(m, 0, 1) == 1u && __fns(m, 0, 2) == 2u && __fns(m, 0, 3) == 4u);
  SELFTEST_CHECK(failures, __fns(m, 0, 4) == 0xffffffffu && __fns(m, 4, -2) == 2u && __fns(m, 4, -3) == 1u);
  SELFTEST_CHECK(failures, __fns(m, 0, -1) == 0xffffffffu && __fns(m, 31, -1) == 4u);
  SELFTEST_CHECK(failures, __fns(m, 2, 0) == 2u && __fns(m, 3, 0) == 0xffffffffu);
  SELFTEST_CHECK(failures, __fns(opaque(0xffffffffu), (unsigned)lane, 1) == (unsigned)lane);
  SELFTEST_CHECK(failures, __fns(opaque(0xffffffffu), 0, lane + 1) == (unsigned)lane);

  /* Dot products. */
  SELFTEST_CHECK(failures, __dp4a(opaque(0x01020304), 0x01010101, 10) == 20);
  SELFTEST_CHECK(failures, __dp4a(opaque((int)0xff7f80feu), 0x02020202, 0) == -8);
  SELFTEST_CHECK(failures, __dp4a(opaque(0xff7f80feu), 0x02020202u, 0u) == 1528u);
  SELFTEST_CHECK(failures, __dp4a(opaque(0x7f7f7f7f), 0x7f7f7f7f, INT_MAX) == -2147419133);
  SELFTEST_CHECK(failures, __dp4a(make_char4(-2, -128, 127, -1), make_char4(2, 2, 2, 2), 0) == -8);
  SELFTEST_CHECK(failures, __dp4a(make_uchar4(254, 128, 127, 255), make_uchar4(2, 2, 2, 2), 0u) == 1528u);
  SELFTEST_CHECK(failures, __dp2a_lo(opaque((int)0xfffe0003u), 0x0000ff02, 5) == 13);
  SELFTEST_CHECK(failures, __dp2a_hi(opaque((int)0xfffe0003u), (int)0xff020000u, 5) == 13);
  SELFTEST_CHECK(failures, __dp2a_lo(opaque(0xfffe0003u), 0x0000ff02u, 5u) == 16711181u);
  SELFTEST_CHECK(failures, __dp2a_hi(opaque(0xfffe0003u), 0xff020000u, 5u) == 16711181u);
  SELFTEST_CHECK(failures, __dp2a_lo(make_short2(3, -2), make_char4(2, -1, 7, 7), 5) == 13);
  SELFTEST_CHECK(failures, __dp2a_hi(make_short2(3, -2), make_char4(7, 7, 2, -1), 5) == 13);
  SELFTEST_CHECK(failures, __dp2a_lo(make_ushort2(3, 65534), make_uchar4(2, 255, 0, 0), 5u) == 16711181u);
  SELFTEST_CHECK(failures, __dp2a_hi(make_ushort2(3, 65534), make_uchar4(0, 0, 2, 255), 5u) == 16711181u);
}

extern "C" __global__ void selftest_intrinsics_minmax(unsigned *failures) {
  const int lane = threadIdx.x;

  SELFTEST_CHECK(failures, min(lane, 31 - lane) == (lane < 16 ? lane : 31 - lane));
  SELFTEST_CHECK(failures, max(lane, 31 - lane) == (lane < 16 ? 31 - lane : lane));
  SELFTEST_CHECK(failures, min(opaque(3), -4) == -4 && max(opaque(3), -4) == 3);
  /* A signed and an unsigned operand compare as unsigned. */
  SELFTEST_CHECK(failures, min(opaque(-1), 2u) == 2u && max(opaque(-1), 2u) == 0xffffffffu);
  SELFTEST_CHECK(failures, min(2u, opaque(-1)) == 2u && max(opaque(2u), 3u) == 3u);
  SELFTEST_CHECK(failures, min(opaque(-5L), 3L) == -5L && max(opaque(-5L), 3L) == 3L);
  SELFTEST_CHECK(failures, min(opaque(-1L), 2UL) == 2UL && max(opaque(-1L), 2UL) == ULONG_MAX);
  SELFTEST_CHECK(failures, min(opaque(2UL), -1L) == 2UL && max(opaque(1UL), 2UL) == 2UL);
  SELFTEST_CHECK(failures, min(opaque(-5LL), 3LL) == -5LL && max(opaque(LLONG_MIN), 0LL) == 0LL);
  SELFTEST_CHECK(failures, min(opaque(-1LL), 2ULL) == 2ULL && max(opaque(-1LL), 2ULL) == ULLONG_MAX);
  SELFTEST_CHECK(failures, max(opaque(2ULL), -1LL) == ULLONG_MAX && min(opaque(2ULL), 3ULL) == 2ULL);
  SELFTEST_CHECK(failures, sizeof(min(-1, 2u)) == 4 && sizeof(min(-1L, 2UL)) == sizeof(long));

  /* Floating-point min and max are fmin and fmax. */
  const float nf = opaque(__int_as_float(0x7fc00000));
  const double nd = opaque(__longlong_as_double(0x7ff8000000000000LL));
  SELFTEST_CHECK(failures, min(opaque(1.5f), 2.5f) == 1.5f && max(opaque(1.5f), 2.5f) == 2.5f);
  SELFTEST_CHECK(failures, min(nf, 1.0f) == 1.0f && max(1.0f, nf) == 1.0f);
  SELFTEST_CHECK(failures, min(opaque(1.0), nd) == 1.0 && max(nd, -1.0) == -1.0);
  SELFTEST_CHECK(failures, min(opaque(1.5f), 2.0) == 1.5 && max(opaque(2.0), 1.5f) == 2.0);
  SELFTEST_CHECK(failures, sizeof(min(1.5f, 2.0)) == sizeof(double) && sizeof(max(1.5f, 2.5f)) == sizeof(float));

  SELFTEST_CHECK(failures, umin(opaque(3u), 4u) == 3u && umax(opaque(3u), 0xffffffffu) == 0xffffffffu);
  SELFTEST_CHECK(failures, llmin(opaque(-1LL), 1LL) == -1LL && llmax(opaque(LLONG_MIN), LLONG_MAX) == LLONG_MAX);
  SELFTEST_CHECK(failures, ullmin(opaque(~0ULL), 1ULL) == 1ULL && ullmax(opaque(~0ULL), 1ULL) == ~0ULL);
}
