// Image and video kernels (block averaging for motion compensation, stereo
// matching, pixel comparisons) often carry a header of SIMD helpers whose
// functions use the PTX video instructions vavrg2/vavrg4 (per-element rounded
// average) and vset2/vset4 (per-element comparison, 1 or 0 in each element;
// vset is the scalar one), and hashing kernels the scalar shifts vshl/vshr
// for sm_30 and later: asm("vavrg4.u32.u32.u32 %0, %1, %2, %3;" ...). nvcc
// builds them; cuemu-nvcc refused the file ("inline PTX: unsupported
// instruction vavrg4.u32.u32.u32"). Each form here is checked against a host
// model written from the PTX ISA's pseudo-code (the average rounds a
// non-negative sum up and a negative one down, .sat clamps to the element
// range of dtype, .add sums the elements into c) and, in the kernel, against
// the CUDA intrinsics that compute the same thing.
#include <cstdio>
#include "../check.cuh"
#include "ptx_video_check.cuh"

enum { NOUT = 19 };
enum { NSHIFT = 6 };

// The scalar shifts of the video set, as hashing kernels use them for a
// shift and an add in one instruction (vshl.u32.u32.u32.clamp.add).
__global__ void shifts(const unsigned *in, unsigned *out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const unsigned a = in[3 * i], b = in[3 * i + 1] & 63u, c = in[3 * i + 2];
  unsigned *r = out + NSHIFT * i;
  asm("vshl.u32.u32.u32.clamp.add %0, %1, %2, %3;" : "=r"(r[0]) : "r"(a), "r"(b), "r"(c));
  asm("vshl.u32.u32.u32.wrap %0, %1, %2;" : "=r"(r[1]) : "r"(a), "r"(b));
  asm("vshr.s32.s32.u32.clamp %0, %1, %2;" : "=r"(r[2]) : "r"(a), "r"(b));
  asm("vshr.u32.u32.u32.wrap.max %0, %1, %2, %3;" : "=r"(r[3]) : "r"(a), "r"(b), "r"(c));
  asm("vshl.s32.s32.u32.sat.clamp %0, %1, %2;" : "=r"(r[4]) : "r"(a), "r"(b));
  asm("vshr.u32.s32.u32.sat.wrap %0, %1, %2;" : "=r"(r[5]) : "r"(a), "r"(b));
}

__global__ void video(const unsigned *in, unsigned *out, int *agree, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const unsigned a = in[3 * i], b = in[3 * i + 1], c = in[3 * i + 2];
  unsigned *r = out + NOUT * i;
  asm("vavrg4.u32.u32.u32 %0, %1, %2, %3;" : "=r"(r[0]) : "r"(a), "r"(b), "r"(0));
  asm("vavrg4.s32.s32.s32 %0, %1, %2, %3;" : "=r"(r[1]) : "r"(a), "r"(b), "r"(0));
  asm("vavrg2.u32.u32.u32 %0, %1, %2, %3;" : "=r"(r[2]) : "r"(a), "r"(b), "r"(0));
  asm("vavrg2.s32.s32.s32.sat %0, %1, %2, %3;" : "=r"(r[3]) : "r"(a), "r"(b), "r"(0));
  asm("vavrg4.u32.u32.u32.add %0, %1, %2, %3;" : "=r"(r[4]) : "r"(a), "r"(b), "r"(c));
  asm("vavrg2.u32.s32.u32.sat %0, %1, %2, %3;" : "=r"(r[5]) : "r"(a), "r"(b), "r"(0));
  asm("vset4.u32.u32.eq %0, %1, %2, %3;" : "=r"(r[6]) : "r"(a), "r"(b), "r"(0));
  asm("vset4.s32.s32.lt %0, %1, %2, %3;" : "=r"(r[7]) : "r"(a), "r"(b), "r"(0));
  asm("vset4.u32.u32.ge %0, %1, %2, %3;" : "=r"(r[8]) : "r"(a), "r"(b), "r"(0));
  asm("vset2.u32.u32.ne %0, %1, %2, %3;" : "=r"(r[9]) : "r"(a), "r"(b), "r"(0));
  asm("vset2.s32.s32.gt %0, %1, %2, %3;" : "=r"(r[10]) : "r"(a), "r"(b), "r"(0));
  asm("vset2.u32.u32.le %0, %1, %2, %3;" : "=r"(r[11]) : "r"(a), "r"(b), "r"(0));
  asm("vset4.u32.u32.ne.add %0, %1, %2, %3;" : "=r"(r[12]) : "r"(a), "r"(b), "r"(c));
  asm("vset2.s32.u32.lt.add %0, %1, %2, %3;" : "=r"(r[13]) : "r"(a), "r"(b), "r"(c));
  asm("vavrg4.s32.u32.s32.sat %0, %1, %2, %3;" : "=r"(r[14]) : "r"(a), "r"(b), "r"(0));
  asm("vset4.s32.u32.gt %0, %1, %2, %3;" : "=r"(r[15]) : "r"(a), "r"(b), "r"(0));
  // The scalar comparison, alone and with a secondary operation on c.
  asm("vset.u32.u32.lt %0, %1, %2;" : "=r"(r[16]) : "r"(a), "r"(b));
  asm("vset.s32.s32.ge.add %0, %1, %2, %3;" : "=r"(r[17]) : "r"(a), "r"(b), "r"(c));
  asm("vset.s32.u32.gt.max %0, %1, %2, %3;" : "=r"(r[18]) : "r"(a), "r"(b), "r"(c));
  // The intrinsics that nvcc builds from these instructions agree with them.
  agree[i] = r[0] == __vavgu4(a, b) && r[1] == __vavgs4(a, b) && r[2] == __vavgu2(a, b) &&
             r[3] == __vavgs2(a, b) && r[6] == __vseteq4(a, b) && r[7] == __vsetlts4(a, b) &&
             r[8] == __vsetgeu4(a, b) && r[9] == __vsetne2(a, b) && r[10] == __vsetgts2(a, b) &&
             r[11] == __vsetleu2(a, b);
}

