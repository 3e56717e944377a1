// reduce_loop_tail.cu: block reductions whose last 32 partial sums are added
// by a loop with no barrier and no volatile (`for (; s > 0; s >>= 1) if (tid <
// s) sdata[tid] += sdata[tid + s];`), as dot products and norms in tutorials
// and libraries still write it. nvcc keeps the loop's loads and stores (the
// bound is not a constant), and the lanes of the converged warp make them
// together, so a GPU prints the right sum; run one lane after another, lane 0
// finishes the loop before lane 16 has added anything. Found by the public
// trial (a dot product that printed 7/64 of its sum).
#include <cstdio>
#include <vector>

#include <cuda_runtime.h>

#include "../check.cuh"

/* Through a pointer into the dynamic buffer, as a typed view of a byte
 * array. */
template <typename T>
__global__ void dot_tail(const T *x, const T *y, T *out, int n) {
  extern __shared__ unsigned char tail_smem[];
  T *sdata = reinterpret_cast<T *>(tail_smem);
  unsigned tid = threadIdx.x;
  T acc = 0;
  for (int i = blockIdx.x * blockDim.x + tid; i < n; i += blockDim.x * gridDim.x)
    acc += x[i] * y[i];
  sdata[tid] = acc;
  __syncthreads();
  unsigned s = blockDim.x / 2;
  for (; s > 32; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  for (; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}

/* A static __shared__ array, the tail bounded by the block size. */
__global__ void sum_static(const int *in, int *out) {
  __shared__ int part[256];
  unsigned t = threadIdx.x;
  part[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 32; s >>= 1) {
    if (t < s)
      part[t] += part[t + s];
    __syncthreads();
  }
  if (t < 32)
    for (unsigned s = blockDim.x < 64 ? blockDim.x / 2 : 32; s > 0; s >>= 1)
      part[t] += part[t + s];
  if (t == 0)
    out[blockIdx.x] = part[0];
}

/* The tail in a device function that gets the array as a parameter. */
__device__ void max_tail(float *m, unsigned t, unsigned width) {
  for (unsigned s = width / 2; s > 0; s >>= 1)
    if (t < s)
      m[t] = m[t] > m[t + s] ? m[t] : m[t + s];
}

__global__ void max_rows(const float *in, float *out) {
  extern __shared__ float rowmax[];
  unsigned t = threadIdx.x;
  rowmax[t] = in[blockIdx.x * 32 + t];
  __syncwarp();
  max_tail(rowmax, t, 32);
  if (t == 0)
    out[blockIdx.x] = rowmax[0];
}

/* Inclusive scans of each warp's 32 values, the lanes that have no partner
 * left dropping out: eight warps of steps on one static array, more than
 * libcuemu takes for a poll of one address (each step names its element). */
__global__ void warp_scans(const int *in, int *out, int width) {
  __shared__ int sums[256];
  unsigned t = threadIdx.x, lane = t % 32;
  sums[t] = in[t];
  __syncthreads();
  for (int d = 1; d < width; d *= 2)
    if (lane >= unsigned(d))
      sums[t] += sums[t - d];
  out[t] = sums[t];
}

/* The same through a volatile static array, which the lockstep pass steps
 * whatever the loop: its steps named the array, not the element, before. */
__global__ void warp_scans_volatile(const int *in, int *out, int width) {
  volatile __shared__ int vsums[256];
  unsigned t = threadIdx.x, lane = t % 32;
  vsums[t] = in[t];
  __syncthreads();
  for (int d = 1; d < width; d *= 2)
    if (lane >= unsigned(d))
      vsums[t] += vsums[t - d];
  out[t] = vsums[t];
}

template <typename T> static void run_dot(unsigned block, int n) {
  std::vector<T> x(n), y(n);
  for (int i = 0; i < n; ++i) {
    x[i] = T((i * 7) % 11 - 5);
    y[i] = T((i * 3) % 5 + 1);
  }
  T *dx, *dy, *dout;
  const unsigned blocks = 6;
  cudaMalloc(&dx, n * sizeof(T));
  cudaMalloc(&dy, n * sizeof(T));
  cudaMalloc(&dout, blocks * sizeof(T));
  cudaMemcpy(dx, x.data(), n * sizeof(T), cudaMemcpyHostToDevice);
  cudaMemcpy(dy, y.data(), n * sizeof(T), cudaMemcpyHostToDevice);
  dot_tail<T><<<blocks, block, block * sizeof(T)>>>(dx, dy, dout, n);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  std::vector<T> got(blocks);
  cudaMemcpy(got.data(), dout, blocks * sizeof(T), cudaMemcpyDeviceToHost);
  T total = 0, expected = 0;
  for (unsigned b = 0; b < blocks; ++b) total += got[b];
  for (int i = 0; i < n; ++i) expected += x[i] * y[i];
  if (total != expected)
    std::fprintf(stderr, "dot_tail (%zu-byte type, %u threads): %g, expected %g\n",
                 sizeof(T), block, (double)total, (double)expected);
  CHECK(total == expected);
  cudaFree(dx);
  cudaFree(dy);
  cudaFree(dout);
}

static void run_static(unsigned block) {
  const unsigned blocks = 5, n = blocks * block;
  std::vector<int> h(n);
  for (unsigned i = 0; i < n; ++i) h[i] = int((i * 13u) % 17u) - 8;
  int *in, *out;
  cudaMalloc(&in, n * sizeof(int));
  cudaMalloc(&out, blocks * sizeof(int));
  cudaMemcpy(in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  sum_static<<<blocks, block>>>(in, out);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  int got[blocks];
  cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost);
  for (unsigned b = 0; b < blocks; ++b) {
    int expected = 0;
    for (unsigned i = 0; i < block; ++i) expected += h[b * block + i];
    if (got[b] != expected)
      std::fprintf(stderr, "sum_static (%u threads) block %u: %d, expected %d\n",
                   block, b, got[b], expected);
    CHECK(got[b] == expected);
  }
  cudaFree(in);
  cudaFree(out);
}

static void run_max() {
  const unsigned rows = 4, n = rows * 32;
  std::vector<float> h(n);
  for (unsigned i = 0; i < n; ++i) h[i] = float((i * 29u) % 97u);
  float *in, *out;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, rows * sizeof(float));
  cudaMemcpy(in, h.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  max_rows<<<rows, 32, 32 * sizeof(float)>>>(in, out);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  float got[rows];
  cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost);
  for (unsigned r = 0; r < rows; ++r) {
    float expected = h[r * 32];
    for (unsigned i = 1; i < 32; ++i)
      expected = h[r * 32 + i] > expected ? h[r * 32 + i] : expected;
    if (got[r] != expected)
      std::fprintf(stderr, "max_rows row %u: %g, expected %g\n", r, got[r], expected);
    CHECK(got[r] == expected);
  }
  cudaFree(in);
  cudaFree(out);
}

static void run_scans() {
  int h[256], got[256], *in, *out;
  for (int i = 0; i < 256; ++i) h[i] = (i * 5) % 9 - 3;
  cudaMalloc(&in, sizeof h);
  cudaMalloc(&out, sizeof h);
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  for (int with_volatile = 0; with_volatile < 2; ++with_volatile) {
    if (with_volatile)
      warp_scans_volatile<<<1, 256>>>(in, out, 32);
    else
      warp_scans<<<1, 256>>>(in, out, 32);
    CHECK(cudaDeviceSynchronize() == cudaSuccess);
    cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost);
    int wrong = 0;
    for (int w = 0; w < 8; ++w)
      for (int l = 0, acc = 0; l < 32; ++l) {
        acc += h[w * 32 + l];
        wrong += got[w * 32 + l] != acc;
      }
    if (wrong)
      std::fprintf(stderr, "warp_scans%s: %d of 256 sums wrong\n",
                   with_volatile ? "_volatile" : "", wrong);
    CHECK(wrong == 0);
  }
  cudaFree(in);
  cudaFree(out);
}

int main() {
  run_dot<double>(64, 10001);
  run_dot<float>(128, 4099);
  run_dot<int>(256, 3000);
  run_static(64);
  run_static(256);
  run_max();
  run_scans();
  return finish();
}
