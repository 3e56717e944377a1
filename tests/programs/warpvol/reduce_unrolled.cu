// reduce_unrolled.cu: NVIDIA-style reductions whose last warp is unrolled
// through a volatile pointer without __syncwarp() (warp_reduce.cuh), for
// several block sizes and element types, against a host sum. Run one lane
// after another, the unrolled steps read words the other lanes have not
// written yet; the lanes of a warp must advance together, as on a GPU.
#include <cstdio>
#include <vector>

#include <cuda_runtime.h>

#include "../check.cuh"
#include "warp_reduce.cuh"

/* Small integers, so that float and double sums are exact. */
template <typename T> static T value_at(unsigned i) {
  return T(int((i * 7u + 3u) % 13u) - 6 + int(i % 5u));
}

template <typename T> static T host_sum(const std::vector<T> &v, unsigned lo,
                                        unsigned hi) {
  T s = 0;
  for (unsigned i = lo; i < hi && i < v.size(); ++i) s += v[i];
  return s;
}

/* One launch of reduce4 and one of reduce6, per block size, checked block
 * by block (reduce4) and as a whole (reduce6). */
template <unsigned blockSize, typename T> static void run(unsigned n) {
  std::vector<T> h(n);
  for (unsigned i = 0; i < n; ++i) h[i] = value_at<T>(i);
  unsigned blocks = (n + blockSize * 2 - 1) / (blockSize * 2);
  T *in, *out;
  cudaMalloc(&in, n * sizeof(T));
  cudaMalloc(&out, blocks * sizeof(T));
  cudaMemcpy(in, h.data(), n * sizeof(T), cudaMemcpyHostToDevice);

  reduce4<blockSize, T><<<blocks, blockSize, blockSize * sizeof(T)>>>(in, out, n);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  std::vector<T> partial(blocks);
  cudaMemcpy(partial.data(), out, blocks * sizeof(T), cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (unsigned b = 0; b < blocks; ++b)
    wrong += partial[b] != host_sum(h, b * blockSize * 2, (b + 1) * blockSize * 2);
  if (wrong)
    std::fprintf(stderr, "reduce4<%u> (%zu-byte type): %d of %u blocks wrong\n",
                 blockSize, sizeof(T), wrong, blocks);
  CHECK(wrong == 0);

  /* Four blocks, each striding over the whole input. */
  reduce6<blockSize, T><<<4, blockSize>>>(in, out, n);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  T four[4];
  cudaMemcpy(four, out, sizeof four, cudaMemcpyDeviceToHost);
  T total = four[0] + four[1] + four[2] + four[3];
  if (total != host_sum(h, 0, n))
    std::fprintf(stderr, "reduce6<%u> (%zu-byte type): %g, expected %g\n",
                 blockSize, sizeof(T), (double)total, (double)host_sum(h, 0, n));
  CHECK(total == host_sum(h, 0, n));
  cudaFree(in);
  cudaFree(out);
}

/* The block maximum and where it first occurs. */
static void run_argmax() {
  const unsigned blockSize = 128, blocks = 6, n = blockSize * blocks;
  std::vector<float> h(n);
  for (unsigned i = 0; i < n; ++i) h[i] = float((i * 37u) % 101u);
  float *in, *best;
  int *where;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&best, blocks * sizeof(float));
  cudaMalloc(&where, blocks * sizeof(int));
  cudaMemcpy(in, h.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  argmax_block<blockSize><<<blocks, blockSize>>>(in, best, where);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  float hb[blocks];
  int hw[blocks];
  cudaMemcpy(hb, best, sizeof hb, cudaMemcpyDeviceToHost);
  cudaMemcpy(hw, where, sizeof hw, cudaMemcpyDeviceToHost);
  for (unsigned b = 0; b < blocks; ++b) {
    unsigned at = b * blockSize;
    for (unsigned i = at; i < (b + 1) * blockSize; ++i)
      if (h[i] > h[at]) at = i;
    CHECK(hb[b] == h[at]);
    CHECK(hw[b] == (int)at);
  }
  cudaFree(in);
  cudaFree(best);
  cudaFree(where);
}

int main() {
  run<64, int>(1000);
  run<128, float>(3000);
  run<256, double>(5000);
  run<512, int>(9000);
  run<128, unsigned long long>(2500);
  run_argmax();
  return finish();
}
