/*
 * transpose: out = in^T for a 1000 x 1500 matrix of floats.
 *
 * The classic tiled transpose: a 2-D grid of 32 x 8 thread blocks, each
 * moving one 32 x 32 tile. The block reads its tile row by row (coalesced),
 * stores it in shared memory, waits at a barrier, and writes it out
 * transposed, again row by row. The tile has 33 columns, not 32, so that
 * the column-wise reads of the second half fall in different shared-memory
 * banks. Neither dimension is a multiple of 32, so the edge tiles check
 * their bounds.
 */
#include <vector>

#define EXAMPLE_NAME "transpose"
#include "../common/example.cuh"

#define TILE_DIM 32
#define BLOCK_ROWS 8

/* in is rows x cols, row-major; out is cols x rows. */
__global__ void transpose(const float *__restrict__ in, float *__restrict__ out,
                          int rows, int cols) {
  __shared__ float tile[TILE_DIM][TILE_DIM + 1];
  int x = blockIdx.x * TILE_DIM + threadIdx.x; /* column of in */
  int y = blockIdx.y * TILE_DIM + threadIdx.y; /* row of in */
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (x < cols && y + j < rows)
      tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(y + j) * cols + x];
  __syncthreads();
  x = blockIdx.y * TILE_DIM + threadIdx.x; /* column of out */
  y = blockIdx.x * TILE_DIM + threadIdx.y; /* row of out */
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (x < rows && y + j < cols)
      out[(size_t)(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
}

static void transpose_host(const float *in, float *out, int rows, int cols) {
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c)
      out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

int main(void) {
  example_seed(99u);
  const int rows = 1000, cols = 1500;
  const size_t count = (size_t)rows * cols, bytes = count * sizeof(float);
  std::vector<float> in(count), expect(count), got(count);
  for (size_t i = 0; i < count; ++i)
    in[i] = example_random_float(0.0f, 1.0f);
  transpose_host(in.data(), expect.data(), rows, cols);

  float *d_in = nullptr, *d_out = nullptr;
  CHECK(cudaMalloc(&d_in, bytes));
  CHECK(cudaMalloc(&d_out, bytes));
  CHECK(cudaMemcpy(d_in, in.data(), bytes, cudaMemcpyHostToDevice));
  /* Poison the output so that a missed element cannot match by chance. */
  CHECK(cudaMemset(d_out, 0xff, bytes));

  dim3 block(TILE_DIM, BLOCK_ROWS);
  dim3 grid((cols + TILE_DIM - 1) / TILE_DIM, (rows + TILE_DIM - 1) / TILE_DIM);
  transpose<<<grid, block>>>(d_in, d_out, rows, cols);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());

  CHECK(cudaMemcpy(got.data(), d_out, bytes, cudaMemcpyDeviceToHost));
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_out));

  const example_mismatches r =
      example_compare(got.data(), expect.data(), count);
  if (r.bad)
    return example_fail("%zu of %zu elements wrong, first at row %zu column "
                        "%zu of the output",
                        r.bad, count, r.first_bad / rows, r.first_bad % rows);
  return example_pass("exact over %dx%d, grid %ux%u of %ux%u", rows, cols,
                      grid.x, grid.y, block.x, block.y);
}
