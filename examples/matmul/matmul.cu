/*
 * matmul.cu: C (m x n) = A (m x k) * B (k x n), all row-major, with
 * TILE x TILE tiles of A and B in shared memory (TILE from -DTILE, default
 * 16) and blocks of TILE x TILE threads. Sizes need not be multiples of
 * TILE: tiles are padded with zeros, and the inner loop stops at k so that
 * the padding adds nothing. Each thread accumulates its element with fmaf in
 * the order p = 0, 1, ..., k - 1, which the host repeats.
 */
#ifndef TILE
#define TILE 16
#endif

extern "C" __global__ void matmul(int m, int n, int k, const float *a,
                                  const float *b, float *c) {
  __shared__ float as[TILE][TILE];
  __shared__ float bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
  if (blockDim.x != TILE || blockDim.y != TILE) __trap();
  for (int p0 = 0; p0 < k; p0 += TILE) {
    as[ty][tx] = row < m && p0 + tx < k ? a[(long long)row * k + p0 + tx] : 0.0f;
    bs[ty][tx] = p0 + ty < k && col < n ? b[(long long)(p0 + ty) * n + col] : 0.0f;
    __syncthreads();
    int steps = min(TILE, k - p0);
    for (int p = 0; p < steps; ++p) acc = fmaf(as[ty][p], bs[p][tx], acc);
    __syncthreads();
  }
  if (row < m && col < n) c[(long long)row * n + col] = acc;
}
