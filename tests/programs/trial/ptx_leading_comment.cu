// Hash miners write Keccak's theta and chi steps on uint2 halves in inline
// PTX whose template begins with a comment naming the step
// (`"// xor5\n\t" "lop3.b32 %0, ..."`), which ptxas skips. cuemu-nvcc took
// such a template for host assembly (its first word was not a PTX
// instruction) and the host assembler refused it ("no such instruction:
// `lop3.b32 ...'"). The kernel computes the five-way xor, chi and a 64-bit
// rotation through templates that start with `//` and `/* */` comments,
// blank lines among them, and checks them against plain C++; a template
// made of a comment alone, a compiler barrier, stays an empty statement.
#include <cstdio>
#include "../check.cuh"

__device__ __forceinline__ uint2 xor5(uint2 a, uint2 b, uint2 c, uint2 d, uint2 e) {
  uint2 r;
  asm("// xor5\n\t"
      "lop3.b32 %0, %2, %3, %4, 0x96;\n\t"
      "lop3.b32 %0, %0, %5, %6, 0x96;\n\t"
      "lop3.b32 %1, %7, %8, %9, 0x96;\n\t"
      "lop3.b32 %1, %1, %10, %11, 0x96;"
      : "=r"(r.x), "=r"(r.y)
      : "r"(a.x), "r"(b.x), "r"(c.x), "r"(d.x), "r"(e.x),
        "r"(a.y), "r"(b.y), "r"(c.y), "r"(d.y), "r"(e.y));
  return r;
}

__device__ __forceinline__ uint2 chi(uint2 a, uint2 b, uint2 c) {
  uint2 r;
  asm("/* chi: a ^ (~b & c) */\n\t"
      "\n\t// both halves\n\t"
      "lop3.b32 %0, %2, %3, %4, 0xD2;\n\t"
      "lop3.b32 %1, %5, %6, %7, 0xD2;"
      : "=r"(r.x), "=r"(r.y)
      : "r"(a.x), "r"(b.x), "r"(c.x), "r"(a.y), "r"(b.y), "r"(c.y));
  return r;
}

__device__ __forceinline__ uint2 rol2(uint2 a, unsigned n) {
  uint2 r;
  asm("// rol2\n\t"
      "{\n\t"
      ".reg .b32 lo, hi;\n\t"
      "shf.l.wrap.b32 hi, %2, %3, %4;\n\t"
      "shf.l.wrap.b32 lo, %3, %2, %4;\n\t"
      "mov.b32 %0, lo;\n\t"
      "mov.b32 %1, hi;\n\t"
      "}"
      : "=r"(r.x), "=r"(r.y) : "r"(a.x), "r"(a.y), "r"(n));
  return r;
}

__global__ void keccak_steps(const uint2 *in, uint2 *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  uint2 a = in[i], b = in[(i + 1) % n], c = in[(i + 2) % n];
  uint2 d = in[(i + 3) % n], e = in[(i + 4) % n];
  out[3 * i] = xor5(a, b, c, d, e);
  asm volatile("// the stores above stay before the ones below" ::: "memory");
  out[3 * i + 1] = chi(a, b, c);
  out[3 * i + 2] = rol2(a, i % 32);
}

static unsigned long long join(uint2 v) { return (unsigned long long)v.y << 32 | v.x; }

int main() {
  const int n = 64;
  uint2 h_in[n], h_out[3 * n];
  unsigned s = 2463534242u;
  for (int i = 0; i < n; i++) {
    s ^= s << 13; s ^= s >> 17; s ^= s << 5;
    h_in[i].x = s;
    s ^= s << 13; s ^= s >> 17; s ^= s << 5;
    h_in[i].y = s;
  }
  uint2 *d_in, *d_out;
  cudaMalloc(&d_in, sizeof h_in);
  cudaMalloc(&d_out, sizeof h_out);
  cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);
  keccak_steps<<<2, 32>>>(d_in, d_out, n);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int i = 0; i < n; i++) {
    unsigned long long a = join(h_in[i]), b = join(h_in[(i + 1) % n]);
    unsigned long long c = join(h_in[(i + 2) % n]), d = join(h_in[(i + 3) % n]);
    unsigned long long e = join(h_in[(i + 4) % n]);
    unsigned r = i % 32;
    unsigned long long rot = r ? (a << r) | (a >> (64 - r)) : a;
    if (join(h_out[3 * i]) != (a ^ b ^ c ^ d ^ e)) wrong++;
    if (join(h_out[3 * i + 1]) != (a ^ (~b & c))) wrong++;
    if (join(h_out[3 * i + 2]) != rot) wrong++;
  }
  CHECK(wrong == 0);
  return finish();
}
