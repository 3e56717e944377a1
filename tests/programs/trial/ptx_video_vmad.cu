// Fixed-point filters and motion-compensation kernels written for sm_20 and
// later use the scalar video multiply-add vmad in inline PTX: a Q15 tap as
// vmad.s32.s32.s32.shr15, a rounded average as vmad.u32.u32.u32.po (a*b+c+1),
// a difference as a product minus c (vmad.s32.u32.u32 d, a, b, -c). nvcc
// builds them; cuemu-nvcc refused the file ("inline PTX: unsupported
// instruction vmad"). Each form here is checked against a host model written
// from the PTX ISA's pseudo-code: the product of a and b extended by their
// types, signed when a type is signed or one operand is negated; a negated
// product is ~tmp + 1, a negated c is ~c + 1, .po adds 1; c extended by that
// sign; .shr7/.shr15 shift the 128-bit sum; .sat clamps the low 64 bits to the
// signed or unsigned 32-bit range; d is the low 32 bits. In the kernel, the
// forms that are plain C++ arithmetic are compared with it too.
#include <cstdio>
#include "../check.cuh"
#include "ptx_video_check.cuh"

enum { NOUT = 12 };

__global__ void vmad(const unsigned *in, unsigned *out, int *agree, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const unsigned a = in[3 * i], b = in[3 * i + 1], c = in[3 * i + 2];
  unsigned *r = out + NOUT * i;
  asm("vmad.u32.u32.u32 %0, %1, %2, %3;" : "=r"(r[0]) : "r"(a), "r"(b), "r"(c));
  asm("vmad.s32.s32.s32 %0, %1, %2, %3;" : "=r"(r[1]) : "r"(a), "r"(b), "r"(c));
  asm("vmad.s32.s32.s32.sat %0, %1, %2, %3;" : "=r"(r[2]) : "r"(a), "r"(b), "r"(c));
  asm("vmad.u32.u32.u32.sat %0, %1, %2, %3;" : "=r"(r[3]) : "r"(a), "r"(b), "r"(c));
  asm("vmad.u32.u32.u32.po %0, %1, %2, %3;" : "=r"(r[4]) : "r"(a), "r"(b), "r"(c));
  asm("vmad.s32.s32.s32.shr15 %0, %1, %2, %3;" : "=r"(r[5]) : "r"(a), "r"(b), "r"(c));
  asm("vmad.s32.s32.s32.sat.shr7 %0, %1, %2, %3;" : "=r"(r[6]) : "r"(a), "r"(b), "r"(c));
  asm("vmad.s32.u32.u32 %0, -%1, %2, %3;" : "=r"(r[7]) : "r"(a), "r"(b), "r"(c));
  asm("vmad.s32.u32.u32.sat %0, %1, %2, -%3;" : "=r"(r[8]) : "r"(a), "r"(b), "r"(c));
  asm("vmad.s32.s32.u32.sat %0, -%1, -%2, %3;" : "=r"(r[9]) : "r"(a), "r"(b), "r"(c));
  asm("vmad.u32.u32.u32.po.sat.shr7 %0, %1, %2, %3;" : "=r"(r[10]) : "r"(a), "r"(b), "r"(c));
  asm("vmad.s32.u32.s32.shr15 %0, %1, -%2, %3;" : "=r"(r[11]) : "r"(a), "r"(b), "r"(c));
  const long long sa = static_cast<int>(a), sb = static_cast<int>(b), sc = static_cast<int>(c);
  agree[i] = r[0] == a * b + c && r[1] == static_cast<unsigned>(sa * sb + sc) &&
             r[4] == a * b + c + 1u && r[5] == static_cast<unsigned>((sa * sb + sc) >> 15) &&
             r[7] == c - a * b;
}

// The ISA's pseudo-code, one form at a time.
struct Form {
  bool as, bs;          // atype, btype are .s32
  bool na, nb, nc, po;  // negated a, b, c; .po
  bool sat;
  int shr;              // 0, 7 or 15
};

static unsigned model(const Form &f, unsigned a, unsigned b, unsigned c) {
  const __int128 ta = f.as ? static_cast<__int128>(static_cast<int>(a)) : static_cast<__int128>(a);
  const __int128 tb = f.bs ? static_cast<__int128>(static_cast<int>(b)) : static_cast<__int128>(b);
  const bool signed_final = f.as || f.bs || (f.na != f.nb) || f.nc;
  __int128 tmp = ta * tb;
  int lsb = 0;
  if (f.po) {
    lsb = 1;
  } else if (f.na != f.nb) {
    tmp = ~tmp;
    lsb = 1;
  } else if (f.nc) {
    c = ~c;
    lsb = 1;
  }
  const __int128 c128 = signed_final ? static_cast<__int128>(static_cast<int>(c)) : static_cast<__int128>(c);
  tmp = tmp + c128 + lsb;
  unsigned long long result = static_cast<unsigned long long>(tmp >> f.shr);
  if (f.sat) {
    if (signed_final) {
      const long long s = static_cast<long long>(result);
      result = static_cast<unsigned long long>(s > 0x7fffffffll ? 0x7fffffffll : s < -0x80000000ll ? -0x80000000ll : s);
    } else {
      result = result > 0xffffffffull ? 0xffffffffull : result;
    }
  }
  return static_cast<unsigned>(result);
}

int main() {
  const Form forms[NOUT] = {
      {false, false, false, false, false, false, false, 0}, {true, true, false, false, false, false, false, 0},
      {true, true, false, false, false, false, true, 0},    {false, false, false, false, false, false, true, 0},
      {false, false, false, false, false, true, false, 0},  {true, true, false, false, false, false, false, 15},
      {true, true, false, false, false, false, true, 7},    {false, false, true, false, false, false, false, 0},
      {false, false, false, false, true, false, true, 0},   {true, false, true, true, false, false, true, 0},
      {false, false, false, false, false, true, true, 7},   {false, true, false, true, false, false, false, 15},
  };
  const unsigned triples[][3] = {
      {3u, 5u, 7u},           {0xffffffffu, 0xffffffffu, 0xffffffffu}, {0x80000000u, 0x80000000u, 0u},
      {0x7fffffffu, 2u, 1u},  {0xfffffff0u, 0x10u, 0x80000000u},       {0x12345678u, 0x9abcdef0u, 0x13579bdfu},
      {0u, 0x7fffu, 0xffffffffu}, {0x00008000u, 0xffff8000u, 0x4000u}, {100u, 200u, 50000u},
      {0x40000000u, 4u, 0x7fffffffu},
  };
  const int n = sizeof triples / sizeof triples[0];
  unsigned out[n][NOUT];
  check_video_forms(
      triples, n, NOUT, &out[0][0], true,
      [](const unsigned *in, unsigned *o, int *agree, int count) { vmad<<<1, 32>>>(in, o, agree, count); },
      [&](int k, unsigned a, unsigned b, unsigned c) { return model(forms[k], a, b, c); });
  // Worked out by hand: 3*5+7 = 22, .po 23, 3*5-7 = 8 and -3*5+7 = -8;
  // (2^31-1)*2+1 saturates to INT_MAX as s32 and stays 2^32-1 as u32; the
  // u32 square of 2^32-1 plus 2^32-1 saturates to 2^32-1.
  CHECK(out[0][0] == 22u && out[0][4] == 23u && out[0][8] == 8u && out[0][7] == 0xfffffff8u);
  CHECK(out[3][2] == 0x7fffffffu && out[3][3] == 0xffffffffu && out[1][3] == 0xffffffffu);
  return finish();
}
