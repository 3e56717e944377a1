/*
 * sample_transpose.cu: matrix transposes in the style of the well-known
 * "efficient matrix transpose" article: 32 x 32 tiles handled by 32 x 8
 * threads, each thread moving four elements. A plain copy, a naive
 * transpose, and the coalesced one that stages a tile in a
 * __shared__ float tile[32][33] (the extra column keeps the column reads
 * free of bank conflicts on a GPU). Run on a matrix whose sides are
 * multiples of the tile and on one whose sides are not (with bounds checks).
 * Checked exactly against the host. Prints PASS and exits 0 when all is
 * well.
 */
#include <cstdio>
#include <vector>

#include <cuda_runtime.h>

#include "check.cuh"

#define TILE_DIM 32
#define BLOCK_ROWS 8

/* out = in, both width x height (row-major). */
__global__ void copy(float *out, const float *in, int width, int height) {
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (x < width && y + j < height)
      out[(y + j) * width + x] = in[(y + j) * width + x];
}

/* out (height x width) = transpose of in (width x height), reading rows and
 * writing columns straight from global memory. */
__global__ void transpose_naive(float *out, const float *in, int width,
                                int height) {
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (x < width && y + j < height)
      out[x * height + (y + j)] = in[(y + j) * width + x];
}

/* The same through a shared tile: rows are read and rows are written. */
__global__ void transpose_coalesced(float *out, const float *in, int width,
                                    int height) {
  __shared__ float tile[TILE_DIM][TILE_DIM + 1];
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (x < width && y + j < height)
      tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
  __syncthreads();

  /* The tile's transpose goes to the mirrored block of the output. */
  x = blockIdx.y * TILE_DIM + threadIdx.x;
  y = blockIdx.x * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (x < height && y + j < width)
      out[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}

static void run(int width, int height) {
  const int n = width * height;
  const size_t bytes = n * sizeof(float);
  std::vector<float> host(n), result(n);
  for (int i = 0; i < n; ++i)
    host[i] = (float)i * 0.5f - 1000.0f;

  float *in = nullptr, *out = nullptr;
  CHECK(cudaMalloc(&in, bytes) == cudaSuccess);
  CHECK(cudaMalloc(&out, bytes) == cudaSuccess);
  CHECK(cudaMemcpy(in, host.data(), bytes, cudaMemcpyHostToDevice) ==
        cudaSuccess);
  dim3 grid((width + TILE_DIM - 1) / TILE_DIM,
            (height + TILE_DIM - 1) / TILE_DIM);
  dim3 block(TILE_DIM, BLOCK_ROWS);

  copy<<<grid, block>>>(out, in, width, height);
  CHECK(cudaGetLastError() == cudaSuccess);
  CHECK(cudaMemcpy(result.data(), out, bytes, cudaMemcpyDeviceToHost) ==
        cudaSuccess);
  CHECK(result == host);

  /* As the samples do, the kernel is chosen through a pointer. */
  void (*const transposes[])(float *, const float *, int, int) = {
      transpose_naive, transpose_coalesced};
  const char *const names[] = {"transpose_naive", "transpose_coalesced"};
  for (int k = 0; k < 2; ++k) {
    void (*kernel)(float *, const float *, int, int) = transposes[k];
    CHECK(cudaMemset(out, 0, bytes) == cudaSuccess);
    kernel<<<grid, block>>>(out, in, width, height);
    CHECK(cudaGetLastError() == cudaSuccess);
    CHECK(cudaDeviceSynchronize() == cudaSuccess);
    CHECK(cudaMemcpy(result.data(), out, bytes, cudaMemcpyDeviceToHost) ==
          cudaSuccess);
    int wrong = 0;
    for (int y = 0; y < height; ++y)
      for (int x = 0; x < width; ++x)
        if (result[x * height + y] != host[y * width + x] && wrong++ == 0)
          std::fprintf(stderr, "%s %dx%d: out[%d][%d] is %g, not %g\n",
                       names[k], width, height, x, y,
                       (double)result[x * height + y],
                       (double)host[y * width + x]);
    CHECK(wrong == 0);
  }
  CHECK(cudaFree(in) == cudaSuccess);
  CHECK(cudaFree(out) == cudaSuccess);
}

int main() {
  run(512, 384);
  run(333, 101);
  return finish();
}
