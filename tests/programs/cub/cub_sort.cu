/*
 * cub_sort.cu: the sorting and counting primitives of the toolkit's CUB
 * against host references (std::sort, std::stable_sort, counts):
 * cub::BlockRadixSort (keys and key-value pairs, ascending, descending,
 * a bit range, blocked-to-striped; int, unsigned 64-bit and float keys),
 * cub::BlockRadixRank, cub::BlockHistogram (both algorithms),
 * cub::BlockMergeSort (a custom struct and comparator, stable pairs, a
 * partial tile; power-of-two blocks, as it requires) and cub::WarpMergeSort; 1D and 2D blocks, partial warps.
 */
#include <algorithm>
#include <numeric>

#include <cub/block/block_histogram.cuh>
#include <cub/block/block_merge_sort.cuh>
#include <cub/block/block_radix_rank.cuh>
#include <cub/block/block_radix_sort.cuh>
#include <cub/warp/warp_merge_sort.cuh>

#include "cub_test.cuh"

/* ---- BlockRadixSort ------------------------------------------------------- */

/* mode 0: Sort keys with their index as value (blocked out); 1:
 * SortDescending keys only; 2: Sort of bits [4, 12) only; 3:
 * SortBlockedToStriped (striped out). */
template <typename K, int BX, int BY, int ITEMS>
__global__ void radix_sort(const K *in, K *keys_out, int *values_out, int mode) {
  using RS = cub::BlockRadixSort<K, BX, ITEMS, int, 4, true, cub::BLOCK_SCAN_WARP_SCANS,
                                 cudaSharedMemBankSizeFourByte, BY>;
  __shared__ typename RS::TempStorage tmp;
  constexpr int threads = BX * BY, tile = threads * ITEMS;
  const int t = linear_tid();
  K keys[ITEMS];
  int values[ITEMS];
  for (int i = 0; i < ITEMS; ++i) {
    keys[i] = in[blockIdx.x * tile + t * ITEMS + i];
    values[i] = t * ITEMS + i;
  }
  if (mode == 0) RS(tmp).Sort(keys, values);
  if (mode == 1) RS(tmp).SortDescending(keys, values);
  if (mode == 2) RS(tmp).Sort(keys, values, 4, 12);
  if (mode == 3) RS(tmp).SortBlockedToStriped(keys, values);
  for (int i = 0; i < ITEMS; ++i) {
    const int p = mode == 3 ? i * threads + t : t * ITEMS + i;
    keys_out[blockIdx.x * tile + p] = keys[i];
    values_out[blockIdx.x * tile + p] = values[i];
  }
}

/* The bits a radix sort orders by (CUB's bit-twiddled order: signed and
 * floating-point keys are flipped so that unsigned order is value order;
 * -0.0 counts as +0.0, as CUB documents). */
template <typename K> unsigned long long radix_bits(K k) {
  unsigned long long u = 0;
  std::memcpy(&u, &k, sizeof k);
  const unsigned long long top = 1ULL << (sizeof(K) * 8 - 1);
  if (std::is_floating_point<K>::value && u == top) u = 0;
  if (std::is_floating_point<K>::value)
    u = (u & top) ? ~u & (top | (top - 1)) : u | top;
  else if (std::is_signed<K>::value)
    u ^= top;
  return u;
}

