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
  test_block_reduce<long long, cuda::maximum<>, 16, 6, 1, ALG>(name, max_op, 0LL); /* 2D */
  test_block_reduce<unsigned long long, cuda::minimum<>, 8, 5, 3, ALG>(
      name, cuda::minimum<>{}, 0ULL); /* 3D, 120 threads */
  test_block_reduce<double, cuda::maximum<>, 1024, 1, 1, ALG>(name, max_op, 0.0);
  test_block_reduce<int, cuda::maximum<>, 7, 1, 1, ALG>(name, max_op, 0);
  test_block_reduce<Triple, TripleOp, 33, 2, 1, ALG>(name, TripleOp{}, Triple{});
}

/* ---- BlockScan ----------------------------------------------------------- */

/* A running prefix over the tiles a block scans one after the other. */
template <typename T> struct RunningPrefix {
  T total;
  __device__ T operator()(T block_aggregate) {
    T old = total;
    total = total + block_aggregate;
    return old;
  }
};

/* Per thread: InclusiveSum with the block's aggregate, ExclusiveScan with
 * `op` and `init`, InclusiveScan with `op`; then ExclusiveSum of ITEMS
 * items per thread over `tiles` tiles with a running prefix. */
template <typename T, typename Op, int BX, int BY, int BZ, cub::BlockScanAlgorithm ALG,
          int ITEMS>
__global__ void block_scan(const T *in, T *incl, T *excl, T *incl_op, T *agg, const T *tiles_in,
                           T *tiles_out, int tiles, Op op, T init) {
  using BS = cub::BlockScan<T, BX, ALG, BY, BZ>;
  __shared__ typename BS::TempStorage tmp;
  constexpr int threads = BX * BY * BZ;
  const int t = threadIdx.x + BX * (threadIdx.y + BY * threadIdx.z);
  const int g = blockIdx.x * threads + t;
  T x = in[g], y, aggregate;
  BS(tmp).InclusiveSum(x, y, aggregate);
  incl[g] = y;
  if (t == threads - 1) agg[blockIdx.x] = aggregate;
  __syncthreads();
  BS(tmp).ExclusiveScan(x, y, init, op);
  excl[g] = y;
  __syncthreads();
  BS(tmp).InclusiveScan(x, y, op);
  incl_op[g] = y;
  RunningPrefix<T> prefix{T{}};
  const size_t base = (size_t)blockIdx.x * tiles * threads * ITEMS;
  for (int k = 0; k < tiles; ++k) {
    T items[ITEMS];
    for (int i = 0; i < ITEMS; ++i) items[i] = tiles_in[base + (k * threads + t) * ITEMS + i];
    __syncthreads();
    BS(tmp).ExclusiveSum(items, items, prefix);
    for (int i = 0; i < ITEMS; ++i) tiles_out[base + (k * threads + t) * ITEMS + i] = items[i];
  }
}

template <typename T, typename Op, int BX, int BY, int BZ, cub::BlockScanAlgorithm ALG>
void test_block_scan(const char *what, Op op, T init) {
  constexpr int threads = BX * BY * BZ, items = 3, blocks = 2, tiles = 3;
  const int n = blocks * threads, nt = blocks * tiles * threads * items;
  std::vector<T> h = inputs<T>(n, threads + ALG), ht = inputs<T>(nt, 7 + ALG);
  T *in = to_device(h), *tin = to_device(ht), *incl, *excl, *incl_op, *agg, *tout;
  cudaMalloc(&incl, n * sizeof(T));
  cudaMalloc(&excl, n * sizeof(T));
  cudaMalloc(&incl_op, n * sizeof(T));
  cudaMalloc(&agg, blocks * sizeof(T));
  cudaMalloc(&tout, nt * sizeof(T));
  block_scan<T, Op, BX, BY, BZ, ALG, items><<<blocks, dim3(BX, BY, BZ)>>>(
      in, incl, excl, incl_op, agg, tin, tout, tiles, op, init);
  CHECK_LAUNCH();
  std::vector<T> gi = to_host(incl, n), ge = to_host(excl, n), go = to_host(incl_op, n),
                 ga = to_host(agg, blocks), gt = to_host(tout, nt);
  int bad = 0;
  for (int b = 0; b < blocks; ++b) {
    T sum{}, ex = init, inop{};
    for (int t = 0; t < threads; ++t) {
      const int g = b * threads + t;
      sum = sum + h[g];
      inop = t ? op(inop, h[g]) : h[g];
      bad += !(gi[g] == sum) + !(ge[g] == ex) + !(go[g] == inop);
      ex = op(ex, h[g]);
    }
    bad += !(ga[b] == sum);
    T run{};
    for (int i = 0; i < tiles * threads * items; ++i) {
      const size_t k = (size_t)b * tiles * threads * items + i;
      bad += !(gt[k] == run);
      run = run + ht[k];
    }
  }
  if (bad) std::fprintf(stderr, "BlockScan %s: %d wrong results\n", what, bad);
  CHECK(bad == 0);
  cudaFree(in);
  cudaFree(tin);
  cudaFree(incl);
  cudaFree(excl);
  cudaFree(incl_op);
  cudaFree(agg);
  cudaFree(tout);
}

