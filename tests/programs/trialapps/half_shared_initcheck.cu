// half_shared_initcheck.cu: a tiled half-precision GEMM's shared tiles
// (`__shared__ __half2 As[32][17]`) under initcheck and racecheck. g++
// initialises a thread-local array of a class whose default constructor
// is user-declared (= default, trivial) dynamically, with a guard
// variable that every thread reads at the declaration; the checkers took
// the guard for shared memory, and initcheck reported "read of
// uninitialised shared memory As+0 (As: 8 bytes)" in every block but the
// first. Reduced from an MLP trainer of branch trialapps.
// Built with the checkers of the folder's other initcheck programs, so
// that they share one build.
// CUEMU_OPTIONS: --check=init,race,mem
#include <cstdio>
#include <cuda_fp16.h>

#define TILE 8

__global__ void tile_dot(const __half *a, const __half *b, float *out) {
  __shared__ __half2 As[TILE][TILE / 2 + 1];
  __shared__ __half Bs[TILE][TILE + 1];
  int tx = threadIdx.x, ty = threadIdx.y, base = blockIdx.x * TILE * TILE;
  if (tx < TILE / 2)
    As[ty][tx] = __halves2half2(a[base + ty * TILE + 2 * tx],
                                a[base + ty * TILE + 2 * tx + 1]);
  Bs[ty][tx] = b[base + ty * TILE + tx];
  __syncthreads();
  float s = 0.0f;
  for (int k = 0; k < TILE / 2; k++) {
    float2 p = __half22float2(As[ty][k]);
    s += p.x * __half2float(Bs[2 * k][tx]) + p.y * __half2float(Bs[2 * k + 1][tx]);
  }
  out[base + ty * TILE + tx] = s;
}

int main() {
  const int blocks = 4, n = blocks * TILE * TILE;
  __half *a, *b;
  float *out;
  cudaMallocManaged(&a, n * sizeof(__half));
  cudaMallocManaged(&b, n * sizeof(__half));
  cudaMallocManaged(&out, n * sizeof(float));
  for (int i = 0; i < n; i++) {
    a[i] = __float2half(float(i % 3));
    b[i] = __float2half(float(i % 5) - 2.0f);
  }
  tile_dot<<<blocks, dim3(TILE, TILE)>>>(a, b, out);
  cudaError_t err = cudaDeviceSynchronize();
  int ok = err == cudaSuccess;
  for (int blk = 0; blk < blocks && ok; blk++)
    for (int r = 0; r < TILE && ok; r++)
      for (int c = 0; c < TILE && ok; c++) {
        int base = blk * TILE * TILE;
        float s = 0.0f;
        for (int k = 0; k < TILE; k++)
          s += float((base + r * TILE + k) % 3) *
               (float((base + k * TILE + c) % 5) - 2.0f);
        ok = out[base + r * TILE + c] == s;
      }
  printf("status %s, out[9] %.1f\n", cudaGetErrorName(err), out[9]);
  cudaFree(a);
  cudaFree(b);
  cudaFree(out);
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
