// Packing kernels (a pixel's channels computed one at a time, a pair of
// 16-bit sums in one register) write a scalar video instruction's result into
// one byte or half of d and keep the rest of c: asm("vadd.u32.u32.u32.sat
// %0.b1, %1.b0, %2.b0, %3;" ...) puts the sum of two bytes, clamped to 0..255,
// into byte 1 of c. nvcc builds them; cuemu-nvcc refused them ("operand 0 ...
// with the element selector .b1"). Each form here is checked against a host
// model written from the PTX ISA's pseudo-code: the operation on the selected
// and extended parts, optSaturate (with .sat, a clamp to the range of the
// selected byte or half of d, signed or unsigned by dtype), then optMerge (the
// low bits of the result in that byte or half, c's bits elsewhere).
#include <cstdio>
#include "../check.cuh"
#include "ptx_video_check.cuh"

enum { NOUT = 7 };

__global__ void merge(const unsigned *in, unsigned *out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const unsigned a = in[3 * i], b = in[3 * i + 1], c = in[3 * i + 2];
  unsigned *r = out + NOUT * i;
  asm("vadd.u32.u32.u32.sat %0.b1, %1.b0, %2.b0, %3;" : "=r"(r[0]) : "r"(a), "r"(b), "r"(c));
  asm("vsub.s32.s32.s32.sat %0.h0, %1.h1, %2.h0, %3;" : "=r"(r[1]) : "r"(a), "r"(b), "r"(c));
  asm("vmax.s32.s32.s32 %0.b3, %1.b2, %2, %3;" : "=r"(r[2]) : "r"(a), "r"(b), "r"(c));
  asm("vabsdiff.u32.u32.u32 %0.h1, %1, %2, %3;" : "=r"(r[3]) : "r"(a), "r"(b), "r"(c));
  asm("vshl.u32.u32.u32.clamp.sat %0.b2, %1.b0, %2.b1, %3;" : "=r"(r[4]) : "r"(a), "r"(b), "r"(c));
  asm("vset.u32.u32.lt %0.b0, %1.b1, %2.b1, %3;" : "=r"(r[5]) : "r"(a), "r"(b), "r"(c));
  asm("vadd.s32.u32.s32.sat %0.b2, %1.b3, %2.b3, %3;" : "=r"(r[6]) : "r"(a), "r"(b), "r"(c));
}

// The host model: the part a selector names, extended by its type.
static long long part(unsigned x, int shift, int bits, bool is_signed) {
  const unsigned long long e = (x >> shift) & ((1ull << bits) - 1);
  return is_signed && (e >> (bits - 1)) ? static_cast<long long>(e) - (1ll << bits) : static_cast<long long>(e);
}

struct Form {
  char op;                         // + - M(max) d(absdiff) <(shl clamp) l(set.lt)
  bool ds, as, bs, sat;            // d, a, b of .s32; .sat
  int ashift, abits, bshift, bbits; // the selected parts of a and b
  int dshift, dbits;               // the byte or half of d
};

static unsigned model(const Form &f, unsigned a, unsigned b, unsigned c) {
  const long long x = part(a, f.ashift, f.abits, f.as), y = part(b, f.bshift, f.bbits, f.bs);
  long long t = f.op == '+' ? x + y : f.op == '-' ? x - y : f.op == 'M' ? (x > y ? x : y)
              : f.op == 'd' ? (x > y ? x - y : y - x) : f.op == '<' ? (y >= 32 ? x << 32 : x << y) : x < y;
  if (f.sat) {  // optSaturate: the range of d's selected part
    const long long lo = f.ds ? -(1ll << (f.dbits - 1)) : 0;
    const long long hi = f.ds ? (1ll << (f.dbits - 1)) - 1 : (1ll << f.dbits) - 1;
    t = t < lo ? lo : t > hi ? hi : t;
  }
  const unsigned mask = ((1u << f.dbits) - 1) << f.dshift;  // optMerge
  return ((static_cast<unsigned>(t) << f.dshift) & mask) | (c & ~mask);
}

int main() {
  const Form forms[NOUT] = {
      {'+', false, false, false, true, 0, 8, 0, 8, 8, 8},     {'-', true, true, true, true, 16, 16, 0, 16, 0, 16},
      {'M', true, true, true, false, 16, 8, 0, 32, 24, 8},    {'d', false, false, false, false, 0, 32, 0, 32, 16, 16},
      {'<', false, false, false, true, 0, 8, 8, 8, 16, 8},    {'l', false, false, false, false, 8, 8, 8, 8, 0, 8},
      {'+', true, false, true, true, 24, 8, 24, 8, 16, 8},
  };
  const unsigned triples[][3] = {
      {0x80ff7f01u, 0x7f0180ffu, 0x12345678u}, {0xdeadbeefu, 0x01234567u, 0xffffffffu},
      {0xffffffffu, 0x00000000u, 0u},         {0x80008000u, 0x7fff7fffu, 0xa5a5a5a5u},
      {0x12345678u, 0x87654321u, 0xfffffff0u}, {0x11223344u, 0x11223344u, 1u},
      {0xff00ff00u, 0x00ff00ffu, 0x0f0f0f0fu}, {0x7f7f8080u, 0x80807f7fu, 0x3c3c3c3cu},
      {0x00010003u, 0x2f1f0205u, 9u},         {0xfe02fd03u, 0xff01ff21u, 0x80000000u},
  };
  const int n = sizeof triples / sizeof triples[0];
  unsigned out[n][NOUT];
  check_video_forms(
      triples, n, NOUT, &out[0][0], false,
      [](const unsigned *in, unsigned *o, int *, int count) { merge<<<1, 32>>>(in, o, count); },
      [&](int k, unsigned a, unsigned b, unsigned c) { return model(forms[k], a, b, c); });
  // Worked out by hand: 0x01 + 0xff = 0x100 clamps to 0xff in byte 1 of
  // 0x12345678; 0xff + 0 is 0xff, in byte 1 of 0.
  CHECK(out[0][0] == 0x1234ff78u && out[2][0] == 0x0000ff00u);
  return finish();
}