template <typename K, int BX, int BY> void test_radix_sort(const char *what) {
  constexpr int items = 5, blocks = 2, tile = BX * BY * items, n = blocks * tile;
  std::vector<K> h = inputs<K>(n, BX);
  if (std::is_floating_point<K>::value) /* -0.0 and +0.0 are equal keys */
    h[3] = K(-0.0), h[4] = K(0.0), h[5] = K(-0.0);
  K *in = to_device(h), *keys;
  int *values;
  cudaMalloc(&keys, n * sizeof(K));
  cudaMalloc(&values, n * sizeof(int));
  int bad = 0;
  for (int mode = 0; mode < 4; ++mode) {
    radix_sort<K, BX, BY, items><<<blocks, dim3(BX, BY)>>>(in, keys, values, mode);
    CHECK_LAUNCH();
    std::vector<K> gk = to_host(keys, n);
    std::vector<int> gv = to_host(values, n);
    for (int b = 0; b < blocks; ++b) {
      std::vector<int> order(tile);
      std::iota(order.begin(), order.end(), 0);
      const K *x = h.data() + b * tile;
      auto bits = [&](int i) {
        unsigned long long u = radix_bits(x[i]);
        return mode == 2 ? (u >> 4) & 0xff : u;
      };
      if (mode == 1)
        std::stable_sort(order.begin(), order.end(), [&](int i, int j) { return bits(i) > bits(j); });
      else
        std::stable_sort(order.begin(), order.end(), [&](int i, int j) { return bits(i) < bits(j); });
      for (int p = 0; p < tile; ++p) {
        bad += radix_bits(gk[b * tile + p]) != radix_bits(x[order[p]]);
        bad += gv[b * tile + p] != order[p];
      }
    }
  }
  if (bad) std::fprintf(stderr, "BlockRadixSort %s: %d wrong\n", what, bad);
  CHECK(bad == 0);
  cudaFree(in);
  cudaFree(keys);
  cudaFree(values);
}

/* ---- BlockRadixRank --------------------------------------------------------- */

template <int THREADS, int ITEMS, int BITS, bool DESCENDING>
__global__ void radix_rank(const unsigned *in, int *ranks_out) {
  using RR = cub::BlockRadixRank<THREADS, BITS, DESCENDING>;
  __shared__ typename RR::TempStorage tmp;
  unsigned keys[ITEMS];
  int ranks[ITEMS];
  for (int i = 0; i < ITEMS; ++i) keys[i] = in[threadIdx.x * ITEMS + i];
  cub::BFEDigitExtractor<unsigned> extractor(3, BITS);
  RR(tmp).RankKeys(keys, ranks, extractor);
  for (int i = 0; i < ITEMS; ++i) ranks_out[threadIdx.x * ITEMS + i] = ranks[i];
}

template <int THREADS, bool DESCENDING> void test_radix_rank() {
  constexpr int items = 3, bits = 5, n = THREADS * items;
  std::vector<unsigned> h = inputs<unsigned>(n, THREADS);
  unsigned *in = to_device(h);
  int *ranks;
  cudaMalloc(&ranks, n * sizeof(int));
  radix_rank<THREADS, items, bits, DESCENDING><<<1, THREADS>>>(in, ranks);
  CHECK_LAUNCH();
  std::vector<int> g = to_host(ranks, n);
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    const unsigned d = (h[i] >> 3) & 31;
    int rank = 0;
    for (int j = 0; j < n; ++j) {
      const unsigned e = (h[j] >> 3) & 31;
      rank += (DESCENDING ? e > d : e < d) || (e == d && j < i);
    }
    bad += g[i] != rank;
  }
  if (bad) std::fprintf(stderr, "BlockRadixRank<%d>: %d wrong\n", THREADS, bad);
  CHECK(bad == 0);
  cudaFree(in);
  cudaFree(ranks);
}

/* ---- BlockHistogram --------------------------------------------------------- */

template <int BX, int BY, int ITEMS, cub::BlockHistogramAlgorithm ALG>
__global__ void histogram(const unsigned char *in, unsigned *out) {
  using BH = cub::BlockHistogram<unsigned char, BX, ITEMS, 256, ALG, BY>;
  __shared__ typename BH::TempStorage tmp;
  __shared__ unsigned hist[256];
  const int t = linear_tid();
  unsigned char items[ITEMS];
  for (int i = 0; i < ITEMS; ++i) items[i] = in[blockIdx.x * BX * BY * ITEMS + t * ITEMS + i];
  BH(tmp).Histogram(items, hist);
  __syncthreads();
  for (int b = t; b < 256; b += BX * BY) out[blockIdx.x * 256 + b] = hist[b];
}

