// rotating_buffers.cu: one warp sweeps a 32x32 dynamic-programming table by
// anti-diagonals, lane t on column t + 1, keeping the last three diagonals
// in three __shared__ arrays reached through local pointers that the loop
// rotates (`pp = p; p = c; c = old pp;`), with no barrier in the loop: lane
// t reads what lane t - 1 stored one and two diagonals before. The converged
// warp makes each diagonal's loads before its stores, so a GPU fills the
// table (a race since Volta; racecheck reports it, as compute-sanitizer
// does). Found by the public trial pub19: the last 32 diagonals of a
// Needleman-Wunsch kernel (BasselFakhry's kernel3.cu) rotate three buffers
// this way, and its scores came out wrong (674 for the CPU's 706) when each
// pointer was taken for an array of its own and the loop was not stepped.
#include <cstdio>

#include <cuda_runtime.h>

#include "../check.cuh"

#define N 32

// Delannoy numbers modulo 2^32: D(i, 0) = D(0, j) = 1 and
// D(i, j) = D(i - 1, j) + D(i, j - 1) + D(i - 1, j - 1).
__global__ void delannoy_wavefront(unsigned *out) {
  __shared__ unsigned b0[N + 1], b1[N + 1], b2[N + 1];
  const int t = threadIdx.x;
  const int j = t + 1;
  if (t == 0)
    b0[0] = b1[0] = b2[0] = 1;
  __syncwarp();
  unsigned *pp = b0, *p = b1, *c = b2;
  unsigned last = 0;
  for (int d = 0; d <= 2 * N; ++d) {
    const int i = d - j;
    if (i == 0) {
      c[j] = 1;
    } else if (i >= 1 && i <= N) {
      last = p[j] + p[j - 1] + pp[j - 1];
      c[j] = last;
    }
    unsigned *old = pp;
    pp = p;
    p = c;
    c = old;
  }
  out[t] = last;
}

int main() {
  static unsigned table[N + 1][N + 1];
  for (int i = 0; i <= N; ++i)
    for (int j = 0; j <= N; ++j)
      table[i][j] = i == 0 || j == 0
                        ? 1u
                        : table[i - 1][j] + table[i][j - 1] + table[i - 1][j - 1];
  unsigned *out;
  CHECK(cudaMalloc(&out, N * sizeof(unsigned)) == cudaSuccess);
  delannoy_wavefront<<<1, N>>>(out);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  unsigned got[N];
  CHECK(cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost) == cudaSuccess);
  int wrong = 0;
  for (int t = 0; t < N; ++t)
    wrong += got[t] != table[N][t + 1];
  if (wrong)
    std::fprintf(stderr, "delannoy_wavefront: %d of %d values wrong (D(32,1): %u, want %u)\n",
                 wrong, N, got[0], table[N][1]);
  CHECK(wrong == 0);
  cudaFree(out);
  return finish();
}
