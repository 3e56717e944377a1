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
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuda_runtime.h>

/* Checks the result of a CUDA runtime call, in the style of helper_cuda.h. */
#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t check_err_ = (call);                                           \
    if (check_err_ != cudaSuccess) {                                           \
      fprintf(stderr, "CUDA error at %s:%d code=%d(%s) \"%s\": %s\n",          \
              __FILE__, __LINE__, (int)check_err_,                             \
              cudaGetErrorName(check_err_), #call,                             \
              cudaGetErrorString(check_err_));                                 \
      printf("RESULT matmul FAIL %s\n", cudaGetErrorName(check_err_));         \
      exit(EXIT_FAILURE);                                                      \
    }                                                                          \
  } while (0)

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

/* A small deterministic generator, so that every run sees the same data. */
static unsigned lcg_state = 8086u;
static float random_float(float lo, float hi) {
  lcg_state = lcg_state * 1664525u + 1013904223u;
  return lo + (hi - lo) * (float)(lcg_state >> 8) / 16777216.0f;
}

int main(void) {
  const int m = 300, n = 250, k = 200;
  std::vector<float> A((size_t)m * k), B((size_t)k * n), expect((size_t)m * n),
      got((size_t)m * n);
  for (float &a : A)
    a = random_float(-1.0f, 1.0f);
  for (float &b : B)
    b = random_float(-1.0f, 1.0f);
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
  double max_err = 0.0;
  size_t bad = 0, first_bad = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    const double err = std::fabs((double)got[i] - (double)expect[i]);
    if (err > max_err)
      max_err = err;
    if (!(err <= 5e-4)) {
      if (!bad)
        first_bad = i;
      ++bad;
    }
  }
  if (bad) {
    printf("RESULT matmul FAIL %zu of %zu elements wrong, first C[%zu][%zu] "
           "(got %g, expected %g)\n",
           bad, got.size(), first_bad / n, first_bad % n, got[first_bad],
           expect[first_bad]);
    return 1;
  }
  printf("RESULT matmul PASS max abs err %g over %dx%d (k=%d)\n", max_err, m, n,
         k);
  return 0;
}
