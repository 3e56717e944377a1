/*
 * selftest_ptx_int.cu: self-checking kernels for inline PTX's special
 * registers, integer and bit instructions. Every expected value is worked
 * out by hand from the PTX ISA's definition of the instruction (the
 * pseudo-code of bfe, bfi, bfind, prmt, lop3, shf, the carry flag of
 * add.cc/addc/sub.cc/subc/mad.cc/madc, the .sat clamps of cvt), not from
 * another implementation.
 */
#include "selftest.cuh"

template <typename T>
__device__ static T opaque(T x) {
  volatile T v = x;
  return v;
}

extern "C" __global__ void selftest_ptx_sregs(unsigned *failures) {
  unsigned lane, tid, ntid, ctaid, nctaid, warpid, nwarpid, smid, nsmid;
  unsigned eq, lt, le, gt, ge, c32;
  unsigned long long c64a, c64b, timer;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  asm("mov.u32 %0, %%tid.x;" : "=r"(tid));
  asm("mov.u32 %0, %%ntid.x;" : "=r"(ntid));
  asm("mov.u32 %0, %%ctaid.x;" : "=r"(ctaid));
  asm("mov.u32 %0, %%nctaid.x;" : "=r"(nctaid));
  asm volatile("mov.u32 %0, %%warpid;" : "=r"(warpid));
  asm("mov.u32 %0, %%nwarpid;" : "=r"(nwarpid));
  asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
  asm("mov.u32 %0, %%nsmid;" : "=r"(nsmid));
  asm("mov.u32 %0, %%lanemask_eq;" : "=r"(eq));
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(lt));
  asm("mov.u32 %0, %%lanemask_le;" : "=r"(le));
  asm("mov.u32 %0, %%lanemask_gt;" : "=r"(gt));
  asm("mov.u32 %0, %%lanemask_ge;" : "=r"(ge));
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(c64a));
  asm volatile("mov.u32 %0, %%clock;" : "=r"(c32));
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(c64b));
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(timer));
  SELFTEST_CHECK(failures, lane == threadIdx.x && tid == threadIdx.x);
  SELFTEST_CHECK(failures, ntid == 32 && ctaid == 0 && nctaid == 1);
  SELFTEST_CHECK(failures, warpid < nwarpid && smid < nsmid);
  SELFTEST_CHECK(failures, eq == 1u << lane);
  SELFTEST_CHECK(failures, lt == (1u << lane) - 1u);
  SELFTEST_CHECK(failures, le == (lane == 31 ? 0xffffffffu : (2u << lane) - 1u));
  SELFTEST_CHECK(failures, gt == ~le && ge == ~lt);
  SELFTEST_CHECK(failures, c64b >= c64a && timer > 0 && c32 + 1 != c32);
}

