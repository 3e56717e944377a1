/*
 * cub_exchange.cu: the data-movement primitives of the toolkit's CUB, each
 * checked in the kernel against the arrangement it defines (blocked,
 * striped, warp-striped) and on the host against the input:
 * cub::BlockLoad and cub::BlockStore in every algorithm (full tiles and
 * guarded partial ones), cub::BlockExchange, cub::WarpLoad, cub::WarpStore
 * and cub::WarpExchange, cub::BlockAdjacentDifference and
 * cub::BlockDiscontinuity; 32- and 64-bit values, 1D, 2D and 3D blocks,
 * blocks with a partial warp where the algorithm allows one.
 */
#include <cub/block/block_adjacent_difference.cuh>
#include <cub/block/block_discontinuity.cuh>
#include <cub/block/block_exchange.cuh>
#include <cub/block/block_load.cuh>
#include <cub/block/block_store.cuh>
#include <cub/warp/warp_exchange.cuh>
#include <cub/warp/warp_load.cuh>
#include <cub/warp/warp_store.cuh>

#include "cub_test.cuh"

/* ---- BlockLoad and BlockStore -------------------------------------------- */

/* Loads a tile (in blocked arrangement: thread t holds items t*ITEMS ..),
 * stores it to `out`; then a guarded partial tile of `valid` items, with
 * -1 for the others, to `out_partial` (whose other items must stay). */
template <typename T, int BX, int BY, int BZ, int ITEMS, cub::BlockLoadAlgorithm LA,
          cub::BlockStoreAlgorithm SA>
__global__ void load_store(const T *in, T *out, T *out_partial, int valid) {
  using BL = cub::BlockLoad<T, BX, ITEMS, LA, BY, BZ>;
  using BS = cub::BlockStore<T, BX, ITEMS, SA, BY, BZ>;
  __shared__ union {
    typename BL::TempStorage load;
    typename BS::TempStorage store;
  } tmp;
  constexpr int tile = BX * BY * BZ * ITEMS;
  const int t = linear_tid();
  T items[ITEMS];
  /* The striped algorithms leave the items striped (thread t holds items
   * t, t + threads, ...), the others blocked. */
  constexpr bool striped = LA == cub::BLOCK_LOAD_STRIPED;
  auto at = [&](int i) { return striped ? i * BX * BY * BZ + t : t * ITEMS + i; };
  BL(tmp.load).Load(in + blockIdx.x * tile, items);
  for (int i = 0; i < ITEMS; ++i)
    EXPECT(items[i] == in[blockIdx.x * tile + at(i)]);
  __syncthreads();
  BS(tmp.store).Store(out + blockIdx.x * tile, items);
  __syncthreads();
  BL(tmp.load).Load(in + blockIdx.x * tile, items, valid, T(-1));
  for (int i = 0; i < ITEMS; ++i)
    EXPECT(items[i] == (at(i) < valid ? in[blockIdx.x * tile + at(i)] : T(-1)));
  __syncthreads();
  BS(tmp.store).Store(out_partial + blockIdx.x * tile, items, valid);
}

template <typename T, int BX, int BY, int BZ, cub::BlockLoadAlgorithm LA,
          cub::BlockStoreAlgorithm SA>
void test_load_store(const char *what) {
  constexpr int items = 4, blocks = 3, tile = BX * BY * BZ * items, n = blocks * tile;
  const int valid = tile / 3 + 1;
  std::vector<T> h = inputs<T>(n, BX + LA), sentinel(n, T(7));
  T *in = to_device(h), *out = to_device(sentinel), *part = to_device(sentinel);
  load_store<T, BX, BY, BZ, items, LA, SA><<<blocks, dim3(BX, BY, BZ)>>>(in, out, part, valid);
  CHECK_LAUNCH();
  std::vector<T> g = to_host(out, n), gp = to_host(part, n);
  int bad = take_errors(what);
  for (int i = 0; i < n; ++i)
    bad += !(g[i] == h[i]) + !(gp[i] == (i % tile < valid ? h[i] : T(7)));
  if (bad) std::fprintf(stderr, "BlockLoad/BlockStore %s: %d wrong\n", what, bad);
  CHECK(bad == 0);
  cudaFree(in);
  cudaFree(out);
  cudaFree(part);
}

