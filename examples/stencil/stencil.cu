/*
 * stencil: a 7-point weighted moving average over a million floats.
 *
 * Each output is out[i] = sum over k in [-RADIUS, RADIUS] of w[k] * in[i+k],
 * with in[] taken as zero outside the array. A block first copies its
 * blockDim.x elements plus RADIUS halo cells on each side into shared
 * memory, waits at a barrier, and then computes every output from shared
 * memory. The shared array is declared `extern __shared__` and its size is
 * chosen at launch, from the block size, through the third launch
 * parameter.
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
      printf("RESULT stencil FAIL %s\n", cudaGetErrorName(check_err_));        \
      exit(EXIT_FAILURE);                                                      \
    }                                                                          \
  } while (0)

#define RADIUS 3

__global__ void stencil(const float *__restrict__ in, float *__restrict__ out,
                        const float *__restrict__ weights, int n) {
  extern __shared__ float window[]; /* blockDim.x + 2 * RADIUS floats */
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int s = threadIdx.x + RADIUS;
  window[s] = i < n ? in[i] : 0.0f;
  if (threadIdx.x < RADIUS) {
    const int left = i - RADIUS, right = i + blockDim.x;
    window[threadIdx.x] = left >= 0 && left < n ? in[left] : 0.0f;
    window[s + blockDim.x] = right < n ? in[right] : 0.0f;
  }
  __syncthreads();
  if (i < n) {
    float sum = 0.0f;
    for (int k = -RADIUS; k <= RADIUS; ++k)
      sum += weights[k + RADIUS] * window[s + k];
    out[i] = sum;
  }
}

static void stencil_host(const float *in, float *out, const float *weights,
                         int n) {
  for (int i = 0; i < n; ++i) {
    float sum = 0.0f;
    for (int k = -RADIUS; k <= RADIUS; ++k) {
      const int j = i + k;
      sum += weights[k + RADIUS] * (j >= 0 && j < n ? in[j] : 0.0f);
    }
    out[i] = sum;
  }
}

/* A small deterministic generator, so that every run sees the same data. */
static unsigned lcg_state = 31337u;
static float random_float(float lo, float hi) {
  lcg_state = lcg_state * 1664525u + 1013904223u;
  return lo + (hi - lo) * (float)(lcg_state >> 8) / 16777216.0f;
}

int main(void) {
  const int n = (1 << 20) + 123;
  const float weights[2 * RADIUS + 1] = {0.05f, 0.1f, 0.2f, 0.3f,
                                         0.2f,  0.1f, 0.05f};
  std::vector<float> in(n), expect(n), got(n);
  /* A noisy sine wave, as a smoothing filter would see. */
  for (int i = 0; i < n; ++i)
    in[i] = std::sin(i * 0.001f) + random_float(-0.1f, 0.1f);
  stencil_host(in.data(), expect.data(), weights, n);

  float *d_in = nullptr, *d_out = nullptr, *d_weights = nullptr;
  CHECK(cudaMalloc(&d_in, n * sizeof(float)));
  CHECK(cudaMalloc(&d_out, n * sizeof(float)));
  CHECK(cudaMalloc(&d_weights, sizeof weights));
  CHECK(cudaMemcpy(d_in, in.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_weights, weights, sizeof weights, cudaMemcpyHostToDevice));

  const int block = 256;
  const int grid = (n + block - 1) / block;
  const size_t shmem = (block + 2 * RADIUS) * sizeof(float);
  stencil<<<grid, block, shmem>>>(d_in, d_out, d_weights, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());

  CHECK(
      cudaMemcpy(got.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_out));
  CHECK(cudaFree(d_weights));

  /* A GPU may fuse the multiply-adds, so allow a few roundings. */
  double max_err = 0.0;
  int bad = 0, first_bad = -1;
  for (int i = 0; i < n; ++i) {
    const double err = std::fabs((double)got[i] - (double)expect[i]);
    if (err > max_err)
      max_err = err;
    if (!(err <= 1e-5)) {
      if (first_bad < 0)
        first_bad = i;
      ++bad;
    }
  }
  if (bad) {
    printf("RESULT stencil FAIL %d of %d elements wrong, first at %d (got %g, "
           "expected %g)\n",
           bad, n, first_bad, got[first_bad], expect[first_bad]);
    return 1;
  }
  printf("RESULT stencil PASS max abs err %g over %d elements, %zu B dynamic "
         "shared\n",
         max_err, n, shmem);
  return 0;
}
