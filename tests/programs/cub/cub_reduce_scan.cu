/*
 * cub_reduce_scan.cu: cub::BlockReduce, cub::BlockScan, cub::WarpReduce
 * and cub::WarpScan from the toolkit's CUB, in every algorithm, against
 * host references: int, 64-bit and double values and a custom struct;
 * blocks of whole and partial warps, 2D and 3D; items per thread; partial
 * tiles (num_valid); scans with aggregates and a running prefix callback
 * over several tiles; logical warps of 32, 16 and 8 lanes.
 */
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/warp/warp_reduce.cuh>
#include <cub/warp/warp_scan.cuh>
#include <cuda/functional>

#include "cub_test.cuh"

/* ---- BlockReduce --------------------------------------------------------- */

/* out[block * 4 + 0..3]: Sum of one item, Reduce with `op` of one item,
 * Sum of ITEMS items, Sum of the first `valid` threads' items. */
template <typename T, typename Op, int BX, int BY, int BZ, cub::BlockReduceAlgorithm ALG,
          int ITEMS>
__global__ void block_reduce(const T *in, T *out, int valid, Op op) {
  using BR = cub::BlockReduce<T, BX, ALG, BY, BZ>;
  __shared__ typename BR::TempStorage tmp;
  constexpr int threads = BX * BY * BZ;
  const int t = threadIdx.x + BX * (threadIdx.y + BY * threadIdx.z);
  const T *tile = in + blockIdx.x * threads * ITEMS;
  T one = tile[t];
  T r0 = BR(tmp).Sum(one);
  __syncthreads();
  T r1 = BR(tmp).Reduce(one, op);
  __syncthreads();
  T items[ITEMS];
  for (int i = 0; i < ITEMS; ++i) items[i] = tile[t * ITEMS + i];
  T r2 = BR(tmp).Sum(items);
  __syncthreads();
  T r3 = BR(tmp).Sum(one, valid);
  if (t == 0) {
    out[blockIdx.x * 4 + 0] = r0;
    out[blockIdx.x * 4 + 1] = r1;
    out[blockIdx.x * 4 + 2] = r2;
    out[blockIdx.x * 4 + 3] = r3;
  }
}

template <typename T, typename Op, int BX, int BY, int BZ, cub::BlockReduceAlgorithm ALG>
void test_block_reduce(const char *what, Op op, T zero) {
  constexpr int threads = BX * BY * BZ, items = 4, blocks = 3;
  const int valid = threads * 2 / 3 + 1;
  std::vector<T> h = inputs<T>(blocks * threads * items, threads + ALG);
  T *in = to_device(h), *out = nullptr;
  cudaMalloc(&out, blocks * 4 * sizeof(T));
  block_reduce<T, Op, BX, BY, BZ, ALG, items><<<blocks, dim3(BX, BY, BZ)>>>(in, out, valid, op);
  CHECK_LAUNCH();
  std::vector<T> got = to_host(out, blocks * 4);
  int bad = 0;
  for (int b = 0; b < blocks; ++b) {
    const T *tile = h.data() + b * threads * items;
    T sum = zero, red = tile[0], sum_items = zero, sum_valid = zero;
    for (int t = 0; t < threads; ++t) {
      sum = cuda::std::plus<>()(sum, tile[t]);
      if (t) red = op(red, tile[t]);
      if (t < valid) sum_valid = cuda::std::plus<>()(sum_valid, tile[t]);
    }
    for (int i = 0; i < threads * items; ++i) sum_items = cuda::std::plus<>()(sum_items, tile[i]);
    bad += !(got[b * 4 + 0] == sum) + !(got[b * 4 + 1] == red) +
           !(got[b * 4 + 2] == sum_items) + !(got[b * 4 + 3] == sum_valid);
  }
  if (bad) std::fprintf(stderr, "BlockReduce %s: %d wrong results\n", what, bad);
  CHECK(bad == 0);
  cudaFree(in);
  cudaFree(out);
}


template <cub::BlockReduceAlgorithm ALG> void block_reduce_all(const char *name) {
  cuda::maximum<> max_op;
  test_block_reduce<int, cuda::maximum<>, 128, 1, 1, ALG>(name, max_op, 0);
  test_block_reduce<int, cuda::maximum<>, 100, 1, 1, ALG>(name, max_op, 0); /* partial warp */
  test_block_reduce<long long, cuda::maximum<>, 16, 6, 1, ALG>(name, max_op, 0LL); /* 2D */
  test_block_reduce<unsigned long long, cuda::minimum<>, 8, 5, 3, ALG>(
      name, cuda::minimum<>{}, 0ULL); /* 3D, 120 threads */
  test_block_reduce<double, cuda::maximum<>, 64, 1, 1, ALG>(name, max_op, 0.0);
  test_block_reduce<int, cuda::maximum<>, 1024, 1, 1, ALG>(name, max_op, 0);
  test_block_reduce<int, cuda::maximum<>, 7, 1, 1, ALG>(name, max_op, 0);
}

int main() {
  block_reduce_all<cub::BLOCK_REDUCE_RAKING>("raking");
  block_reduce_all<cub::BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY>("raking commutative only");
  block_reduce_all<cub::BLOCK_REDUCE_WARP_REDUCTIONS>("warp reductions");
  return finish();
}
