/*
 * cub_pipeline.cu: a kernel written the way CUB's own agents are: a tile
 * loaded through read-only loads (cub::CacheModifiedInputIterator with
 * LOAD_LDG, which is ld.global.nc), sorted with cub::BlockRadixSort,
 * scanned with cub::BlockScan, reduced per warp with cub::WarpReduce, and
 * stored with cub::BlockStore (warp transpose); the temporary storages
 * share one union, separated by __syncthreads and by an inline
 * `bar.sync 0`. Results against a host reference. tests/checkers_cub.sh
 * also runs it under every checker, where it must get no report, and with
 * the argument `race`, where the barrier before the reuse of the storage
 * is left out and racecheck must name the two lines.
 */
#include <algorithm>
#include <cstring>

#include <cub/block/block_load.cuh>
#include <cub/block/block_radix_sort.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/block/block_store.cuh>
#include <cub/iterator/cache_modified_input_iterator.cuh>
#include <cub/warp/warp_reduce.cuh>

#include "cub_test.cuh"

constexpr int THREADS = 128, ITEMS = 4, TILE = THREADS * ITEMS;

__global__ void sort_scan(const int *in, int *sorted_scan, int *warp_sums, bool racy) {
  using Load = cub::BlockLoad<int, THREADS, ITEMS, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
  using Sort = cub::BlockRadixSort<int, THREADS, ITEMS>;
  using Scan = cub::BlockScan<int, THREADS>;
  using Store = cub::BlockStore<int, THREADS, ITEMS, cub::BLOCK_STORE_WARP_TRANSPOSE>;
  using WarpSum = cub::WarpReduce<int>;
  __shared__ union {
    typename Load::TempStorage load;
    typename Sort::TempStorage sort;
    typename Scan::TempStorage scan;
    typename Store::TempStorage store;
    typename WarpSum::TempStorage warp[THREADS / 32];
  } tmp;
  int items[ITEMS];
  cub::CacheModifiedInputIterator<cub::LOAD_LDG, int> tile(in + blockIdx.x * TILE);
  Load(tmp.load).Load(tile, items);
  /* The storage is reused: PTX's barrier orders the accesses as
   * __syncthreads does (racecheck must see it so). */
  asm volatile("bar.sync 0;" ::: "memory");
  Sort(tmp.sort).Sort(items);
  __syncthreads();
  int sum = 0;
  for (int i = 0; i < ITEMS; ++i) sum += items[i];
  const int warp_total = WarpSum(tmp.warp[threadIdx.x / 32]).Sum(sum);
  if (threadIdx.x % 32 == 0) warp_sums[blockIdx.x * (THREADS / 32) + threadIdx.x / 32] = warp_total;
  __syncthreads();
  Scan(tmp.scan).InclusiveSum(items, items);
  if (!racy) __syncthreads();
  Store(tmp.store).Store(sorted_scan + blockIdx.x * TILE, items);
}

int main(int argc, char **argv) {
  const bool racy = argc > 1 && std::strcmp(argv[1], "race") == 0;
  const int blocks = 3, n = blocks * TILE;
  std::vector<int> h = inputs<int>(n, 5);
  int *in = to_device(h), *out, *sums;
  cudaMalloc(&out, n * sizeof(int));
  cudaMalloc(&sums, blocks * (THREADS / 32) * sizeof(int));
  sort_scan<<<blocks, THREADS>>>(in, out, sums, racy);
  CHECK_LAUNCH();
  std::vector<int> g = to_host(out, n), gs = to_host(sums, blocks * (THREADS / 32));
  int bad = 0;
  for (int b = 0; b < blocks; ++b) {
    std::vector<int> s(h.begin() + b * TILE, h.begin() + (b + 1) * TILE);
    std::sort(s.begin(), s.end());
    int run = 0;
    for (int i = 0; i < TILE; ++i) {
      run += s[i];
      bad += g[b * TILE + i] != run;
    }
    for (int w = 0; w < THREADS / 32; ++w) {
      int ws = 0;
      for (int i = w * 32 * ITEMS; i < (w + 1) * 32 * ITEMS; ++i) ws += s[i];
      bad += gs[b * (THREADS / 32) + w] != ws;
    }
  }
  CHECK(bad == 0);
  cudaFree(in);
  cudaFree(out);
  cudaFree(sums);
  return finish();
}
