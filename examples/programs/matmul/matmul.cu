/*
 * matmul: C = A * B for single-precision matrices of 300 x 200 and 200 x 250
 * (an SGEMM without the alpha and beta), tiled through shared memory.
 *
 * Each 16 x 16 block computes one 16 x 16 tile of C. It walks along the
 * shared dimension one tile at a time: every thread loads one element of
 * the A tile and one of the B tile into shared memory (zero outside the
 * matrices), the block waits, each thread accumulates 16 products, and the
 * block waits again before the tiles are overwritten. No dimension is a
 * multiple of 16.
 */
#include <vector>

#define EXAMPLE_NAME "matmul"
#include "../common/example.cuh"

#define TILE 16

/* A is m x k, B is k x n, C is m x n, all row-major. */
__global__ void matmul(const float *__restrict__ A, const float *__restrict__ B,
                       float *__restrict__ C, int m, int n, int k) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * TILE + ty;
  const int col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
  for (int t = 0; t < k; t += TILE) {
    As[ty][tx] = row < m && t + tx < k ? A[(size_t)row * k + t + tx] : 0.0f;
    Bs[ty][tx] = t + ty < k && col < n ? B[(size_t)(t + ty) * n + col] : 0.0f;
    __syncthreads();
    for (int j = 0; j < TILE; ++j)
      acc += As[ty][j] * Bs[j][tx];
    __syncthreads();
  }
  if (row < m && col < n)
    C[(size_t)row * n + col] = acc;
}

static void matmul_host(const float *A, const float *B, float *C, int m, int n,
                        int k) {
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      float acc = 0.0f;
      for (int p = 0; p < k; ++p)
        acc += A[(size_t)i * k + p] * B[(size_t)p * n + j];
      C[(size_t)i * n + j] = acc;
    }
}

int main(void) {
  example_seed(8086u);
  const int m = 300, n = 250, k = 200;
  std::vector<float> A((size_t)m * k), B((size_t)k * n), expect((size_t)m * n),
      got((size_t)m * n);
  for (float &a : A)
    a = example_random_float(-1.0f, 1.0f);
  for (float &b : B)
    b = example_random_float(-1.0f, 1.0f);
  matmul_host(A.data(), B.data(), expect.data(), m, n, k);

  float *d_A = nullptr, *d_B = nullptr, *d_C = nullptr;
  CHECK(cudaMalloc(&d_A, A.size() * sizeof(float)));
  CHECK(cudaMalloc(&d_B, B.size() * sizeof(float)));
  CHECK(cudaMalloc(&d_C, got.size() * sizeof(float)));
  CHECK(cudaMemcpy(d_A, A.data(), A.size() * sizeof(float),
                   cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_B, B.data(), B.size() * sizeof(float),
                   cudaMemcpyHostToDevice));

  dim3 block(TILE, TILE);
  dim3 grid((n + TILE - 1) / TILE, (m + TILE - 1) / TILE);
  matmul<<<grid, block>>>(d_A, d_B, d_C, m, n, k);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());

  CHECK(cudaMemcpy(got.data(), d_C, got.size() * sizeof(float),
                   cudaMemcpyDeviceToHost));
  CHECK(cudaFree(d_A));
  CHECK(cudaFree(d_B));
  CHECK(cudaFree(d_C));

  /* The products are added in the same order as on the host, but a GPU
   * fuses them into fma, so allow an error proportional to k roundings. */
  const example_mismatches r =
      example_compare(got.data(), expect.data(), got.size(), 5e-4);
  if (r.bad)
    return example_fail("%zu of %zu elements wrong, first C[%zu][%zu] (got "
                        "%g, expected %g)",
                        r.bad, got.size(), r.first_bad / n, r.first_bad % n,
                        got[r.first_bad], expect[r.first_bad]);
  return example_pass("max abs err %g over %dx%d (k=%d)", r.max_err, m, n, k);
}
