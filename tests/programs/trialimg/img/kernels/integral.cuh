// Integral image (summed-area table): scan each row, transpose through a
// padded shared tile, scan the rows again, transpose back.
#ifndef TRIALIMG_INTEGRAL_CUH
#define TRIALIMG_INTEGRAL_CUH
#include <cuda_runtime.h>

#define TRANSPOSE_TILE 32
#define TRANSPOSE_ROWS 8

// One block per row; each thread scans a strip serially, then the strip totals
// are scanned in shared memory (Hillis-Steele with double buffering).
template <typename Tin, typename Tout, int THREADS>
__global__ void scanRows(Tout *out, const Tin *in, int width, int height) {
  __shared__ Tout s_sum[2][THREADS];
  const int row = blockIdx.x;
  if (row >= height) return;
  const Tin *src = in + (size_t)row * width;
  Tout *dst = out + (size_t)row * width;
  const int strip = (width + THREADS - 1) / THREADS;
  const int begin = threadIdx.x * strip, end = min(begin + strip, width);
  Tout local = 0;
  for (int i = begin; i < end; i++) local += static_cast<Tout>(src[i]);
  int cur = 0;
  s_sum[cur][threadIdx.x] = local;
  __syncthreads();
  for (int off = 1; off < THREADS; off <<= 1) {
    Tout v = s_sum[cur][threadIdx.x];
    if (threadIdx.x >= off) v += s_sum[cur][threadIdx.x - off];
    s_sum[cur ^ 1][threadIdx.x] = v;
    cur ^= 1;
    __syncthreads();
  }
  Tout run = threadIdx.x > 0 ? s_sum[cur][threadIdx.x - 1] : Tout(0);
  for (int i = begin; i < end; i++) {
    run += static_cast<Tout>(src[i]);
    dst[i] = run;
  }
}

template <typename T>
__global__ void transpose(T *out, const T *in, int width, int height) {
  __shared__ T tile[TRANSPOSE_TILE][TRANSPOSE_TILE + 1];  // +1: no bank conflicts on the column read
  int x = blockIdx.x * TRANSPOSE_TILE + threadIdx.x;
  int y = blockIdx.y * TRANSPOSE_TILE + threadIdx.y;
  for (int j = 0; j < TRANSPOSE_TILE; j += TRANSPOSE_ROWS)
    if (x < width && y + j < height) tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(y + j) * width + x];
  __syncthreads();
  x = blockIdx.y * TRANSPOSE_TILE + threadIdx.x;
  y = blockIdx.x * TRANSPOSE_TILE + threadIdx.y;
  for (int j = 0; j < TRANSPOSE_TILE; j += TRANSPOSE_ROWS)
    if (x < height && y + j < width) out[(size_t)(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}

template <typename T>
void launchTranspose(T *out, const T *in, int width, int height, cudaStream_t s) {
  dim3 block(TRANSPOSE_TILE, TRANSPOSE_ROWS);
  dim3 grid((width + TRANSPOSE_TILE - 1) / TRANSPOSE_TILE, (height + TRANSPOSE_TILE - 1) / TRANSPOSE_TILE);
  transpose<<<grid, block, 0, s>>>(out, in, width, height);
}

#endif  // TRIALIMG_INTEGRAL_CUH