template <int BX, int BY, cub::BlockHistogramAlgorithm ALG> void test_histogram(const char *what) {
  constexpr int items = 6, blocks = 2, tile = BX * BY * items;
  std::vector<unsigned char> h(blocks * tile);
  for (size_t i = 0; i < h.size(); ++i) h[i] = (unsigned char)((i * i * 31 + i) % 97 + (i % 3) * 50);
  unsigned char *in = to_device(h);
  unsigned *out;
  cudaMalloc(&out, blocks * 256 * sizeof(unsigned));
  histogram<BX, BY, items, ALG><<<blocks, dim3(BX, BY)>>>(in, out);
  CHECK_LAUNCH();
  std::vector<unsigned> g = to_host(out, blocks * 256), want(blocks * 256, 0);
  for (int i = 0; i < blocks * tile; ++i) want[(i / tile) * 256 + h[i]]++;
  CHECK(g == want);
  if (g != want) std::fprintf(stderr, "BlockHistogram %s: wrong counts\n", what);
  cudaFree(in);
  cudaFree(out);
}

/* ---- BlockMergeSort and WarpMergeSort -------------------------------------- */

/* Triples ordered by b, then a: a custom key with a custom comparator. */
struct TripleLess {
  __device__ __host__ bool operator()(const Triple &x, const Triple &y) const {
    return x.b != y.b ? x.b < y.b : x.a < y.a;
  }
};
struct ByTens { /* equal keys for a stable sort to keep in order */
  __device__ __host__ bool operator()(int x, int y) const { return x / 10 < y / 10; }
};

template <int THREADS, int ITEMS>
__global__ void merge_sort(const Triple *in, Triple *out, const int *keys_in, int *keys_out,
                           int *values_out, int valid) {
  using MS = cub::BlockMergeSort<Triple, THREADS, ITEMS>;
  using MP = cub::BlockMergeSort<int, THREADS, ITEMS, int>;
  __shared__ union {
    typename MS::TempStorage triples;
    typename MP::TempStorage pairs;
  } tmp;
  const int t = threadIdx.x, tile = THREADS * ITEMS;
  Triple x[ITEMS];
  for (int i = 0; i < ITEMS; ++i) x[i] = in[blockIdx.x * tile + t * ITEMS + i];
  MS(tmp.triples).Sort(x, TripleLess{});
  for (int i = 0; i < ITEMS; ++i) out[blockIdx.x * tile + t * ITEMS + i] = x[i];
  __syncthreads();
  int k[ITEMS], v[ITEMS];
  for (int i = 0; i < ITEMS; ++i) {
    k[i] = keys_in[blockIdx.x * tile + t * ITEMS + i];
    v[i] = t * ITEMS + i;
  }
  MP(tmp.pairs).StableSort(k, v, ByTens{});
  for (int i = 0; i < ITEMS; ++i) {
    keys_out[blockIdx.x * tile + t * ITEMS + i] = k[i];
    values_out[blockIdx.x * tile + t * ITEMS + i] = v[i];
  }
  __syncthreads();
  /* A partial tile: the `valid` first keys, the others as 1 << 30. */
  for (int i = 0; i < ITEMS; ++i) k[i] = keys_in[blockIdx.x * tile + t * ITEMS + i];
  MP(tmp.pairs).Sort(k, ByTens{}, valid, 1 << 30);
  for (int i = 0; i < ITEMS; ++i)
    if (t * ITEMS + i < valid) keys_out[(gridDim.x + blockIdx.x) * tile + t * ITEMS + i] = k[i];
}

template <int THREADS> void test_merge_sort() {
  constexpr int items = 3, blocks = 2, tile = THREADS * items, n = blocks * tile;
  const int valid = tile * 2 / 3 + 1;
  std::vector<Triple> h = inputs<Triple>(n, THREADS);
  for (int i = 0; i < n; ++i) h[i].b %= 50; /* many equal b */
  std::vector<int> hk = inputs<int>(n, THREADS + 1);
  Triple *in = to_device(h), *out;
  int *kin = to_device(hk), *kout, *vout;
  cudaMalloc(&out, n * sizeof(Triple));
  cudaMalloc(&kout, 2 * n * sizeof(int));
  cudaMalloc(&vout, n * sizeof(int));
  merge_sort<THREADS, items><<<blocks, THREADS>>>(in, out, kin, kout, vout, valid);
  CHECK_LAUNCH();
  std::vector<Triple> g = to_host(out, n);
  std::vector<int> gk = to_host(kout, 2 * n), gv = to_host(vout, n);
  int bad = 0;
  for (int b = 0; b < blocks; ++b) {
    std::vector<Triple> want(h.begin() + b * tile, h.begin() + (b + 1) * tile);
    std::sort(want.begin(), want.end(), TripleLess{});
    for (int p = 0; p < tile; ++p)  /* equal keys may come in any order */
      bad += TripleLess{}(g[b * tile + p], want[p]) || TripleLess{}(want[p], g[b * tile + p]);
    std::vector<int> order(tile);
    std::iota(order.begin(), order.end(), 0);
    const int *x = hk.data() + b * tile;
    std::stable_sort(order.begin(), order.end(), [&](int i, int j) { return ByTens{}(x[i], x[j]); });
    for (int p = 0; p < tile; ++p)
      bad += (gk[b * tile + p] != x[order[p]]) + (gv[b * tile + p] != order[p]);
    std::vector<int> part(x, x + valid);
    std::sort(part.begin(), part.end(), ByTens{});
    for (int p = 0; p < valid; ++p) bad += gk[n + b * tile + p] / 10 != part[p] / 10;
  }
  if (bad) std::fprintf(stderr, "BlockMergeSort<%d>: %d wrong\n", THREADS, bad);
  CHECK(bad == 0);
  cudaFree(in);
  cudaFree(out);
  cudaFree(kin);
  cudaFree(kout);
  cudaFree(vout);
}