template <cub::BlockScanAlgorithm ALG> void block_scan_all(const char *name) {
  cuda::maximum<> max_op;
  test_block_scan<int, cuda::maximum<>, 128, 1, 1, ALG>(name, max_op, -5000);
  test_block_scan<long long, cuda::minimum<>, 16, 6, 1, ALG>(name, cuda::minimum<>{},
                                                              1LL << 62);
  test_block_scan<unsigned long long, cuda::maximum<>, 8, 5, 3, ALG>(name, max_op, 0ULL);
  test_block_scan<double, cuda::maximum<>, 64, 1, 1, ALG>(name, max_op, -1e9);
  test_block_scan<int, cuda::maximum<>, 7, 1, 1, ALG>(name, max_op, -5000);
  test_block_scan<Triple, TripleOp, 20, 3, 2, ALG>(name, TripleOp{}, Triple{});
}

/* ---- WarpReduce and WarpScan ---------------------------------------------- */

template <typename T, int LOGICAL, int THREADS>
__global__ void warp_ops(const T *in, T *sum, T *sum_valid, T *max, T *seg, T *incl, T *excl,
                         T *excl_max, T *bcast, T *wagg) {
  using WR = cub::WarpReduce<T, LOGICAL>;
  using WS = cub::WarpScan<T, LOGICAL>;
  constexpr int warps = THREADS / LOGICAL;
  __shared__ typename WR::TempStorage rtmp[warps];
  __shared__ typename WS::TempStorage stmp[warps];
  const int t = threadIdx.x, w = t / LOGICAL, lane = t % LOGICAL;
  const int g = blockIdx.x * THREADS + t;
  T x = in[g];
  T r = WR(rtmp[w]).Sum(x);
  if (lane == 0) sum[blockIdx.x * warps + w] = r;
  r = WR(rtmp[w]).Sum(x, LOGICAL / 2 + 1);
  if (lane == 0) sum_valid[blockIdx.x * warps + w] = r;
  r = WR(rtmp[w]).Reduce(x, cuda::maximum<>{});
  if (lane == 0) max[blockIdx.x * warps + w] = r;
  /* Segments start where the lane is a multiple of 5. */
  r = WR(rtmp[w]).HeadSegmentedSum(x, lane % 5 == 0);
  if (lane % 5 == 0) seg[g] = r;
  T y, aggregate;
  WS(stmp[w]).InclusiveSum(x, y);
  incl[g] = y;
  WS(stmp[w]).ExclusiveSum(x, y, aggregate);
  excl[g] = y;
  wagg[g] = aggregate;
  WS(stmp[w]).ExclusiveScan(x, y, T(-5000), cuda::maximum<>{});
  excl_max[g] = y;
  bcast[g] = WS(stmp[w]).Broadcast(x, LOGICAL - 2);
}

template <typename T, int LOGICAL, int THREADS> void test_warp_ops() {
  constexpr int blocks = 2, warps = THREADS / LOGICAL, n = blocks * THREADS;
  std::vector<T> h = inputs<T>(n, LOGICAL);
  T *in = to_device(h), *d[10];
  for (int k = 0; k < 10; ++k) {
    cudaMalloc(&d[k], n * sizeof(T));
    cudaMemset(d[k], 0, n * sizeof(T));
  }
  warp_ops<T, LOGICAL, THREADS><<<blocks, THREADS>>>(in, d[0], d[1], d[2], d[3], d[4], d[5],
                                                     d[6], d[7], d[8]);
  CHECK_LAUNCH();
  std::vector<T> g[10];
  for (int k = 0; k < 9; ++k) g[k] = to_host(d[k], n);
  int bad = 0;
  for (int wi = 0; wi < blocks * warps; ++wi) {
    const T *x = h.data() + wi * LOGICAL;
    T sum{}, sum_valid{}, mx = x[0], run{}, ex = T(-5000);
    for (int l = 0; l < LOGICAL; ++l) {
      sum = sum + x[l];
      if (l < LOGICAL / 2 + 1) sum_valid = sum_valid + x[l];
      mx = mx > x[l] ? mx : x[l];
    }
    bad += !(g[0][wi] == sum) + !(g[1][wi] == sum_valid) + !(g[2][wi] == mx);
    for (int l = 0; l < LOGICAL; ++l) {
      const int k = wi * LOGICAL + l;
      bad += !(g[5][k] == run) + !(g[8][k] == sum) + !(g[6][k] == ex) +
             !(g[7][k] == x[LOGICAL - 2]);
      run = run + x[l];
      ex = ex > x[l] ? ex : x[l];
      bad += !(g[4][k] == run);
      if (l % 5 == 0) {
        T s{};
        for (int j = l; j < LOGICAL && (j == l || j % 5 != 0); ++j) s = s + x[j];
        bad += !(g[3][k] == s);
      }
    }
  }
  if (bad) std::fprintf(stderr, "WarpReduce/WarpScan <%d>: %d wrong results\n", LOGICAL, bad);
  CHECK(bad == 0);
  cudaFree(in);
  for (int k = 0; k < 10; ++k) cudaFree(d[k]);
}

int main() {
  block_reduce_all<cub::BLOCK_REDUCE_RAKING>("raking");
  block_reduce_all<cub::BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY>("raking commutative only");
  block_reduce_all<cub::BLOCK_REDUCE_WARP_REDUCTIONS>("warp reductions");
  block_scan_all<cub::BLOCK_SCAN_RAKING>("raking");
  block_scan_all<cub::BLOCK_SCAN_RAKING_MEMOIZE>("raking memoize");
  block_scan_all<cub::BLOCK_SCAN_WARP_SCANS>("warp scans");
  test_warp_ops<int, 32, 96>();
  test_warp_ops<long long, 16, 64>();
  test_warp_ops<double, 8, 64>();
  test_warp_ops<unsigned, 32, 32>();
  return finish();
}
