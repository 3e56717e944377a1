// A program that includes the scan, reduce, functional and async headers of
// cooperative groups by their paths under cooperative_groups/details/, as
// test suites of migration tools do (<cooperative_groups/details/scan.h>
// after <cooperative_groups.h>). nvcc finds NVIDIA's own headers there, which
// define cg::inclusive_scan, cg::reduce, cg::less and cg::memcpy_async; cuemu
// had no such files among its shims, so the compile reached the toolkit's
// internal headers and stopped at "'__barrier_sync' was not declared". The
// kernels use what each header brings: scans with every operator of
// cg::functional over a warp tile and a tile of 8, reductions, and a
// memcpy_async into shared memory waited for with cg::wait.
#include <cooperative_groups.h>
#include <cooperative_groups/details/async.h>
#include <cooperative_groups/details/functional.h>
#include <cooperative_groups/details/reduce.h>
#include <cooperative_groups/details/scan.h>
#include <cstdio>
#include "../check.cuh"

namespace cg = cooperative_groups;

// Each thread's inclusive and exclusive scans of its rank in its tile of 32
// (with plus, less, greater, bit_and, bit_xor, bit_or) and of 8 (plus), and
// the warp's reductions of the same values.
__global__ void scans(unsigned *inc, unsigned *exc, unsigned *inc8, unsigned *red) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  cg::thread_block_tile<8> tile8 = cg::tiled_partition<8>(block);
  unsigned r = tile.thread_rank(), t = block.thread_rank();
  inc[t * 6 + 0] = cg::inclusive_scan(tile, r, cg::plus<unsigned>());
  inc[t * 6 + 1] = cg::inclusive_scan(tile, r, cg::less<unsigned>());
  inc[t * 6 + 2] = cg::inclusive_scan(tile, r, cg::greater<unsigned>());
  inc[t * 6 + 3] = cg::inclusive_scan(tile, r, cg::bit_and<unsigned>());
  inc[t * 6 + 4] = cg::inclusive_scan(tile, r, cg::bit_xor<unsigned>());
  inc[t * 6 + 5] = cg::inclusive_scan(tile, r, cg::bit_or<unsigned>());
  exc[t] = cg::exclusive_scan(tile, r);
  inc8[t] = cg::inclusive_scan(tile8, tile8.thread_rank());
  unsigned sum = cg::reduce(tile, r, cg::plus<unsigned>());
  unsigned low = cg::reduce(tile, r + 5, cg::less<unsigned>());
  if (r == 0) {
    red[tile.meta_group_rank() * 2] = sum;
    red[tile.meta_group_rank() * 2 + 1] = low;
  }
}

// The block copies its 64 inputs into shared memory with memcpy_async and
// doubles them once cg::wait has seen the copy land.
__global__ void staged(const int *in, int *out) {
  __shared__ int stage[64];
  cg::thread_block block = cg::this_thread_block();
  cg::memcpy_async(block, stage, in, sizeof stage);
  cg::wait(block);
  out[block.thread_rank()] = 2 * stage[block.thread_rank()];
}

int main() {
  const int threads = 64;
  unsigned *inc, *exc, *inc8, *red;
  int *in, *out;
  cudaMallocManaged(&inc, threads * 6 * sizeof(unsigned));
  cudaMallocManaged(&exc, threads * sizeof(unsigned));
  cudaMallocManaged(&inc8, threads * sizeof(unsigned));
  cudaMallocManaged(&red, 4 * sizeof(unsigned));
  cudaMallocManaged(&in, threads * sizeof(int));
  cudaMallocManaged(&out, threads * sizeof(int));
  for (int i = 0; i < threads; ++i) in[i] = 3 * i - 7;
  scans<<<1, threads>>>(inc, exc, inc8, red);
  staged<<<1, threads>>>(in, out);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);

  for (int t = 0; t < threads; ++t) {
    unsigned r = t % 32, plus = 0, band = ~0u, bxor = 0, bor = 0;
    for (unsigned k = 0; k <= r; ++k) {
      plus += k;
      band &= k;
      bxor ^= k;
      bor |= k;
    }
    CHECK(inc[t * 6 + 0] == plus);
    CHECK(inc[t * 6 + 1] == 0);
    CHECK(inc[t * 6 + 2] == r);
    CHECK(inc[t * 6 + 3] == band);
    CHECK(inc[t * 6 + 4] == bxor);
    CHECK(inc[t * 6 + 5] == bor);
    CHECK(exc[t] == plus - r);
    unsigned r8 = t % 8;
    CHECK(inc8[t] == r8 * (r8 + 1) / 2);
    CHECK(out[t] == 2 * (3 * t - 7));
  }
  for (int w = 0; w < 2; ++w) {
    CHECK(red[w * 2] == 496);
    CHECK(red[w * 2 + 1] == 5);
  }
  return finish();
}
