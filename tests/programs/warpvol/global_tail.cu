// global_tail.cu: warp-synchronous code through a volatile pointer into
// global memory, without __syncwarp(): a reduction that works in place in
// its input array and finishes its last warp unrolled (as older textbooks
// teach before they move the data to shared memory), and a warp scan over
// a global array. A GPU's warp makes each volatile load and store of the
// tail together; run one lane after another, lane 0 would add words that
// its warp-mates have not summed yet and print a wrong total.
#include <cstdio>
#include <vector>

#include <cuda_runtime.h>

#include "../check.cuh"

/* Each block sums its blockDim.x elements of `data` in place: halving
 * steps with barriers down to 64 elements, then the last warp unrolled
 * through a volatile view of the global array. */
template <typename T>
__global__ void reduce_in_place(T *data, T *sums) {
  unsigned tid = threadIdx.x;
  T *mine = data + blockIdx.x * blockDim.x;
  for (unsigned stride = blockDim.x / 2; stride > 32; stride >>= 1) {
    if (tid < stride) mine[tid] += mine[tid + stride];
    __syncthreads();
  }
  if (tid < 32) {
    volatile T *v = mine;
    v[tid] += v[tid + 32];
    v[tid] += v[tid + 16];
    v[tid] += v[tid + 8];
    v[tid] += v[tid + 4];
    v[tid] += v[tid + 2];
    v[tid] += v[tid + 1];
  }
  if (tid == 0) sums[blockIdx.x] = mine[0];
}

/* An inclusive scan of each warp's 32 elements of `data`, in place, with
 * lane-guarded steps. */
__global__ void warp_scan_in_place(int *data) {
  unsigned lane = threadIdx.x % 32;
  volatile int *v = data + blockIdx.x * blockDim.x + threadIdx.x;
  if (lane >= 1) v[0] = v[-1] + v[0];
  if (lane >= 2) v[0] = v[-2] + v[0];
  if (lane >= 4) v[0] = v[-4] + v[0];
  if (lane >= 8) v[0] = v[-8] + v[0];
  if (lane >= 16) v[0] = v[-16] + v[0];
}

template <typename T> static void run_reduce(unsigned block, unsigned blocks) {
  unsigned n = block * blocks;
  std::vector<T> h(n);
  for (unsigned i = 0; i < n; ++i) h[i] = T(int((i * 5u + 1u) % 11u) - 3);
  T *data, *sums;
  cudaMalloc(&data, n * sizeof(T));
  cudaMalloc(&sums, blocks * sizeof(T));
  cudaMemcpy(data, h.data(), n * sizeof(T), cudaMemcpyHostToDevice);
  reduce_in_place<T><<<blocks, block>>>(data, sums);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  std::vector<T> got(blocks);
  cudaMemcpy(got.data(), sums, blocks * sizeof(T), cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (unsigned b = 0; b < blocks; ++b) {
    T want = 0;
    for (unsigned i = b * block; i < (b + 1) * block; ++i) want += h[i];
    if (got[b] != want && !wrong++)
      std::fprintf(stderr, "reduce_in_place (block %u, %zu-byte type): "
                   "block %u sums to %g, expected %g\n", block, sizeof(T), b,
                   (double)got[b], (double)want);
  }
  CHECK(wrong == 0);
  cudaFree(data);
  cudaFree(sums);
}

static void run_scan() {
  const unsigned block = 128, blocks = 3, n = block * blocks;
  std::vector<int> h(n);
  for (unsigned i = 0; i < n; ++i) h[i] = int(i % 7u) + 1;
  int *data;
  cudaMalloc(&data, n * sizeof(int));
  cudaMemcpy(data, h.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  warp_scan_in_place<<<blocks, block>>>(data);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  std::vector<int> got(n);
  cudaMemcpy(got.data(), data, n * sizeof(int), cudaMemcpyDeviceToHost);
  int wrong = 0, sum = 0;
  for (unsigned i = 0; i < n; ++i) {
    sum = (i % 32 == 0 ? 0 : sum) + h[i];
    wrong += got[i] != sum;
  }
  if (wrong)
    std::fprintf(stderr, "warp_scan_in_place: %d of %u elements wrong\n",
                 wrong, n);
  CHECK(wrong == 0);
  cudaFree(data);
}

int main() {
  run_reduce<int>(512, 16);
  run_reduce<int>(64, 5);
  run_reduce<float>(256, 6);
  run_scan();
  return finish();
}
