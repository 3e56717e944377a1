// Older 128-bit and multi-precision kernels declare their PTX registers in
// asm statements of their own, at the function's top level, and use them in
// the asm statements that follow: asm(".reg .u32 n_<4>;"); asm("mov.u32
// n_0, %0;" :: "r"(x)); ... asm("addc.cc.u32 n_1, n_1, 0;"). nvcc pastes
// every statement into the function's PTX, where such a register is the
// function's (the inline-PTX guide's "namespace conflicts"), so ptxas takes
// it; cuemu-nvcc refused the file ("inline PTX: unknown register n_0").
// Labels are the function's too: asm("$next:"); ... asm("@p bra $next;")
// is a loop written across statements (cuemu-nvcc's g++ said "label
// 'cuemu_ptx_L__next' used but not defined"). The kernels here keep a
// 128-bit number in four such registers across statements, loops and a
// call, and count Collatz steps in a loop of branches between statements;
// each is checked against the host.
#include <cstdio>
#include "../check.cuh"

// n = x * 3^k + k (128 bits, little-endian words), with the carry chains
// and the product words in function-scope registers.
__global__ void scale128(const unsigned *in, unsigned *out, int k) {
  const int i = threadIdx.x;
  asm(".reg .u32 n_<4>;");
  asm(".reg .u32 h_<3>;");
  asm(".reg .pred p;");
  asm("mov.u32 n_0, %0;" :: "r"(in[2 * i]));
  asm("mov.u32 n_1, %0;" :: "r"(in[2 * i + 1]));
  asm("mov.u32 n_2, 0;");
  asm("mov.u32 n_3, 0;");
  for (int s = 0; s < k; s++) {
    asm("mul.hi.u32 h_0, n_0, 3;");
    asm("mul.lo.u32 n_0, n_0, 3;");
    asm("mul.hi.u32 h_1, n_1, 3;");
    asm("mad.lo.cc.u32 n_1, n_1, 3, h_0;");
    asm("mul.hi.u32 h_2, n_2, 3;");
    asm("madc.lo.cc.u32 n_2, n_2, 3, h_1;");
    asm("madc.lo.u32 n_3, n_3, 3, h_2;");
  }
  asm("add.cc.u32 n_0, n_0, %0;" :: "r"(k));
  asm("addc.cc.u32 n_1, n_1, 0;");
  asm("addc.cc.u32 n_2, n_2, 0;");
  asm("addc.u32 n_3, n_3, 0;");
  // A predicate of the function guards an instruction of a later statement.
  asm("setp.eq.u32 p, n_3, 0;");
  unsigned flag = 7;
  asm("@p mov.u32 %0, 1;" : "+r"(flag));
  unsigned w0, w1, w2, w3;
  asm("mov.u32 %0, n_0;" : "=r"(w0));
  asm("mov.u32 %0, n_1;" : "=r"(w1));
  asm("mov.u32 %0, n_2;" : "=r"(w2));
  asm("mov.u32 %0, n_3;" : "=r"(w3));
  out[5 * i] = w0;
  out[5 * i + 1] = w1;
  out[5 * i + 2] = w2;
  out[5 * i + 3] = w3;
  out[5 * i + 4] = flag;
}

// A function with registers of its own: each call has its own. (nvcc may not
// inline it twice into one function: ptxas would see the register twice.)
__device__ __noinline__ unsigned long long add64(unsigned long long a, unsigned long long b) {
  asm(".reg .u64 acc;");
  asm("mov.u64 acc, %0;" :: "l"(a));
  asm("add.u64 acc, acc, %0;" :: "l"(b));
  unsigned long long r;
  asm("mov.u64 %0, acc;" : "=l"(r));
  return r;
}

__global__ void sum3(const unsigned long long *in, unsigned long long *out) {
  const int i = threadIdx.x;
  out[i] = add64(add64(in[3 * i], in[3 * i + 1]), in[3 * i + 2]);
}

