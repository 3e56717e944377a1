// mma_m8n8k16.cu: Turing's integer tensor-core shape,
// `mma.sync.aligned.m8n8k16.row.col{.satfinite}.s32.{s8,u8}.{s8,u8}.s32`,
// which CUTLASS's SM75 int8 GEMMs (examples/08_turing_tensorop_gemm) use.
// cuemu refused the shape ("unsupported modifier .m8n8k16"). One warp
// multiplies an 8x16 A by a 16x8 B; the host checks every element of
// D = A B + C against the ISA's fragment layout: lane l = 4g + t holds A's
// row g, columns 4t..4t+3 (one register, lowest byte first), B's rows
// 4t..4t+3 of column g, and C's and D's row g, columns 2t and 2t + 1.
#include <cstdio>
#include <cstdint>

__global__ void mma8(const int8_t *a, const int8_t *b, const int *c, int *d, int *d_sat) {
  const int lane = threadIdx.x, g = lane / 4, t = lane % 4;
  unsigned ra = 0, rb = 0;
  for (int i = 0; i < 4; ++i) {
    ra |= (unsigned)(uint8_t)a[g * 16 + 4 * t + i] << (8 * i);
    rb |= (unsigned)(uint8_t)b[(4 * t + i) * 8 + g] << (8 * i);
  }
  int c0 = c[g * 8 + 2 * t], c1 = c[g * 8 + 2 * t + 1], d0, d1, s0, s1;
  asm volatile("mma.sync.aligned.m8n8k16.row.col.s32.s8.u8.s32 {%0, %1}, {%2}, {%3}, {%4, %5};"
               : "=r"(d0), "=r"(d1)
               : "r"(ra), "r"(rb), "r"(c0), "r"(c1));
  asm volatile("mma.sync.aligned.m8n8k16.row.col.satfinite.s32.s8.u8.s32 {%0, %1}, {%2}, {%3}, "
               "{%4, %5};"
               : "=r"(s0), "=r"(s1)
               : "r"(ra), "r"(rb), "r"(c0), "r"(c1));
  d[g * 8 + 2 * t] = d0;
  d[g * 8 + 2 * t + 1] = d1;
  d_sat[g * 8 + 2 * t] = s0;
  d_sat[g * 8 + 2 * t + 1] = s1;
}

int main() {
  int8_t a[8 * 16], b[16 * 8];
  int c[64], d[64], d_sat[64];
  for (int i = 0; i < 8 * 16; ++i) a[i] = (int8_t)((i * 37) % 255 - 127);
  for (int i = 0; i < 16 * 8; ++i) b[i] = (int8_t)(uint8_t)((i * 53 + 11) % 256); // as u8
  for (int i = 0; i < 64; ++i) c[i] = (i * 7919) % 1000 - 500;
  c[5] = INT32_MIN + 10; // D(0,5)'s products sum to -53124: saturates down
  c[9] = INT32_MAX - 10; // D(1,1)'s to 3680: up (both wrap without .satfinite)
  int8_t *da, *db;
  int *dc, *dd, *ds;
  cudaMalloc(&da, sizeof a);
  cudaMalloc(&db, sizeof b);
  cudaMalloc(&dc, sizeof c);
  cudaMalloc(&dd, sizeof d);
  cudaMalloc(&ds, sizeof d_sat);
  cudaMemcpy(da, a, sizeof a, cudaMemcpyHostToDevice);
  cudaMemcpy(db, b, sizeof b, cudaMemcpyHostToDevice);
  cudaMemcpy(dc, c, sizeof c, cudaMemcpyHostToDevice);
  mma8<<<1, 32>>>(da, db, dc, dd, ds);
  cudaMemcpy(d, dd, sizeof d, cudaMemcpyDeviceToHost);
  cudaMemcpy(d_sat, ds, sizeof d_sat, cudaMemcpyDeviceToHost);
  if (cudaGetLastError() != cudaSuccess) {
    printf("FAIL: %s\n", cudaGetErrorString(cudaGetLastError()));
    return 1;
  }
  for (int m = 0; m < 8; ++m)
    for (int n = 0; n < 8; ++n) {
      long long sum = c[m * 8 + n];
      for (int k = 0; k < 16; ++k) sum += (long long)a[m * 16 + k] * (uint8_t)b[k * 8 + n];
      const int wrapped = (int)(unsigned)(unsigned long long)sum;
      const int sat = sum > INT32_MAX ? INT32_MAX : sum < INT32_MIN ? INT32_MIN : (int)sum;
      if (d[m * 8 + n] != wrapped || d_sat[m * 8 + n] != sat) {
        printf("FAIL: D(%d,%d) = %d (satfinite %d), want %d (%d)\n", m, n, d[m * 8 + n],
               d_sat[m * 8 + n], wrapped, sat);
        return 1;
      }
    }
  printf("PASS\n");
  return 0;
}
