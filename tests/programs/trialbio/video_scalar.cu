/* video_scalar.cu: the scalar video instructions of inline PTX (vadd, vsub,
 * vabsdiff, vmin, vmax with .sat and the secondary .add/.min/.max), in the
 * style of SIMD Smith-Waterman code that takes the maximum of three scores
 * in one `vmax.s32.s32.s32.max`; checked against the PTX ISA's definition
 * computed on the host. */
#include <cstdio>
#include <cstdlib>
#include <climits>

#define CHECK(c, ...)                                                  \
  do {                                                                 \
    if (!(c)) {                                                        \
      printf("FAIL: " __VA_ARGS__);                                    \
      printf("\n");                                                    \
      exit(1);                                                         \
    }                                                                  \
  } while (0)

__device__ __forceinline__ int max3(int a, int b, int c) {
  int d;
  asm("vmax.s32.s32.s32.max %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
  return d;
}

__global__ void video(const unsigned *x, unsigned *out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const unsigned a = x[i], b = x[(i + 7) % n], c = x[(i + 13) % n];
  unsigned r[10];
  r[0] = (unsigned)max3((int)a, (int)b, (int)c);
  asm("vmin.s32.s32.s32.min %0, %1, %2, %3;" : "=r"(r[1]) : "r"(a), "r"(b), "r"(c));
  asm("vadd.s32.s32.s32.sat %0, %1, %2;" : "=r"(r[2]) : "r"(a), "r"(b));
  asm("vsub.u32.u32.u32.sat %0, %1, %2;" : "=r"(r[3]) : "r"(a), "r"(b));
  asm("vabsdiff.u32.s32.s32.add %0, %1, %2, %3;" : "=r"(r[4]) : "r"(a), "r"(b), "r"(c));
  asm("vmax.u32.u32.u32 %0, %1, %2;" : "=r"(r[5]) : "r"(a), "r"(b));
  asm("vadd.s32.u32.s32.sat.max %0, %1, %2, %3;" : "=r"(r[6]) : "r"(a), "r"(b), "r"(c));
  asm("vsub.s32.s32.s32 %0, %1, %2;" : "=r"(r[7]) : "r"(a), "r"(b));
  asm("vmin.u32.u32.u32.add %0, %1, %2, %3;" : "=r"(r[8]) : "r"(a), "r"(b), "r"(c));
  asm("vsub.s32.s32.s32.sat.add %0, %1, %2, %3;" : "=r"(r[9]) : "r"(a), "r"(b), "r"(c));
  for (int k = 0; k < 10; ++k) out[i * 10 + k] = r[k];
}

/* The ISA's definition: operands extended by their types to 34 bits, the
 * operation, the optional clamp to dtype, the optional secondary operation
 * with c (extended by dtype), the low 32 bits. */
enum { ADD, SUB, ABSDIFF, MIN, MAX, NONE };
static unsigned ref(int op, bool ds, bool as, bool bs, bool sat, int op2, unsigned a, unsigned b,
                    unsigned c) {
  const long long x = as ? (long long)(int)a : (long long)a;
  const long long y = bs ? (long long)(int)b : (long long)b;
  long long t = op == ADD ? x + y : op == SUB ? x - y : op == ABSDIFF ? (x > y ? x - y : y - x)
              : op == MIN ? (x < y ? x : y) : (x > y ? x : y);
  if (sat) {
    const long long lo = ds ? INT_MIN : 0, hi = ds ? INT_MAX : UINT_MAX;
    t = t < lo ? lo : t > hi ? hi : t;
  }
  const long long z = ds ? (long long)(int)c : (long long)c;
  if (op2 == ADD) t += z;
  if (op2 == MIN) t = t < z ? t : z;
  if (op2 == MAX) t = t > z ? t : z;
  return (unsigned)t;
}

int main() {
  const int n = 96;
  unsigned *x, *out;
  cudaMallocManaged(&x, n * sizeof(unsigned));
  cudaMallocManaged(&out, n * 10 * sizeof(unsigned));
  unsigned s = 12345u;
  for (int i = 0; i < n; ++i) {
    s = s * 1664525u + 1013904223u;
    /* Some extremes, to reach the clamps. */
    x[i] = i % 11 == 0 ? 0x7fffffffu : i % 13 == 0 ? 0x80000000u : i % 17 == 0 ? 0xffffffffu : s;
  }
  video<<<3, 32>>>(x, out, n);
  CHECK(cudaDeviceSynchronize() == cudaSuccess, "launch");
  for (int i = 0; i < n; ++i) {
    const unsigned a = x[i], b = x[(i + 7) % n], c = x[(i + 13) % n];
    const unsigned want[10] = {
        ref(MAX, true, true, true, false, MAX, a, b, c),
        ref(MIN, true, true, true, false, MIN, a, b, c),
        ref(ADD, true, true, true, true, NONE, a, b, 0),
        ref(SUB, false, false, false, true, NONE, a, b, 0),
        ref(ABSDIFF, false, true, true, false, ADD, a, b, c),
        ref(MAX, false, false, false, false, NONE, a, b, 0),
        ref(ADD, true, false, true, true, MAX, a, b, c),
        ref(SUB, true, true, true, false, NONE, a, b, 0),
        ref(MIN, false, false, false, false, ADD, a, b, c),
        ref(SUB, true, true, true, true, ADD, a, b, c)};
    for (int k = 0; k < 10; ++k)
      CHECK(out[i * 10 + k] == want[k], "form %d of element %d: %08x, want %08x (a %08x b %08x c %08x)", k, i,
            out[i * 10 + k], want[k], a, b, c);
  }
  printf("PASS\n");
  return 0;
}
