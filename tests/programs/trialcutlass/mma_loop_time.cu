// mma_loop_time.cu: a tensor-core main loop as CuTe's SM80 GEMM runs it,
// ldmatrix then mma.sync.m16n8k16 many times per warp, whose lanes now
// gather the warp's registers in one exchange. Each lane's registers
// reached the others through one shuffle per register (6 per mma, each a
// switch of all 32 lanes), so the CuTe tutorial's 128x128x64 half GEMM
// took 38 ms of CPU, against 0.4 ms for its SIMT float GEMM (4.4 ms now;
// bench/RESULTS.md). The results are checked exactly: A is all ones, B
// holds small integers, so every sum is exact; the time is only printed.
#include <cstdio>
#include <cstdint>
#include <ctime>

constexpr int kSteps = 3000;

__global__ void mma_loop(const unsigned short *b_tile, float *out) {
  __shared__ unsigned short tile[8 * 16 * 4]; // four 8x8 matrices of halves
  for (int i = threadIdx.x; i < 8 * 16 * 4; i += blockDim.x) tile[i] = b_tile[i];
  __syncthreads();
  const unsigned lane = threadIdx.x % 32;
  const unsigned a = 0x3c003c00u; // two f16 ones
  float acc[4] = {0, 0, 0, 0};
  for (int s = 0; s < kSteps; ++s) {
    unsigned r0, r1;
    unsigned addr = static_cast<unsigned>(__cvta_generic_to_shared(&tile[(lane % 32) * 8]));
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];"
                 : "=r"(r0), "=r"(r1)
                 : "r"(addr));
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, "
                 "{%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
                 : "+f"(acc[0]), "+f"(acc[1]), "+f"(acc[2]), "+f"(acc[3])
                 : "r"(a), "r"(a), "r"(a), "r"(a), "r"(r0), "r"(r1));
  }
  for (int e = 0; e < 4; ++e) out[threadIdx.x * 4 + e] = acc[e];
}

int main() {
  // Matrix m, row r of the tile holds halves of the value (m + r) % 4:
  // 0.0, 1.0, 2.0, 3.0 (0x0000, 0x3c00, 0x4000, 0x4200).
  const unsigned short bits[4] = {0x0000, 0x3c00, 0x4000, 0x4200};
  unsigned short host[8 * 16 * 4];
  for (int i = 0; i < 8 * 16 * 4; ++i) host[i] = bits[(i / 8 / 8 + i / 8 % 8) % 4];
  unsigned short *b;
  float *out;
  const int threads = 128;
  cudaMalloc(&b, sizeof host);
  cudaMalloc(&out, threads * 4 * sizeof(float));
  cudaMemcpy(b, host, sizeof host, cudaMemcpyHostToDevice);
  clock_t start = clock();
  mma_loop<<<1, threads>>>(b, out);
  cudaError_t e = cudaDeviceSynchronize();
  double seconds = double(clock() - start) / CLOCKS_PER_SEC;
  float got[threads * 4];
  cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost);
  if (e != cudaSuccess) {
    printf("FAIL: %s\n", cudaGetErrorString(e));
    return 1;
  }
  // B's fragment registers r0 (k 0..7) and r1 (k 8..15) of column n come
  // from matrices 0 and 1: lane 4n + t's r0 holds row n of matrix 0, so
  // B(k, n) is (m + n) % 4 with m = k / 8. Each D element of column n sums
  // 16 products: kSteps * 8 * ((n % 4) + ((n + 1) % 4)).
  for (int t = 0; t < threads; ++t)
    for (int i = 0; i < 4; ++i) {
      const int n = 2 * (t % 4) + i % 2;
      const float want = float(kSteps) * 8 * (n % 4 + (n + 1) % 4);
      if (got[t * 4 + i] != want) {
        printf("FAIL: thread %d element %d: %g, want %g\n", t, i, got[t * 4 + i], want);
        return 1;
      }
    }
  // 4 warps x 3000 steps: about 0.1 s of CPU on the trial's machine; a
  // shuffle per register took 0.5 s (bench/RESULTS.md). Printed, never
  // judged: tests are not timed.
  printf("%d ldmatrix + mma.sync steps of 4 warps: %.2f s of CPU\n", kSteps, seconds);
  printf("PASS\n");
  return 0;
}