template <typename T, int BX, int BY, int BZ> void load_store_all() {
  test_load_store<T, BX, BY, BZ, cub::BLOCK_LOAD_DIRECT, cub::BLOCK_STORE_DIRECT>("direct");
  test_load_store<T, BX, BY, BZ, cub::BLOCK_LOAD_STRIPED, cub::BLOCK_STORE_STRIPED>("striped");
  test_load_store<T, BX, BY, BZ, cub::BLOCK_LOAD_VECTORIZE, cub::BLOCK_STORE_VECTORIZE>(
      "vectorize");
  test_load_store<T, BX, BY, BZ, cub::BLOCK_LOAD_TRANSPOSE, cub::BLOCK_STORE_TRANSPOSE>(
      "transpose");
}
template <typename T, int BX, int BY, int BZ> void load_store_warp_algorithms() {
  test_load_store<T, BX, BY, BZ, cub::BLOCK_LOAD_WARP_TRANSPOSE,
                  cub::BLOCK_STORE_WARP_TRANSPOSE>("warp transpose");
  test_load_store<T, BX, BY, BZ, cub::BLOCK_LOAD_WARP_TRANSPOSE_TIMESLICED,
                  cub::BLOCK_STORE_WARP_TRANSPOSE_TIMESLICED>("warp transpose timesliced");
}

/* ---- BlockExchange ------------------------------------------------------- */

/* Values are their index in the tile; ranks scatter index k to
 * (k * 7 + 3) % tile (a permutation: tile is not a multiple of 7). */
template <int BX, int BY, int BZ, int ITEMS> __global__ void exchange() {
  using BE = cub::BlockExchange<int, BX, ITEMS, false, BY, BZ>;
  __shared__ typename BE::TempStorage tmp;
  constexpr int threads = BX * BY * BZ, tile = threads * ITEMS;
  const int t = linear_tid(), lane = t % 32, warp = t / 32;
  int items[ITEMS], ranks[ITEMS];
  for (int i = 0; i < ITEMS; ++i) items[i] = i * threads + t; /* striped */
  BE(tmp).StripedToBlocked(items, items);
  for (int i = 0; i < ITEMS; ++i) EXPECT(items[i] == t * ITEMS + i);
  __syncthreads();
  BE(tmp).BlockedToStriped(items, items);
  for (int i = 0; i < ITEMS; ++i) EXPECT(items[i] == i * threads + t);
  __syncthreads();
  /* Warp-striped: warp w holds its warp's ITEMS * 32 items, lane-fastest. */
  const int wbase = warp * 32 * ITEMS;
  for (int i = 0; i < ITEMS; ++i) items[i] = t * ITEMS + i;
  BE(tmp).BlockedToWarpStriped(items, items);
  if (threads % 32 == 0)
    for (int i = 0; i < ITEMS; ++i) EXPECT(items[i] == wbase + i * 32 + lane);
  __syncthreads();
  BE(tmp).WarpStripedToBlocked(items, items);
  for (int i = 0; i < ITEMS; ++i) EXPECT(items[i] == t * ITEMS + i);
  __syncthreads();
  for (int i = 0; i < ITEMS; ++i) ranks[i] = (items[i] * 7 + 3) % tile;
  int scattered[ITEMS];
  BE(tmp).ScatterToBlocked(items, scattered, ranks);
  /* Position p holds the value k with (7k + 3) % tile == p. */
  for (int i = 0; i < ITEMS; ++i) EXPECT((scattered[i] * 7 + 3) % tile == t * ITEMS + i);
  __syncthreads();
  BE(tmp).ScatterToStriped(items, scattered, ranks);
  for (int i = 0; i < ITEMS; ++i) EXPECT((scattered[i] * 7 + 3) % tile == i * threads + t);
}

template <int BX, int BY, int BZ> void test_exchange(const char *what) {
  exchange<BX, BY, BZ, 5><<<2, dim3(BX, BY, BZ)>>>();
  CHECK_LAUNCH();
  CHECK(take_errors(what) == 0);
}

/* ---- WarpLoad, WarpStore, WarpExchange ------------------------------------ */

