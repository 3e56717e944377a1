// Pixel and codec kernels written for the scalar video instructions pick a
// byte or a half of a register as an operand, sign- or zero-extended by the
// operand's type: asm("vmad.s32.s32.s32 %0, %1.h0, %2.h1, %3;" ...) is a
// 16x16-bit multiply-add of the low half of a and the high half of b, and
// vabsdiff.u32.u32.u32 %0, %1.b2, %2.b2 the distance of two pixels' third
// channel. nvcc builds them; cuemu-nvcc refused them ("inline PTX: operand %1
// with the element selector or mask .h0"). Each form here is checked against
// a host model written from the PTX ISA's pseudo-code (partSelectSignExtend:
// the selected byte .b0-.b3 or half .h0/.h1 extended by the operand's type,
// then the instruction as without selectors) and, in the kernel, against the
// same arithmetic written in C++.
#include <cstdio>
#include "../check.cuh"
#include "ptx_video_check.cuh"

enum { NOUT = 13 };

__global__ void pick(const unsigned *in, unsigned *out, int *agree, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const unsigned a = in[3 * i], b = in[3 * i + 1], c = in[3 * i + 2];
  unsigned *r = out + NOUT * i;
  asm("vadd.u32.u32.u32 %0, %1.b0, %2.b3;" : "=r"(r[0]) : "r"(a), "r"(b));
  asm("vsub.s32.s32.s32 %0, %1.h1, %2.h0;" : "=r"(r[1]) : "r"(a), "r"(b));
  asm("vabsdiff.u32.s32.s32.sat %0, %1.b2, %2.b1;" : "=r"(r[2]) : "r"(a), "r"(b));
  asm("vmin.s32.u32.s32 %0, %1.h0, %2.b3;" : "=r"(r[3]) : "r"(a), "r"(b));
  asm("vmax.s32.s32.s32.max %0, %1.b1, %2.h1, %3;" : "=r"(r[4]) : "r"(a), "r"(b), "r"(c));
  asm("vadd.s32.s32.s32.add %0, %1.b3, %2.b3, %3;" : "=r"(r[5]) : "r"(a), "r"(b), "r"(c));
  asm("vshl.u32.u32.u32.clamp %0, %1.h0, %2.b1;" : "=r"(r[6]) : "r"(a), "r"(b));
  asm("vshr.s32.s32.u32.wrap %0, %1.b3, %2.b0;" : "=r"(r[7]) : "r"(a), "r"(b));
  asm("vset.s32.s32.lt %0, %1.h1, %2.h0;" : "=r"(r[8]) : "r"(a), "r"(b));
  asm("vset.u32.u32.eq.add %0, %1.b0, %2.b2, %3;" : "=r"(r[9]) : "r"(a), "r"(b), "r"(c));
  asm("vmad.s32.s32.s32 %0, %1.h0, %2.h1, %3;" : "=r"(r[10]) : "r"(a), "r"(b), "r"(c));
  asm("vmad.u32.u32.u32.shr7 %0, %1.b1, %2.b2, %3;" : "=r"(r[11]) : "r"(a), "r"(b), "r"(c));
  asm("vmad.s32.u32.u32 %0, -%1.b0, %2.b0, %3;" : "=r"(r[12]) : "r"(a), "r"(b), "r"(c));
  agree[i] = r[0] == (a & 255u) + (b >> 24) &&
             r[1] == static_cast<unsigned>(static_cast<short>(a >> 16) - static_cast<short>(b)) &&
             r[10] == static_cast<unsigned>(static_cast<long long>(static_cast<short>(a)) * static_cast<short>(b >> 16) +
                                             static_cast<int>(c)) &&
             r[12] == c - (a & 255u) * (b & 255u);
}

// The host model: the selected part extended by its type, then the operation.
static long long part(unsigned x, char sel, bool is_signed) {
  const int shift = sel == 'H' ? 16 : sel >= '0' && sel <= '3' ? 8 * (sel - '0') : 0;
  const int bits = sel == 'h' || sel == 'H' ? 16 : 8;
  const unsigned long long e = (x >> shift) & ((1ull << bits) - 1);
  return is_signed && (e >> (bits - 1)) ? static_cast<long long>(e) - (1ll << bits) : static_cast<long long>(e);
}