// Collatz steps from x to 1, in a loop of branches between statements.
__global__ void steps(const unsigned *in, unsigned *out) {
  asm(".reg .u32 x, c, odd;");
  asm(".reg .pred q;");
  asm("mov.u32 x, %0;" :: "r"(in[threadIdx.x]));
  asm("mov.u32 c, 0;");
  asm("$next:");
  asm("setp.eq.u32 q, x, 1;");
  asm("@q bra $done;");
  asm("and.b32 odd, x, 1;");
  asm("setp.eq.u32 q, odd, 0;");
  asm("@q shr.u32 x, x, 1;");
  asm("@!q mad.lo.u32 x, x, 3, 1;");
  asm("add.u32 c, c, 1;");
  asm("bra.uni $next;");
  asm("$done:");
  unsigned v;
  asm("mov.u32 %0, c;" : "=r"(v));
  out[threadIdx.x] = v;
}

int main() {
  enum { T = 32, K = 40 };
  unsigned h_in[2 * T], h_out[5 * T];
  unsigned long long s = 0x9e3779b97f4a7c15ull;
  for (int i = 0; i < 2 * T; i++) {
    s ^= s << 13; s ^= s >> 7; s ^= s << 17;
    h_in[i] = static_cast<unsigned>(s);
  }
  unsigned *d_in, *d_out;
  cudaMalloc(&d_in, sizeof h_in);
  cudaMalloc(&d_out, sizeof h_out);
  cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);
  scale128<<<1, T>>>(d_in, d_out, K);
  CHECK(cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost) == cudaSuccess);
  for (int i = 0; i < T; i++) {
    // x * 3^40 + 40 in 128 bits, by words on the host.
    unsigned w[4] = {h_in[2 * i], h_in[2 * i + 1], 0, 0};
    for (int k = 0; k < K; k++) {
      unsigned long long c = 0;
      for (int j = 0; j < 4; j++) {
        c += 3ull * w[j];
        w[j] = static_cast<unsigned>(c);
        c >>= 32;
      }
    }
    unsigned long long c = K;
    for (int j = 0; j < 4; j++) {
      c += w[j];
      w[j] = static_cast<unsigned>(c);
      c >>= 32;
    }
    for (int j = 0; j < 4; j++) CHECK(h_out[5 * i + j] == w[j]);
    CHECK(h_out[5 * i + 4] == (w[3] == 0 ? 1u : 7u));
  }
  unsigned long long h3[3 * T], h_sum[T], *d3, *d_sum;
  for (int i = 0; i < 3 * T; i++) h3[i] = 0xfedcba9876543210ull * (i + 1);
  cudaMalloc(&d3, sizeof h3);
  cudaMalloc(&d_sum, sizeof h_sum);
  cudaMemcpy(d3, h3, sizeof h3, cudaMemcpyHostToDevice);
  sum3<<<1, T>>>(d3, d_sum);
  CHECK(cudaMemcpy(h_sum, d_sum, sizeof h_sum, cudaMemcpyDeviceToHost) == cudaSuccess);
  for (int i = 0; i < T; i++) CHECK(h_sum[i] == h3[3 * i] + h3[3 * i + 1] + h3[3 * i + 2]);
  unsigned h_x[T], h_steps[T];
  for (int i = 0; i < T; i++) h_x[i] = 27 + 7 * i;
  cudaMemcpy(d_in, h_x, sizeof h_x, cudaMemcpyHostToDevice);
  steps<<<1, T>>>(d_in, d_out);
  CHECK(cudaMemcpy(h_steps, d_out, sizeof h_steps, cudaMemcpyDeviceToHost) == cudaSuccess);
  for (int i = 0; i < T; i++) {
    unsigned x = h_x[i], c = 0;
    while (x != 1) {
      x = (x & 1) ? 3 * x + 1 : x / 2;
      c++;
    }
    CHECK(h_steps[i] == c);
  }
  CHECK(h_steps[0] == 111); /* 27 takes 111 steps */
  return finish();
}