// The host model: elements extended by their types, then the ISA's operation.
static long long element(unsigned x, int bits, int i, bool is_signed) {
  const unsigned long long e = (x >> (bits * i)) & ((1ull << bits) - 1);
  return is_signed && (e >> (bits - 1)) ? static_cast<long long>(e) - (1ll << bits)
                                        : static_cast<long long>(e);
}

struct Form {
  bool avg;            // vavrg, else vset
  int bits;            // 16 (vop2) or 8 (vop4)
  bool ds, as, bs;     // the types of d (vavrg only), a and b are s32
  bool sat, add;
  char cmp;            // vset: 'e' eq, 'n' ne, 'l' lt, 'L' le, 'g' gt, 'G' ge
  char op2;            // scalar vset's secondary operation with c: 'M' max
};

static unsigned model(const Form &f, unsigned a, unsigned b, unsigned c) {
  long long sum = 0;
  unsigned merged = 0;
  for (int i = 0; i < 32 / f.bits; ++i) {
    const long long x = element(a, f.bits, i, f.as), y = element(b, f.bits, i, f.bs);
    long long t;
    if (f.avg) {
      t = x + y >= 0 ? (x + y + 1) >> 1 : (x + y) >> 1;
      if (f.sat) {
        const long long lo = f.ds ? -(1ll << (f.bits - 1)) : 0;
        const long long hi = f.ds ? (1ll << (f.bits - 1)) - 1 : (1ll << f.bits) - 1;
        t = t < lo ? lo : t > hi ? hi : t;
      }
    } else {
      t = f.cmp == 'e' ? x == y : f.cmp == 'n' ? x != y : f.cmp == 'l' ? x < y
        : f.cmp == 'L' ? x <= y : f.cmp == 'g' ? x > y : x >= y;
    }
    sum += t;
    merged |= static_cast<unsigned>((static_cast<unsigned long long>(t) & ((1ull << f.bits) - 1))
                                    << (f.bits * i));
  }
  if (f.op2 == 'M') return merged > c ? merged : c;
  return f.add ? c + static_cast<unsigned>(sum) : merged;
}

// The ISA's vshl/vshr: a extended by its type, b a .u32 amount clamped to 32
// or taken modulo 32, the shift on the wide value, .sat to dtype's range, then
// the secondary operation with c (extended by dtype) or the low 32 bits.
static unsigned shift_model(int k, unsigned a, unsigned b, unsigned c) {
  const bool shl = k == 0 || k == 1 || k == 4, clamp = k == 0 || k == 2 || k == 4;
  const bool a_signed = k == 2 || k == 4 || k == 5, d_signed = k == 2 || k == 4, sat = k >= 4;
  const long long x = a_signed ? static_cast<long long>(static_cast<int>(a)) : static_cast<long long>(a);
  const unsigned n = clamp ? (b > 32 ? 32 : b) : (b & 31);
  __int128 v = shl ? static_cast<__int128>(x) * (static_cast<__int128>(1) << n) : static_cast<__int128>(x >> n);
  if (sat) {
    const __int128 lo = d_signed ? -(static_cast<__int128>(1) << 31) : 0;
    const __int128 hi = d_signed ? (static_cast<__int128>(1) << 31) - 1 : (static_cast<__int128>(1) << 32) - 1;
    v = v < lo ? lo : v > hi ? hi : v;
  }
  if (k == 0) return static_cast<unsigned>(static_cast<unsigned long long>(v) + c);
  if (k == 3) return static_cast<unsigned long long>(v) > c ? static_cast<unsigned>(v) : c;
  return static_cast<unsigned>(static_cast<unsigned long long>(v));
}