template <int LOGICAL, int ITEMS, cub::WarpLoadAlgorithm LA, cub::WarpStoreAlgorithm SA>
__global__ void warp_load_store(const long long *in, long long *out, int valid) {
  constexpr int warps = 64 / LOGICAL, tile = LOGICAL * ITEMS;
  using WL = cub::WarpLoad<long long, ITEMS, LA, LOGICAL>;
  using WS = cub::WarpStore<long long, ITEMS, SA, LOGICAL>;
  using WE = cub::WarpExchange<long long, ITEMS, LOGICAL>;
  __shared__ typename WL::TempStorage ltmp[warps];
  __shared__ typename WS::TempStorage stmp[warps];
  __shared__ typename WE::TempStorage etmp[warps];
  const int w = threadIdx.x / LOGICAL, lane = threadIdx.x % LOGICAL;
  const long long *src = in + (blockIdx.x * warps + w) * tile;
  long long *dst = out + (blockIdx.x * warps + w) * tile;
  long long items[ITEMS];
  constexpr bool loads_striped = LA == cub::WARP_LOAD_STRIPED;
  WL(ltmp[w]).Load(src, items);
  for (int i = 0; i < ITEMS; ++i)
    EXPECT(items[i] == src[loads_striped ? i * LOGICAL + lane : lane * ITEMS + i]);
  if (loads_striped) WE(etmp[w]).StripedToBlocked(items, items);
  /* Each reuse of a warp's temporary storage waits for the warp, as CUB
   * documents (without it, lanes overwrite what others still read). */
  __syncwarp();
  long long striped[ITEMS];
  WE(etmp[w]).BlockedToStriped(items, striped);
  for (int i = 0; i < ITEMS; ++i) EXPECT(striped[i] == src[i * LOGICAL + lane]);
  __syncwarp();
  WE(etmp[w]).StripedToBlocked(striped, striped);
  for (int i = 0; i < ITEMS; ++i) EXPECT(striped[i] == items[i]);
  __syncwarp();
  int ranks[ITEMS];
  for (int i = 0; i < ITEMS; ++i) ranks[i] = tile - 1 - (lane * ITEMS + i); /* reversed */
  WE(etmp[w]).ScatterToStriped(items, striped, ranks);
  for (int i = 0; i < ITEMS; ++i) EXPECT(striped[i] == src[tile - 1 - (i * LOGICAL + lane)]);
  __syncwarp();
  if (SA == cub::WARP_STORE_STRIPED) WE(etmp[w]).BlockedToStriped(items, items);
  WS(stmp[w]).Store(dst, items, valid);
}

template <int LOGICAL, cub::WarpLoadAlgorithm LA, cub::WarpStoreAlgorithm SA>
void test_warp_load_store(const char *what) {
  constexpr int items = 4, blocks = 2, tile = LOGICAL * items, n = blocks * 64 * items;
  const int valid = tile - 3;
  std::vector<long long> h = inputs<long long>(n, LOGICAL + LA), sentinel(n, 5);
  long long *in = to_device(h), *out = to_device(sentinel);
  warp_load_store<LOGICAL, items, LA, SA><<<blocks, 64>>>(in, out, valid);
  CHECK_LAUNCH();
  std::vector<long long> g = to_host(out, n);
  int bad = take_errors(what);
  for (int i = 0; i < n; ++i) bad += g[i] != (i % tile < valid ? h[i] : 5);
  if (bad) std::fprintf(stderr, "WarpLoad/WarpStore %s: %d wrong\n", what, bad);
  CHECK(bad == 0);
  cudaFree(in);
  cudaFree(out);
}

/* ---- BlockAdjacentDifference and BlockDiscontinuity ----------------------- */

struct Difference {
  __device__ long long operator()(long long a, long long b) const { return a - b; }
};
struct NotEqual {
  __device__ bool operator()(int a, int b) const { return a != b; }
};

