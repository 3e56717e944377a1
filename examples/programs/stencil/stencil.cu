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
#include <vector>

#define EXAMPLE_NAME "stencil"
#include "../common/example.cuh"

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

int main(void) {
  example_seed(31337u);
  const int n = (1 << 20) + 123;
  const float weights[2 * RADIUS + 1] = {0.05f, 0.1f, 0.2f, 0.3f,
                                         0.2f,  0.1f, 0.05f};
  std::vector<float> in(n), expect(n), got(n);
  /* A noisy sine wave, as a smoothing filter would see. */
  for (int i = 0; i < n; ++i)
    in[i] = std::sin(i * 0.001f) + example_random_float(-0.1f, 0.1f);
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
  const example_mismatches r =
      example_compare(got.data(), expect.data(), n, 1e-5);
  if (r.bad)
    return example_fail("%zu of %d elements wrong, first at %zu (got %g, "
                        "expected %g)",
                        r.bad, n, r.first_bad, got[r.first_bad],
                        expect[r.first_bad]);
  return example_pass("max abs err %g over %d elements, %zu B dynamic shared",
                      r.max_err, n, shmem);
}