template <int LOGICAL, int ITEMS>
__global__ void warp_merge_sort(const int *in, int *keys_out, int *values_out) {
  constexpr int warps = 64 / LOGICAL, tile = LOGICAL * ITEMS;
  using WM = cub::WarpMergeSort<int, ITEMS, LOGICAL, int>;
  __shared__ typename WM::TempStorage tmp[warps];
  const int w = threadIdx.x / LOGICAL, lane = threadIdx.x % LOGICAL;
  const int base = (blockIdx.x * warps + w) * tile;
  int k[ITEMS], v[ITEMS];
  for (int i = 0; i < ITEMS; ++i) {
    k[i] = in[base + lane * ITEMS + i];
    v[i] = lane * ITEMS + i;
  }
  WM(tmp[w]).StableSort(k, v, ByTens{});
  for (int i = 0; i < ITEMS; ++i) {
    keys_out[base + lane * ITEMS + i] = k[i];
    values_out[base + lane * ITEMS + i] = v[i];
  }
}

template <int LOGICAL> void test_warp_merge_sort() {
  constexpr int items = 4, blocks = 2, tile = LOGICAL * items, n = blocks * 64 * items;
  std::vector<int> h = inputs<int>(n, LOGICAL);
  int *in = to_device(h), *k, *v;
  cudaMalloc(&k, n * sizeof(int));
  cudaMalloc(&v, n * sizeof(int));
  warp_merge_sort<LOGICAL, items><<<blocks, 64>>>(in, k, v);
  CHECK_LAUNCH();
  std::vector<int> gk = to_host(k, n), gv = to_host(v, n);
  int bad = 0;
  for (int s = 0; s < n / tile; ++s) {
    const int *x = h.data() + s * tile;
    std::vector<int> order(tile);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int i, int j) { return ByTens{}(x[i], x[j]); });
    for (int p = 0; p < tile; ++p)
      bad += (gk[s * tile + p] != x[order[p]]) + (gv[s * tile + p] != order[p]);
  }
  if (bad) std::fprintf(stderr, "WarpMergeSort<%d>: %d wrong\n", LOGICAL, bad);
  CHECK(bad == 0);
  cudaFree(in);
  cudaFree(k);
  cudaFree(v);
}

int main() {
  test_radix_sort<int, 128, 1>("int 128");
  test_radix_sort<unsigned long long, 100, 1>("u64 100");
  test_radix_sort<float, 16, 6>("float 16x6");
  test_radix_rank<128, false>();
  test_radix_rank<96, true>();
  test_histogram<128, 1, cub::BLOCK_HISTO_SORT>("sort 128");
  test_histogram<16, 5, cub::BLOCK_HISTO_SORT>("sort 16x5");
  test_histogram<128, 1, cub::BLOCK_HISTO_ATOMIC>("atomic 128");
  test_histogram<50, 1, cub::BLOCK_HISTO_ATOMIC>("atomic 50");
  test_merge_sort<128>();
  test_merge_sort<64>();
  test_warp_merge_sort<32>();
  test_warp_merge_sort<16>();
  return finish();
}