template <int BX, int BY, int BZ, int ITEMS>
__global__ void adjacent(const long long *in, const int *keys, int valid) {
  using AD = cub::BlockAdjacentDifference<long long, BX, BY, BZ>;
  using DI = cub::BlockDiscontinuity<int, BX, BY, BZ>;
  __shared__ typename AD::TempStorage atmp;
  __shared__ typename DI::TempStorage dtmp;
  constexpr int tile = BX * BY * BZ * ITEMS;
  const int t = linear_tid();
  const long long *x = in + blockIdx.x * tile;
  const int *k = keys + blockIdx.x * tile;
  long long items[ITEMS], out[ITEMS];
  for (int i = 0; i < ITEMS; ++i) items[i] = x[t * ITEMS + i];
  AD(atmp).SubtractLeft(items, out, Difference{});
  for (int i = 0, p = t * ITEMS; i < ITEMS; ++i, ++p)
    EXPECT(out[i] == (p == 0 ? x[0] : x[p] - x[p - 1]));
  __syncthreads();
  AD(atmp).SubtractLeft(items, out, Difference{}, 1000LL);
  for (int i = 0, p = t * ITEMS; i < ITEMS; ++i, ++p)
    EXPECT(out[i] == x[p] - (p == 0 ? 1000LL : x[p - 1]));
  __syncthreads();
  AD(atmp).SubtractRight(items, out, Difference{});
  for (int i = 0, p = t * ITEMS; i < ITEMS; ++i, ++p)
    EXPECT(out[i] == (p == tile - 1 ? x[p] : x[p] - x[p + 1]));
  __syncthreads();
  AD(atmp).SubtractLeftPartialTile(items, out, Difference{}, valid);
  for (int i = 0, p = t * ITEMS; i < ITEMS; ++i, ++p)
    if (p < valid) EXPECT(out[i] == (p == 0 ? x[0] : x[p] - x[p - 1]));
  __syncthreads();
  AD(atmp).SubtractRightPartialTile(items, out, Difference{}, valid);
  for (int i = 0, p = t * ITEMS; i < ITEMS; ++i, ++p)
    if (p < valid) EXPECT(out[i] == (p == valid - 1 ? x[p] : x[p] - x[p + 1]));
  int ki[ITEMS], heads[ITEMS], tails[ITEMS];
  for (int i = 0; i < ITEMS; ++i) ki[i] = k[t * ITEMS + i];
  DI(dtmp).FlagHeads(heads, ki, NotEqual{});
  for (int i = 0, p = t * ITEMS; i < ITEMS; ++i, ++p)
    EXPECT(heads[i] == (p == 0 || k[p] != k[p - 1]));
  __syncthreads();
  DI(dtmp).FlagHeads(heads, ki, NotEqual{}, k[0]);
  for (int i = 0, p = t * ITEMS; i < ITEMS; ++i, ++p)
    EXPECT(heads[i] == (p != 0 && k[p] != k[p - 1]));
  __syncthreads();
  DI(dtmp).FlagTails(tails, ki, NotEqual{});
  for (int i = 0, p = t * ITEMS; i < ITEMS; ++i, ++p)
    EXPECT(tails[i] == (p == tile - 1 || k[p] != k[p + 1]));
  __syncthreads();
  DI(dtmp).FlagHeadsAndTails(heads, tails, ki, NotEqual{});
  for (int i = 0, p = t * ITEMS; i < ITEMS; ++i, ++p) {
    EXPECT(heads[i] == (p == 0 || k[p] != k[p - 1]));
    EXPECT(tails[i] == (p == tile - 1 || k[p] != k[p + 1]));
  }
}

template <int BX, int BY, int BZ> void test_adjacent(const char *what) {
  constexpr int items = 3, blocks = 2, tile = BX * BY * BZ * items, n = blocks * tile;
  std::vector<long long> h = inputs<long long>(n, BX);
  std::vector<int> keys(n);
  for (int i = 0; i < n; ++i) keys[i] = (i / 3 + i / 7) % 5; /* runs of 1 to 3 */
  long long *in = to_device(h);
  int *dk = to_device(keys);
  adjacent<BX, BY, BZ, items><<<blocks, dim3(BX, BY, BZ)>>>(in, dk, tile / 2 + 1);
  CHECK_LAUNCH();
  CHECK(take_errors(what) == 0);
  cudaFree(in);
  cudaFree(dk);
}

int main() {
  load_store_all<int, 128, 1, 1>();
  load_store_all<long long, 100, 1, 1>();     /* a partial warp */
  load_store_all<int, 16, 4, 3>();            /* 3D */
  load_store_warp_algorithms<int, 96, 1, 1>(); /* whole warps */
  load_store_warp_algorithms<long long, 32, 4, 1>();
  test_exchange<128, 1, 1>("BlockExchange 128");
  test_exchange<50, 1, 1>("BlockExchange 50");
  test_exchange<8, 4, 2>("BlockExchange 8x4x2");
  test_warp_load_store<32, cub::WARP_LOAD_DIRECT, cub::WARP_STORE_DIRECT>("direct 32");
  test_warp_load_store<32, cub::WARP_LOAD_STRIPED, cub::WARP_STORE_STRIPED>("striped 32");
  test_warp_load_store<16, cub::WARP_LOAD_VECTORIZE, cub::WARP_STORE_VECTORIZE>("vectorize 16");
  test_warp_load_store<8, cub::WARP_LOAD_TRANSPOSE, cub::WARP_STORE_TRANSPOSE>("transpose 8");
  test_warp_load_store<32, cub::WARP_LOAD_TRANSPOSE, cub::WARP_STORE_TRANSPOSE>("transpose 32");
  test_adjacent<128, 1, 1>("adjacent 128");
  test_adjacent<37, 1, 1>("adjacent 37");
  test_adjacent<16, 3, 2>("adjacent 16x3x2");
  return finish();
}