struct Form {
  char op;            // + - d(absdiff) m(min) M(max) < >(shl, shr) l(set.lt) e(set.eq) *(vmad) n(vmad -a)
  bool ds, as, bs;    // the types of d, a and b are .s32
  char asel, bsel;    // '0'-'3' the bytes, 'h' .h0, 'H' .h1
  bool sat;
  char op2;           // 0, '+' .add, 'M' .max; vmad: 7 for .shr7
};

static unsigned model(const Form &f, unsigned a, unsigned b, unsigned c) {
  const long long x = part(a, f.asel, f.as), y = part(b, f.bsel, f.bs);
  long long v = f.op == '+' ? x + y : f.op == '-' ? x - y : f.op == 'd' ? (x > y ? x - y : y - x)
              : f.op == 'm' ? (x < y ? x : y) : f.op == 'M' ? (x > y ? x : y)
              : f.op == '<' ? (y >= 32 ? 0 : x << y) : f.op == '>' ? x >> (y & 31)
              : f.op == 'l' ? x < y : f.op == 'e' ? x == y : 0;
  if (f.op == '*' || f.op == 'n') {
    // Every vmad form here fits in 64 bits: the sign of the product, then c.
    const bool signed_final = f.as || f.bs || f.op == 'n';
    const long long z = signed_final ? static_cast<long long>(static_cast<int>(c)) : static_cast<long long>(c);
    v = (f.op == 'n' ? -(x * y) : x * y) + z;
    return static_cast<unsigned>(v >> (f.op2 == 7 ? 7 : 0));
  }
  if (f.sat) {
    const long long lo = f.ds ? -0x80000000ll : 0, hi = f.ds ? 0x7fffffffll : 0xffffffffll;
    v = v < lo ? lo : v > hi ? hi : v;
  }
  const long long z = f.ds ? static_cast<long long>(static_cast<int>(c)) : static_cast<long long>(c);
  if (f.op2 == '+') v += f.op == 'e' ? static_cast<long long>(c) : z;
  if (f.op2 == 'M') v = v > z ? v : z;
  return static_cast<unsigned>(v);
}

int main() {
  const Form forms[NOUT] = {
      {'+', false, false, false, '0', '3', false, 0}, {'-', true, true, true, 'H', 'h', false, 0},
      {'d', false, true, true, '2', '1', true, 0},    {'m', true, false, true, 'h', '3', false, 0},
      {'M', true, true, true, '1', 'H', false, 'M'},  {'+', true, true, true, '3', '3', false, '+'},
      {'<', false, false, false, 'h', '1', false, 0}, {'>', true, true, false, '3', '0', false, 0},
      {'l', false, true, true, 'H', 'h', false, 0},   {'e', false, false, false, '0', '2', false, '+'},
      {'*', true, true, true, 'h', 'H', false, 0},    {'*', false, false, false, '1', '2', false, 7},
      {'n', true, false, false, '0', '0', false, 0},
  };
  const unsigned triples[][3] = {
      {0x80ff7f01u, 0x7f0180ffu, 5u},  {0xdeadbeefu, 0x01234567u, 100u}, {0xffffffffu, 0x00000000u, 0u},
      {0x80008000u, 0x7fff7fffu, 7u},  {0x12345678u, 0x87654321u, 0xfffffff0u}, {0x11223344u, 0x11223344u, 1u},
      {0xff00ff00u, 0x00ff00ffu, 2u},  {0x7f7f8080u, 0x80807f7fu, 3u}, {0x00010001u, 0x2f1f0f05u, 9u},
      {0xfe02fd03u, 0xff01ff21u, 0x80000000u},
  };
  const int n = sizeof triples / sizeof triples[0];
  unsigned out[n][NOUT];
  check_video_forms(
      triples, n, NOUT, &out[0][0], true,
      [](const unsigned *in, unsigned *o, int *agree, int count) { pick<<<1, 32>>>(in, o, agree, count); },
      [&](int k, unsigned a, unsigned b, unsigned c) { return model(forms[k], a, b, c); });
  // Worked out by hand: 0x01 + 0x7f = 0x80; the signed halves 0x80ff and
  // 0x80ff give 0; the signed bytes 0xff and 0x80, |-1 - -128| = 127; 0x80
  // (-128) and 0x7f, 127 + -128 + 5 = 4.
  CHECK(out[0][0] == 0x80u && out[0][1] == 0u && out[0][2] == 127u && out[0][5] == 4u);
  return finish();
}
