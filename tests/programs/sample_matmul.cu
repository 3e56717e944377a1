/*
 * sample_matmul.cu: C = A * B with shared-memory tiles, the way the matrix
 * multiplication samples teach it: each block of 16 x 16 threads computes a
 * 16 x 16 tile of C, walking along A's rows and B's columns one tile pair
 * at a time; each pair is loaded into __shared__ arrays, with a barrier
 * before and after the inner product. The sides are not multiples of the
 * tile (missing elements load as zero). Inputs are small integers, so every
 * sum is exact in float and the check against the host is exact. Prints
 * PASS and exits 0 when all is well.
 */
#include <cstdio>
#include <vector>

#include <cuda_runtime.h>

#include "check.cuh"

#define TILE 16

/* A is rows x inner, B is inner x cols, C is rows x cols, row-major. */
template <int BLOCK>
__global__ void matmul_tiled(float *c, const float *a, const float *b,
                             int rows, int inner, int cols) {
  __shared__ float as[BLOCK][BLOCK];
  __shared__ float bs[BLOCK][BLOCK];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * BLOCK + ty;
  const int col = blockIdx.x * BLOCK + tx;
  float sum = 0.0f;
  for (int k0 = 0; k0 < inner; k0 += BLOCK) {
    as[ty][tx] = row < rows && k0 + tx < inner ? a[row * inner + k0 + tx]
                                               : 0.0f;
    bs[ty][tx] = k0 + ty < inner && col < cols ? b[(k0 + ty) * cols + col]
                                               : 0.0f;
    __syncthreads();
#pragma unroll
    for (int k = 0; k < BLOCK; ++k)
      sum += as[ty][k] * bs[k][tx];
    __syncthreads();
  }
  if (row < rows && col < cols)
    c[row * cols + col] = sum;
}

int main() {
  const int rows = 150, inner = 100, cols = 130;
  std::vector<float> a(rows * inner), b(inner * cols), c(rows * cols, -1.0f);
  for (int i = 0; i < rows * inner; ++i)
    a[i] = (float)(i % 7 - 3);
  for (int i = 0; i < inner * cols; ++i)
    b[i] = (float)(i % 5 - 2);

  float *da = nullptr, *db = nullptr, *dc = nullptr;
  CHECK(cudaMalloc(&da, a.size() * sizeof(float)) == cudaSuccess);
  CHECK(cudaMalloc(&db, b.size() * sizeof(float)) == cudaSuccess);
  CHECK(cudaMalloc(&dc, c.size() * sizeof(float)) == cudaSuccess);
  CHECK(cudaMemcpy(da, a.data(), a.size() * sizeof(float),
                   cudaMemcpyHostToDevice) == cudaSuccess);
  CHECK(cudaMemcpy(db, b.data(), b.size() * sizeof(float),
                   cudaMemcpyHostToDevice) == cudaSuccess);

  dim3 threads(TILE, TILE);
  dim3 grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
  matmul_tiled<TILE><<<grid, threads>>>(dc, da, db, rows, inner, cols);
  CHECK(cudaGetLastError() == cudaSuccess);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(cudaMemcpy(c.data(), dc, c.size() * sizeof(float),
                   cudaMemcpyDeviceToHost) == cudaSuccess);

  int wrong = 0;
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) {
      float expected = 0.0f;
      for (int k = 0; k < inner; ++k)
        expected += a[i * inner + k] * b[k * cols + j];
      if (c[i * cols + j] != expected && wrong++ == 0)
        std::fprintf(stderr, "C[%d][%d] is %g, not %g\n", i, j,
                     (double)c[i * cols + j], (double)expected);
    }
  CHECK(wrong == 0);

  CHECK(cudaFree(da) == cudaSuccess);
  CHECK(cudaFree(db) == cudaSuccess);
  CHECK(cudaFree(dc) == cudaSuccess);
  return finish();
}
