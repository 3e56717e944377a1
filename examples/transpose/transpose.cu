/*
 * transpose.cu: out (cols x rows) = the transpose of in (rows x cols), both
 * row-major, through 32 x 32 tiles in shared memory. The tile has 33 columns
 * so that reading it by columns touches 32 different banks. A block of
 * 32 x blockDim.y threads copies a tile in 32 / blockDim.y rows per thread;
 * the grid has one block per tile. Sizes need not be multiples of 32.
 */
#define TRANSPOSE_TILE 32

extern "C" __global__ void transpose(int rows, int cols, const float *in,
                                     float *out) {
  __shared__ float tile[TRANSPOSE_TILE][TRANSPOSE_TILE + 1];
  int x = blockIdx.x * TRANSPOSE_TILE + threadIdx.x;
  int y0 = blockIdx.y * TRANSPOSE_TILE;
  for (int j = threadIdx.y; j < TRANSPOSE_TILE; j += blockDim.y)
    if (x < cols && y0 + j < rows)
      tile[j][threadIdx.x] = in[(long long)(y0 + j) * cols + x];
  __syncthreads();
  /* Swap the block's coordinates: this block writes tile (y, x) of out. */
  x = blockIdx.y * TRANSPOSE_TILE + threadIdx.x;
  y0 = blockIdx.x * TRANSPOSE_TILE;
  for (int j = threadIdx.y; j < TRANSPOSE_TILE; j += blockDim.y)
    if (x < rows && y0 + j < cols)
      out[(long long)(y0 + j) * rows + x] = tile[threadIdx.x][j];
}