int main() {
  const Form forms[NOUT] = {
      {true, 8, false, false, false, false, false, 0},  {true, 8, true, true, true, false, false, 0},
      {true, 16, false, false, false, false, false, 0}, {true, 16, true, true, true, true, false, 0},
      {true, 8, false, false, false, false, true, 0},   {true, 16, false, true, false, true, false, 0},
      {false, 8, false, false, false, false, false, 'e'}, {false, 8, false, true, true, false, false, 'l'},
      {false, 8, false, false, false, false, false, 'G'}, {false, 16, false, false, false, false, false, 'n'},
      {false, 16, false, true, true, false, false, 'g'}, {false, 16, false, false, false, false, false, 'L'},
      {false, 8, false, false, false, false, true, 'n'}, {false, 16, false, true, false, false, true, 'l'},
      {true, 8, true, false, true, true, false, 0},     {false, 8, false, true, false, false, false, 'g'},
      {false, 32, false, false, false, false, false, 'l'}, {false, 32, false, true, true, false, true, 'G'},
      {false, 32, false, true, false, false, false, 'g', 'M'},
  };
  const unsigned pairs[][3] = {
      {0x80ff7f01u, 0x7f0180ffu, 5u}, {0xdeadbeefu, 0x01234567u, 100u}, {0xffffffffu, 0x00000000u, 0u},
      {0x80008000u, 0x7fff7fffu, 7u}, {0x12345678u, 0x87654321u, 0xfffffff0u}, {0x11223344u, 0x11223344u, 1u},
      {0xff00ff00u, 0x00ff00ffu, 2u}, {0x7f7f8080u, 0x80807f7fu, 3u}, {0x00010001u, 0xffffffffu, 9u},
      {0xfe02fd03u, 0xff01ff01u, 11u},
  };
  const int n = sizeof pairs / sizeof pairs[0];
  unsigned out[n][NOUT];
  check_video_forms(
      pairs, n, NOUT, &out[0][0], true,
      [](const unsigned *in, unsigned *o, int *agree, int count) { video<<<1, 32>>>(in, o, agree, count); },
      [&](int k, unsigned a, unsigned b, unsigned c) { return model(forms[k], a, b, c); });
  // Worked out by hand: the signed byte averages of 0x80,0x7f (-128,127: -1/2
  // rounds down to -1) and of 0xff,0x01 (-1,1: 0); vset gives 1, not 0xff.
  CHECK(out[0][1] == 0xff00ff00u);
  CHECK(out[0][0] == 0x80808080u);
  CHECK(out[5][6] == 0x01010101u && out[5][12] == 1u);
  // The shifts, with amounts 0 to 63 (b & 63) from the same words.
  const unsigned shift_in[][3] = {
      {0x80000001u, 0u, 5u}, {0x80000001u, 31u, 5u}, {0x80000001u, 32u, 5u}, {0x80000001u, 33u, 0xffffffffu},
      {0x7fffffffu, 1u, 1u}, {0xfffffff0u, 4u, 0x10u}, {0x12345678u, 40u, 7u}, {0x00000003u, 30u, 0x80000000u},
      {0xdeadbeefu, 63u, 3u}, {0x40000000u, 1u, 0u},
  };
  const int ns = sizeof shift_in / sizeof shift_in[0];
  unsigned sout[ns][NSHIFT];
  check_video_forms(
      shift_in, ns, NSHIFT, &sout[0][0], false,
      [](const unsigned *in, unsigned *o, int *, int count) { shifts<<<1, 32>>>(in, o, count); },
      [](int k, unsigned a, unsigned b, unsigned c) { return shift_model(k, a, b & 63u, c); });
  // By hand: 1 << 33 clamps to << 32, 0 plus c; a signed 0x80000001 >> 32 is -1;
  // 0x7fffffff << 1 saturates to INT_MAX.
  CHECK(sout[3][0] == 0xffffffffu && sout[2][2] == 0xffffffffu && sout[4][4] == 0x7fffffffu);
  return finish();
}