__device__ static unsigned bfe_u32(unsigned a, unsigned b, unsigned c) {
  unsigned d;
  asm("bfe.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
  return d;
}
__device__ static int bfe_s32(int a, unsigned b, unsigned c) {
  int d;
  asm("bfe.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
  return d;
}
__device__ static long long bfe_s64(long long a, unsigned b, unsigned c) {
  long long d;
  asm("bfe.s64 %0, %1, %2, %3;" : "=l"(d) : "l"(a), "r"(b), "r"(c));
  return d;
}
__device__ static unsigned bfi_b32(unsigned a, unsigned b, unsigned pos, unsigned len) {
  unsigned f;
  asm("bfi.b32 %0, %1, %2, %3, %4;" : "=r"(f) : "r"(a), "r"(b), "r"(pos), "r"(len));
  return f;
}
__device__ static unsigned bfind_u32(unsigned a) {
  unsigned d;
  asm("bfind.u32 %0, %1;" : "=r"(d) : "r"(a));
  return d;
}
__device__ static unsigned bfind_s32(int a) {
  unsigned d;
  asm("bfind.s32 %0, %1;" : "=r"(d) : "r"(a));
  return d;
}
__device__ static unsigned bfind_shift_u32(unsigned a) {
  unsigned d;
  asm("bfind.shiftamt.u32 %0, %1;" : "=r"(d) : "r"(a));
  return d;
}

extern "C" __global__ void selftest_ptx_bitfields(unsigned *failures) {
  const unsigned lane = threadIdx.x;
  /* bfe: bits pos .. pos+len-1; signed forms extend a[min(pos+len-1, msb)]. */
  SELFTEST_CHECK(failures, bfe_u32(opaque(0x12345678u), 8, 8) == 0x56u);
  SELFTEST_CHECK(failures, bfe_s32(opaque(0x00008000), 8, 8) == (int)0xffffff80u);
  SELFTEST_CHECK(failures, bfe_s32(opaque(0x00007f00), 8, 8) == 0x7f);
  SELFTEST_CHECK(failures, bfe_s32(opaque((int)0x80000000u), 28, 8) == (int)0xfffffff8u);
  SELFTEST_CHECK(failures, bfe_u32(opaque(0x80000000u), 28, 8) == 0x8u);
  SELFTEST_CHECK(failures, bfe_s32(opaque(-1), 4, 0) == 0);
  SELFTEST_CHECK(failures, bfe_s32(opaque(-1), 40, 4) == -1 && bfe_u32(opaque(~0u), 40, 4) == 0);
  /* Only b[7:0] and c[7:0] count. */
  SELFTEST_CHECK(failures, bfe_u32(opaque(0x12345678u), 0x108, 0x208) == 0x56u);
  SELFTEST_CHECK(failures, bfe_s64(opaque((long long)0x8000000000000000ULL), 60, 4) == -8);
  SELFTEST_CHECK(failures, bfe_u32(1u << lane, lane, 1) == 1u);
  /* bfi: len bits of a into b at pos; bits past the msb are dropped. */
  SELFTEST_CHECK(failures, bfi_b32(opaque(0xffu), 0x12345678u, 8, 8) == 0x1234ff78u);
  SELFTEST_CHECK(failures, bfi_b32(opaque(0xfu), 0u, 30, 4) == 0xc0000000u);
  SELFTEST_CHECK(failures, bfi_b32(opaque(0xfu), 0x55u, 4, 0) == 0x55u);
  SELFTEST_CHECK(failures, bfi_b32(1u, 0u, lane, 1) == 1u << lane);
  /* bfind: the most significant non-sign bit, or 0xffffffff. */
  SELFTEST_CHECK(failures, bfind_u32(opaque(0x00010000u)) == 16u && bfind_u32(opaque(0u)) == 0xffffffffu);
  SELFTEST_CHECK(failures, bfind_shift_u32(opaque(0x00010000u)) == 15u);
  SELFTEST_CHECK(failures, bfind_shift_u32(opaque(0u)) == 0xffffffffu);
  SELFTEST_CHECK(failures, bfind_s32(opaque(-1)) == 0xffffffffu && bfind_s32(opaque(-16)) == 3u);
  SELFTEST_CHECK(failures, bfind_s32(opaque(5)) == 2u && bfind_u32(1u << lane) == lane);
}

__device__ static unsigned prmt(unsigned a, unsigned b, unsigned c) {
  unsigned d;
  asm("prmt.b32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
  return d;
}
/* prmt in mode m: 0 f4e, 1 b4e, 2 rc8, 3 ecl, 4 ecr, 5 rc16. (cuemu-cc does
 * not translate asm statements in macro definitions, hence no macro.) */
__device__ static unsigned prmt_mode(int m, unsigned a, unsigned b, unsigned c) {
  unsigned d;
  switch (m) {
  case 0: asm("prmt.b32.f4e %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); break;
  case 1: asm("prmt.b32.b4e %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); break;
  case 2: asm("prmt.b32.rc8 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); break;
  case 3: asm("prmt.b32.ecl %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); break;
  case 4: asm("prmt.b32.ecr %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); break;
  default: asm("prmt.b32.rc16 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); break;
  }
  return d;
}

extern "C" __global__ void selftest_ptx_prmt(unsigned *failures) {
  /* The bytes of b:a are 00 11 22 33 44 55 66 77 (byte 0 first). */
  const unsigned a = opaque(0x33221100u), b = opaque(0x77665544u);
  SELFTEST_CHECK(failures, prmt(a, b, 0x3210u) == 0x33221100u && prmt(a, b, 0x7654u) == 0x77665544u);
  SELFTEST_CHECK(failures, prmt(a, b, 0x0123u) == 0x00112233u && prmt(a, b, 0x5140u) == 0x55114400u);
  /* Bit 3 of a selector replicates the sign of the byte it picks. */
  SELFTEST_CHECK(failures, prmt(opaque(0x332211aau), b, 0x0008u) == 0xaaaaaaffu);
  SELFTEST_CHECK(failures, prmt(a, b, 0x9999u) == 0u && prmt(a, b, 0xf00fu) == 0u);
  SELFTEST_CHECK(failures, prmt(a, opaque(0x80000000u), 0xfu) == 0xffu);
  /* The modes use selector bits 1..0 only (4 | s checks that). */
  const unsigned f4e[] = {0x33221100u, 0x44332211u, 0x55443322u, 0x66554433u};
  const unsigned b4e[] = {0x55667700u, 0x66770011u, 0x77001122u, 0x00112233u};
  const unsigned rc8[] = {0x00000000u, 0x11111111u, 0x22222222u, 0x33333333u};
  const unsigned ecl[] = {0x33221100u, 0x33221111u, 0x33222222u, 0x33333333u};
  const unsigned ecr[] = {0x00000000u, 0x11111100u, 0x22221100u, 0x33221100u};
  const unsigned rc16[] = {0x11001100u, 0x33223322u, 0x11001100u, 0x33223322u};
  for (unsigned s = 0; s < 4; ++s) {
    SELFTEST_CHECK(failures, prmt_mode(0, a, b, 4 | s) == f4e[s]);
    SELFTEST_CHECK(failures, prmt_mode(1, a, b, 4 | s) == b4e[s]);
    SELFTEST_CHECK(failures, prmt_mode(2, a, b, 4 | s) == rc8[s]);
    SELFTEST_CHECK(failures, prmt_mode(3, a, b, 4 | s) == ecl[s]);
    SELFTEST_CHECK(failures, prmt_mode(4, a, b, 4 | s) == ecr[s]);
    SELFTEST_CHECK(failures, prmt_mode(5, a, b, 4 | s) == rc16[s]);
  }
}

template <int Lut>
__device__ static unsigned lop3(unsigned a, unsigned b, unsigned c) {
  unsigned d;
  asm("lop3.b32 %0, %1, %2, %3, %4;" : "=r"(d) : "r"(a), "r"(b), "r"(c), "n"(Lut));
  return d;
}

__device__ static unsigned shf(int left, int clamp, unsigned a, unsigned b, unsigned c) {
  unsigned d;
  if (left && clamp)
    asm("shf.l.clamp.b32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
  else if (left)
    asm("shf.l.wrap.b32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
  else if (clamp)
    asm("shf.r.clamp.b32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
  else
    asm("shf.r.wrap.b32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
  return d;
}

extern "C" __global__ void selftest_ptx_logic(unsigned *failures) {
  const unsigned lane = threadIdx.x;
  /* lop3: bit i of d is lut[(a_i << 2) | (b_i << 1) | c_i]. */
  const unsigned a = opaque(0x0000ffffu) ^ lane, b = opaque(0x00ff00ffu), c = opaque(0x0f0f0f0fu);
  SELFTEST_CHECK(failures, lop3<0x96>(a, b, c) == (a ^ b ^ c));
  SELFTEST_CHECK(failures, lop3<0xE8>(a, b, c) == ((a & b) | (a & c) | (b & c)));
  SELFTEST_CHECK(failures, lop3<0xF0>(a, b, c) == a && lop3<0xCC>(a, b, c) == b && lop3<0xAA>(a, b, c) == c);
  SELFTEST_CHECK(failures, lop3<0x80>(a, b, c) == (a & b & c) && lop3<0xFE>(a, b, c) == (a | b | c));
  SELFTEST_CHECK(failures, lop3<0x00>(a, b, c) == 0u && lop3<0xFF>(a, b, c) == ~0u);
  /* 0x1B: index 0, 1, 3, 4 set: ~a&~b&~c | ~a&~b&c | ~a&b&c | a&~b&~c. */
  SELFTEST_CHECK(failures, lop3<0x1B>(a, b, c) == ((~a & ~b) | (~a & b & c) | (a & ~b & ~c)));
  /* shf: the funnel shift of hi:lo = 0x01234567:0x89abcdef. */
  const unsigned lo = opaque(0x89abcdefu), hi = opaque(0x01234567u);
  SELFTEST_CHECK(failures, shf(1, 0, lo, hi, 4) == 0x12345678u && shf(1, 0, lo, hi, 36) == 0x12345678u);
  SELFTEST_CHECK(failures, shf(1, 1, lo, hi, 36) == lo && shf(1, 1, lo, hi, 32) == lo);
  SELFTEST_CHECK(failures, shf(1, 0, lo, hi, 0) == hi && shf(1, 0, lo, hi, 32) == hi);
  SELFTEST_CHECK(failures, shf(0, 0, lo, hi, 4) == 0x789abcdeu && shf(0, 0, lo, hi, 36) == 0x789abcdeu);
  SELFTEST_CHECK(failures, shf(0, 1, lo, hi, 36) == hi && shf(0, 0, lo, hi, 0) == lo);
  /* popc, clz, brev. */
  unsigned p, z, r;
  unsigned long long r64;
  asm("popc.b64 %0, %1;" : "=r"(p) : "l"(opaque(~0ULL)));
  SELFTEST_CHECK(failures, p == 64);
  asm("popc.b32 %0, %1;" : "=r"(p) : "r"(0xffffffffu >> lane));
  SELFTEST_CHECK(failures, p == 32 - lane);
  asm("clz.b32 %0, %1;" : "=r"(z) : "r"(opaque(0u)));
  SELFTEST_CHECK(failures, z == 32);
  asm("clz.b64 %0, %1;" : "=r"(z) : "l"(opaque(1ULL)));
  SELFTEST_CHECK(failures, z == 63);
  asm("clz.b32 %0, %1;" : "=r"(z) : "r"(1u << lane));
  SELFTEST_CHECK(failures, z == 31 - lane);
  asm("brev.b32 %0, %1;" : "=r"(r) : "r"(opaque(0x12345678u)));
  SELFTEST_CHECK(failures, r == 0x1e6a2c48u);
  asm("brev.b64 %0, %1;" : "=l"(r64) : "l"(opaque(1ULL)));
  SELFTEST_CHECK(failures, r64 == 1ULL << 63);
  /* fns: the n-th set bit from base. */
  unsigned f;
  asm("fns.b32 %0, %1, %2, %3;" : "=r"(f) : "r"(0xf0f0u), "r"(0u), "r"(1));
  SELFTEST_CHECK(failures, f == 4);
  asm("fns.b32 %0, %1, %2, %3;" : "=r"(f) : "r"(0xf0f0u), "r"(5u), "r"(2));
  SELFTEST_CHECK(failures, f == 6);
  asm("fns.b32 %0, %1, %2, %3;" : "=r"(f) : "r"(0xf0f0u), "r"(31u), "r"(-1));
  SELFTEST_CHECK(failures, f == 15);
  /* Logic and shifts. */
  unsigned x;
  asm("and.b32 %0, %1, %2;" : "=r"(x) : "r"(0xff00ff00u), "r"(0x0ff00ff0u));
  SELFTEST_CHECK(failures, x == 0x0f000f00u);
  asm("or.b32 %0, %1, %2;" : "=r"(x) : "r"(0xff00ff00u), "r"(0x0ff00ff0u));
  SELFTEST_CHECK(failures, x == 0xfff0fff0u);
  asm("xor.b32 %0, %1, %2;" : "=r"(x) : "r"(0xff00ff00u), "r"(0x0ff00ff0u));
  SELFTEST_CHECK(failures, x == 0xf0f0f0f0u);
  asm("not.b32 %0, %1;" : "=r"(x) : "r"(0xff00ff00u));
  SELFTEST_CHECK(failures, x == 0x00ff00ffu);
  asm("cnot.b32 %0, %1;" : "=r"(x) : "r"(lane));
  SELFTEST_CHECK(failures, x == (lane == 0 ? 1u : 0u));
  asm("shl.b32 %0, %1, %2;" : "=r"(x) : "r"(1u), "r"(lane + 1));
  SELFTEST_CHECK(failures, x == (lane == 31 ? 0u : 2u << lane));
  asm("shl.b32 %0, %1, %2;" : "=r"(x) : "r"(1u), "r"(opaque(33u)));
  SELFTEST_CHECK(failures, x == 0u);
  asm("shr.s32 %0, %1, %2;" : "=r"(x) : "r"(0x80000000u), "r"(opaque(40u)));
  SELFTEST_CHECK(failures, x == 0xffffffffu);
  asm("shr.u32 %0, %1, %2;" : "=r"(x) : "r"(0x80000000u), "r"(opaque(31u)));
  SELFTEST_CHECK(failures, x == 1u);
  asm("shr.b32 %0, %1, %2;" : "=r"(x) : "r"(0x80000000u), "r"(opaque(32u)));
  SELFTEST_CHECK(failures, x == 0u);
  unsigned short h;
  asm("shr.s16 %0, %1, 3;" : "=h"(h) : "h"((unsigned short)0x8000));
  SELFTEST_CHECK(failures, h == 0xf000);
}

/* One instruction per statement, in functions of their own: the carry
 * flag must reach the next statement (see selftest_ptx_carry). */
__device__ __forceinline__ void selftest_mad_lo_cc(unsigned &acc, unsigned a, unsigned b) {
  asm volatile("mad.lo.cc.u32 %0, %1, %2, %0;" : "+r"(acc) : "r"(a), "r"(b));
}
__device__ __forceinline__ void selftest_madc_hi(unsigned &acc, unsigned a, unsigned b) {
  asm volatile("madc.hi.u32 %0, %1, %2, %0;" : "+r"(acc) : "r"(a), "r"(b));
}

extern "C" __global__ void selftest_ptx_carry(unsigned *failures) {
  unsigned r0, r1, r2;
  /* 96-bit 0x00000005_ffffffff_ffffffff + 1. */
  asm("add.cc.u32 %0, %3, %4;\n\t"
      "addc.cc.u32 %1, %5, 0;\n\t"
      "addc.u32 %2, %6, 0;"
      : "=r"(r0), "=r"(r1), "=r"(r2)
      : "r"(opaque(0xffffffffu)), "r"(1u), "r"(0xffffffffu), "r"(5u));
  SELFTEST_CHECK(failures, r0 == 0u && r1 == 0u && r2 == 6u);
  /* No carry out: addc adds 0. */
  asm("add.cc.u32 %0, %2, %3;\n\taddc.u32 %1, 7, 0;" : "=r"(r0), "=r"(r1) : "r"(1u), "r"(2u));
  SELFTEST_CHECK(failures, r0 == 3u && r1 == 7u);
  /* 96-bit 0x00000007_00000000_00000000 - 1: borrows through. */
  asm("sub.cc.u32 %0, %3, %4;\n\t"
      "subc.cc.u32 %1, %3, 0;\n\t"
      "subc.u32 %2, %5, 0;"
      : "=r"(r0), "=r"(r1), "=r"(r2)
      : "r"(opaque(0u)), "r"(1u), "r"(7u));
  SELFTEST_CHECK(failures, r0 == 0xffffffffu && r1 == 0xffffffffu && r2 == 6u);
  /* (2^32-1)^2 + (2^32-1) = 0xffffffff_00000000 from mad.lo.cc and madc.hi. */
  asm("mad.lo.cc.u32 %0, %2, %2, %2;\n\tmadc.hi.u32 %1, %2, %2, 0;"
      : "=r"(r0), "=r"(r1)
      : "r"(opaque(0xffffffffu)));
  SELFTEST_CHECK(failures, r0 == 0u && r1 == 0xffffffffu);
  /* 128-bit (2^64 - 1) + 1 with 64-bit registers. */
  unsigned long long q0, q1;
  asm("add.cc.u64 %0, %2, 1;\n\taddc.u64 %1, %3, 0;" : "=l"(q0), "=l"(q1) : "l"(opaque(~0ULL)), "l"(41ULL));
  SELFTEST_CHECK(failures, q0 == 0 && q1 == 42);
  /* The carry flag travels from one asm statement to the next, as in the
   * code nvcc makes of big-number libraries that chain single-instruction
   * statements: 96-bit 0x00000001_ffffffff_ffffffff + 1, one instruction
   * per statement, then the borrow of 0 - 1 in the same way. */
  asm volatile("add.cc.u32 %0, %1, 1;" : "=r"(r0) : "r"(opaque(0xffffffffu)));
  asm volatile("addc.cc.u32 %0, %1, 0;" : "=r"(r1) : "r"(opaque(0xffffffffu)));
  asm volatile("addc.u32 %0, %1, 0;" : "=r"(r2) : "r"(opaque(1u)));
  SELFTEST_CHECK(failures, r0 == 0u && r1 == 0u && r2 == 2u);
  asm volatile("sub.cc.u32 %0, %1, 1;" : "=r"(r0) : "r"(opaque(0u)));
  asm volatile("subc.u32 %0, %1, 0;" : "=r"(r1) : "r"(opaque(9u)));
  SELFTEST_CHECK(failures, r0 == 0xffffffffu && r1 == 8u);
  /* A chain of mad.lo.cc/madc.hi statements, each in a function of its
   * own as in such libraries: (2^32-1)^2 + (2^32-1) once more. */
  r0 = opaque(0xffffffffu);
  selftest_mad_lo_cc(r0, 0xffffffffu, opaque(0xffffffffu));
  r1 = 0;
  selftest_madc_hi(r1, 0xffffffffu, opaque(0xffffffffu));
  SELFTEST_CHECK(failures, r0 == 0u && r1 == 0xffffffffu);
  /* A statement that writes no carry leaves it as it was: the carry of
   * the add.cc reaches the addc across a mov. */
  asm volatile("add.cc.u64 %0, %1, 1;" : "=l"(q0) : "l"(opaque(~0ULL)));
  asm volatile("mov.u32 %0, 5;" : "=r"(r2));
  asm volatile("addc.u64 %0, %1, 0;" : "=l"(q1) : "l"(opaque(41ULL)));
  SELFTEST_CHECK(failures, q0 == 0 && q1 == 42 && r2 == 5u);
}

extern "C" __global__ void selftest_ptx_arith(unsigned *failures) {
  const unsigned lane = threadIdx.x;
  unsigned u;
  int s;
  unsigned long long w;
  long long sw;
  asm("mul.hi.u32 %0, %1, %1;" : "=r"(u) : "r"(opaque(0xffffffffu)));
  SELFTEST_CHECK(failures, u == 0xfffffffeu);
  asm("mul.hi.s32 %0, %1, %1;" : "=r"(s) : "r"(opaque(-1)));
  SELFTEST_CHECK(failures, s == 0);
  asm("mul.lo.u32 %0, %1, %2;" : "=r"(u) : "r"(opaque(0x10001u)), "r"(0x10001u));
  SELFTEST_CHECK(failures, u == 0x00020001u);
  asm("mul.wide.s32 %0, %1, %2;" : "=l"(sw) : "r"(opaque(-2)), "r"(3));
  SELFTEST_CHECK(failures, sw == -6);
  asm("mul.wide.u32 %0, %1, %2;" : "=l"(w) : "r"(opaque(0xffffffffu)), "r"(2u));
  SELFTEST_CHECK(failures, w == 0x1fffffffeULL);
  asm("mul.hi.u64 %0, %1, %2;" : "=l"(w) : "l"(opaque(1ULL << 63)), "l"(4ULL));
  SELFTEST_CHECK(failures, w == 2);
  asm("mul.hi.s64 %0, %1, %2;" : "=l"(sw) : "l"(opaque(-1LL)), "l"(1LL));
  SELFTEST_CHECK(failures, sw == -1);
  asm("mad.wide.u32 %0, %1, %1, %2;" : "=l"(w) : "r"(opaque(0xffffffffu)), "l"(1ULL));
  SELFTEST_CHECK(failures, w == 0xfffffffe00000002ULL);
  asm("mad.lo.s32 %0, %1, %2, %3;" : "=r"(s) : "r"(opaque(-3)), "r"(5), "r"(100));
  SELFTEST_CHECK(failures, s == 85);
  asm("mad.hi.u32 %0, %1, %1, %2;" : "=r"(u) : "r"(opaque(0x80000000u)), "r"(1u));
  SELFTEST_CHECK(failures, u == 0x40000001u);
  /* mad.hi.sat.s32: the high half plus c, saturated. */
  asm("mad.hi.sat.s32 %0, %1, %1, %1;" : "=r"(s) : "r"(opaque(0x7fffffff)));
  SELFTEST_CHECK(failures, s == 0x7fffffff);
  asm("mad.hi.sat.s32 %0, %1, %2, %3;" : "=r"(s) : "r"(opaque(-2)), "r"(3), "r"(5));
  SELFTEST_CHECK(failures, s == 4); /* -6 >> 32 is -1 */
  /* mul24: the low 24 bits of each operand, a 48-bit product. */
  asm("mul24.lo.u32 %0, %1, %2;" : "=r"(u) : "r"(opaque(0x01000003u)), "r"(2u));
  SELFTEST_CHECK(failures, u == 6u);
  asm("mul24.hi.u32 %0, %1, %1;" : "=r"(u) : "r"(opaque(0xffffffu)));
  SELFTEST_CHECK(failures, u == 0xfffffe00u);
  asm("sad.u32 %0, %1, %2, %3;" : "=r"(u) : "r"(opaque(3u)), "r"(10u), "r"(100u));
  SELFTEST_CHECK(failures, u == 107u);
  asm("add.sat.s32 %0, %1, %2;" : "=r"(s) : "r"(opaque(0x7fffffff)), "r"(1));
  SELFTEST_CHECK(failures, s == 0x7fffffff);
  asm("sub.sat.s32 %0, %1, %2;" : "=r"(s) : "r"(opaque((int)0x80000000u)), "r"(1));
  SELFTEST_CHECK(failures, s == (int)0x80000000u);
  asm("min.s32 %0, %1, %2;" : "=r"(s) : "r"(opaque(-1)), "r"(1));
  SELFTEST_CHECK(failures, s == -1);
  asm("min.u32 %0, %1, %2;" : "=r"(u) : "r"(opaque(0xffffffffu)), "r"(1u));
  SELFTEST_CHECK(failures, u == 1u);
  asm("max.s32 %0, %1, %2;" : "=r"(s) : "r"(opaque(-1)), "r"((int)lane));
  SELFTEST_CHECK(failures, s == (int)lane);
  asm("abs.s32 %0, %1;" : "=r"(s) : "r"(opaque((int)0x80000000u)));
  SELFTEST_CHECK(failures, s == (int)0x80000000u);
  asm("abs.s32 %0, %1;" : "=r"(s) : "r"(-(int)lane));
  SELFTEST_CHECK(failures, s == (int)lane);
  asm("neg.s32 %0, %1;" : "=r"(s) : "r"((int)lane));
  SELFTEST_CHECK(failures, s == -(int)lane);
  asm("div.s32 %0, %1, %2;" : "=r"(s) : "r"(opaque(-7)), "r"(2));
  SELFTEST_CHECK(failures, s == -3);
  asm("rem.s32 %0, %1, %2;" : "=r"(s) : "r"(opaque(-7)), "r"(2));
  SELFTEST_CHECK(failures, s == -1);
  asm("div.u32 %0, %1, %2;" : "=r"(u) : "r"(opaque(100u)), "r"(lane + 1));
  SELFTEST_CHECK(failures, u == 100u / (lane + 1));
  /* An "n" operand is an immediate. */
  asm("add.u32 %0, %1, %2;" : "=r"(u) : "r"(lane), "n"(1000));
  SELFTEST_CHECK(failures, u == lane + 1000);
  /* "+r": read and written. */
  u = lane;
  asm("add.u32 %0, %0, 5;" : "+r"(u));
  SELFTEST_CHECK(failures, u == lane + 5);
}

extern "C" __global__ void selftest_ptx_select(unsigned *failures) {
  const unsigned lane = threadIdx.x;
  unsigned u, p, q;
  int s;
  asm("{ .reg .pred t; setp.lt.s32 t, %1, 0; selp.u32 %0, 1, 0, t; }" : "=r"(p) : "r"(opaque(-1)));
  SELFTEST_CHECK(failures, p == 1);
  asm("{ .reg .pred t; setp.lo.u32 t, %1, 0; selp.u32 %0, 1, 0, t; }" : "=r"(p) : "r"(opaque(0xffffffffu)));
  SELFTEST_CHECK(failures, p == 0);
  asm("{ .reg .pred t; setp.hi.u32 t, %1, 0; selp.u32 %0, 1, 0, t; }" : "=r"(p) : "r"(opaque(0xffffffffu)));
  SELFTEST_CHECK(failures, p == 1);
  /* setp.CmpOp.BoolOp p|q, a, b, c: p = (a op b) BoolOp c, q = !(a op b) BoolOp c. */
  asm("{ .reg .pred c, t, f;\n\t"
      "setp.ne.u32 c, %2, 0;\n\t"
      "setp.eq.and.u32 t|f, %3, 7, c;\n\t"
      "selp.u32 %0, 1, 0, t;\n\t"
      "selp.u32 %1, 1, 0, f; }"
      : "=r"(p), "=r"(q)
      : "r"(lane & 1), "r"(lane & 7));
  SELFTEST_CHECK(failures, p == ((lane & 7) == 7 && (lane & 1)) && q == ((lane & 7) != 7 && (lane & 1)));
  asm("{ .reg .pred c, t, f;\n\t"
      "setp.ne.u32 c, %2, 0;\n\t"
      "setp.eq.or.u32 t|f, %3, 7, !c;\n\t"
      "selp.u32 %0, 1, 0, t;\n\t"
      "selp.u32 %1, 1, 0, f; }"
      : "=r"(p), "=r"(q)
      : "r"(lane & 1), "r"(lane & 7));
  SELFTEST_CHECK(failures, p == ((lane & 7) == 7 || !(lane & 1)) && q == ((lane & 7) != 7 || !(lane & 1)));
  asm("{ .reg .pred c, t;\n\t"
      "setp.ne.u32 c, %1, 0;\n\t"
      "setp.ge.xor.s32 t, %2, 16, c;\n\t"
      "selp.u32 %0, 1, 0, t; }"
      : "=r"(p)
      : "r"(lane & 1), "r"(lane));
  SELFTEST_CHECK(failures, p == ((lane >= 16) != (lane & 1)));
  /* Guards, @p and @!p. */
  asm("{ .reg .pred t; mov.u32 %0, 0; setp.gt.u32 t, %1, 9;\n\t@t mov.u32 %0, 1;\n\t@!t mov.u32 %0, 2; }"
      : "=r"(u) : "r"(lane));
  SELFTEST_CHECK(failures, u == (lane > 9 ? 1u : 2u));
  /* set: all ones, or 1.0f for a float destination. */
  asm("set.eq.u32.s32 %0, %1, 5;" : "=r"(u) : "r"((int)lane));
  SELFTEST_CHECK(failures, u == (lane == 5 ? 0xffffffffu : 0u));
  asm("set.lt.f32.s32 %0, %1, 2;" : "=r"(u) : "r"(opaque(1)));
  SELFTEST_CHECK(failures, u == 0x3f800000u);
  /* slct: a when c >= 0; -0.0 counts as >= 0. */
  asm("slct.s32.s32 %0, %1, %2, %3;" : "=r"(s) : "r"(1), "r"(2), "r"(opaque(-1)));
  SELFTEST_CHECK(failures, s == 2);
  asm("slct.u32.f32 %0, %1, %2, %3;" : "=r"(u) : "r"(1u), "r"(2u), "f"(opaque(-0.0f)));
  SELFTEST_CHECK(failures, u == 1u);
  /* and/or/xor/not of predicates. */
  asm("{ .reg .pred a, b, c; setp.ne.u32 a, %1, 0; setp.ne.u32 b, %2, 0;\n\t"
      "xor.pred c, a, b; not.pred c, c; selp.u32 %0, 1, 0, c; }"
      : "=r"(u) : "r"(lane & 1), "r"(lane & 2));
  SELFTEST_CHECK(failures, u == (((lane & 1) != 0) == ((lane & 2) != 0)));
  /* A loop with a label and a guarded branch. */
  asm("{ .reg .pred p; .reg .u32 i;\n\t"
      "mov.u32 i, 0;\n\t"
      "mov.u32 %0, 0;\n"
      "LOOP:\n\t"
      "add.u32 %0, %0, %1;\n\t"
      "add.u32 i, i, 1;\n\t"
      "setp.lt.u32 p, i, 4;\n\t"
      "@p bra LOOP;\n\t"
      "}"
      : "=r"(u) : "r"(lane));
  SELFTEST_CHECK(failures, u == 4 * lane);
  /* Registers declared as name<N>, scopes that shadow. */
  asm("{ .reg .u32 r<3>;\n\t"
      "mov.u32 r0, %1; mov.u32 r1, 10; add.u32 r2, r0, r1;\n\t"
      "{ .reg .u32 r0; mov.u32 r0, 1000; add.u32 r2, r2, r0; }\n\t"
      "add.u32 %0, r2, r0; }"
      : "=r"(u) : "r"(lane));
  SELFTEST_CHECK(failures, u == 2 * lane + 1010);
}

/* CCCL's NV_IF_TARGET style: statements in a parenthesised macro argument,
 * commas and all. */
#define PTX_TEST_STRIP(...) __VA_ARGS__
#define PTX_TEST_FIRST(a, b) PTX_TEST_STRIP a

extern "C" __global__ void selftest_ptx_macro_argument(unsigned *failures) {
  unsigned r = 0, lo, hi;
  PTX_TEST_FIRST((asm("add.u32 %0, %1, %2;" : "=r"(r) : "r"(threadIdx.x), "r"(7u));), (r = 0;));
  SELFTEST_CHECK(failures, r == threadIdx.x + 7);
  PTX_TEST_FIRST((asm("mov.b64 {%0, %1}, %2;" : "=r"(lo), "=r"(hi) : "l"(0x500000006ULL));), (lo = hi = 0;));
  SELFTEST_CHECK(failures, lo == 6 && hi == 5);
}

extern "C" __global__ void selftest_ptx_convert_int(unsigned *failures) {
  unsigned u;
  int s;
  unsigned long long w;
  unsigned short h;
  asm("cvt.s8.s32 %0, %1;" : "=r"(s) : "r"(opaque(0x180)));
  SELFTEST_CHECK(failures, s == -128);
  asm("cvt.u8.u32 %0, %1;" : "=r"(u) : "r"(opaque(0x1ffu)));
  SELFTEST_CHECK(failures, u == 0xffu);
  asm("cvt.sat.s8.s32 %0, %1;" : "=r"(s) : "r"(opaque(300)));
  SELFTEST_CHECK(failures, s == 127);
  asm("cvt.sat.s8.s32 %0, %1;" : "=r"(s) : "r"(opaque(-300)));
  SELFTEST_CHECK(failures, s == -128);
  asm("cvt.sat.u8.s32 %0, %1;" : "=r"(u) : "r"(opaque(-5)));
  SELFTEST_CHECK(failures, u == 0u);
  asm("cvt.u16.u32 %0, %1;" : "=h"(h) : "r"(opaque(0x12345u)));
  SELFTEST_CHECK(failures, h == 0x2345);
  asm("cvt.s64.s32 %0, %1;" : "=l"(w) : "r"(opaque(-1)));
  SELFTEST_CHECK(failures, w == ~0ULL);
  asm("cvt.u64.u32 %0, %1;" : "=l"(w) : "r"(opaque(0xffffffffu)));
  SELFTEST_CHECK(failures, w == 0xffffffffULL);
  asm("cvt.sat.u32.s32 %0, %1;" : "=r"(u) : "r"(opaque(-1)));
  SELFTEST_CHECK(failures, u == 0u);
  asm("cvt.sat.s32.u32 %0, %1;" : "=r"(s) : "r"(opaque(0xffffffffu)));
  SELFTEST_CHECK(failures, s == 0x7fffffff);
  asm("cvt.sat.s32.s64 %0, %1;" : "=r"(s) : "l"(opaque(-(1LL << 40))));
  SELFTEST_CHECK(failures, s == (int)0x80000000u);
  asm("cvt.u32.u64 %0, %1;" : "=r"(u) : "l"(opaque(0x123456789ULL)));
  SELFTEST_CHECK(failures, u == 0x23456789u);
  /* mov packs and unpacks. */
  unsigned lo, hi;
  asm("mov.b64 %0, {%1, %2};" : "=l"(w) : "r"(opaque(0x89abcdefu)), "r"(0x01234567u));
  SELFTEST_CHECK(failures, w == 0x0123456789abcdefULL);
  asm("mov.b64 {%0, %1}, %2;" : "=r"(lo), "=r"(hi) : "l"(opaque(0xfedcba9876543210ULL)));
  SELFTEST_CHECK(failures, lo == 0x76543210u && hi == 0xfedcba98u);
  unsigned short h0, h1;
  asm("mov.b32 {%0, %1}, %2;" : "=h"(h0), "=h"(h1) : "r"(opaque(0xbeefcafeu)));
  SELFTEST_CHECK(failures, h0 == 0xcafe && h1 == 0xbeef);
  asm("mov.b32 %0, {%1, %2};" : "=r"(u) : "h"(h1), "h"(h0));
  SELFTEST_CHECK(failures, u == 0xcafebeefu);
}

extern "C" __global__ void selftest_ptx_dot(unsigned *failures) {
  unsigned r;
  int s;
  asm("dp4a.u32.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(opaque(0x01020304u)), "r"(0x05060708u), "r"(10u));
  SELFTEST_CHECK(failures, r == 80u); /* 10 + 1*5 + 2*6 + 3*7 + 4*8 */
  asm("dp4a.s32.s32 %0, %1, %2, %3;" : "=r"(s) : "r"(opaque((int)0xff02fe04u)), "r"(0x01010101), "r"(0));
  SELFTEST_CHECK(failures, s == 3); /* 4 - 2 + 2 - 1 */
  asm("dp4a.s32.u32 %0, %1, %2, %3;" : "=r"(s) : "r"(opaque(-1)), "r"(0x02020202u), "r"(0));
  SELFTEST_CHECK(failures, s == -8);
  asm("dp2a.lo.u32.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(opaque(0x00030002u)), "r"(0x00000504u), "r"(1u));
  SELFTEST_CHECK(failures, r == 24u); /* 2*4 + 3*5 + 1 */
  asm("dp2a.hi.u32.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(opaque(0x00030002u)), "r"(0x07060000u), "r"(1u));
  SELFTEST_CHECK(failures, r == 34u); /* 2*6 + 3*7 + 1 */
  asm("dp2a.lo.s32.s32 %0, %1, %2, %3;" : "=r"(s) : "r"(opaque((int)0xffff0002u)), "r"(0x0000ff03), "r"(0));
  SELFTEST_CHECK(failures, s == 7); /* 2*3 + (-1)(-1) */
}
