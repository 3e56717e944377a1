// sw_simd.cuh: one query against a database, CUDASW++ style: each thread
// aligns the query with two database sequences at once, their scores in the
// two 16-bit halves of a word, computed with the SIMD video intrinsics; the
// query profile is read through a texture object.
#ifndef TRIALBIO_SW_SIMD_CUH
#define TRIALBIO_SW_SIMD_CUH
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cub/warp/warp_reduce.cuh>
#include "bio_common.cuh"
#include "sw_params.h"

namespace cg = cooperative_groups;

namespace swsimd {

constexpr int kMaxQuery = 64;
constexpr int kPad = SW_ALPHA;  // the residue that ends a shorter sequence

struct DbView {
  const uint8_t* residues;  // sequences, one after the other
  const int* offsets;       // start of each sequence; offsets[count] = end
  int count;
};

__device__ __forceinline__ uint32_t pack2(int lo, int hi) {
  return __byte_perm((uint32_t)lo, (uint32_t)hi, 0x5410);
}

template <int MAXQ>
__global__ void __launch_bounds__(128, 4)
sw_simd_kernel(cudaTextureObject_t profile, int qlen, DbView db, SwScoring sc, int* __restrict__ scores,
               unsigned long long* __restrict__ cells, unsigned long long* __restrict__ best_pair) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const int a = 2 * t, b = 2 * t + 1;
  int score_a = 0, score_b = 0;
  if (a < db.count) {
    const int la = db.offsets[a + 1] - db.offsets[a];
    const int lb = b < db.count ? db.offsets[b + 1] - db.offsets[b] : 0;
    const uint8_t* ra = db.residues + db.offsets[a];
    const uint8_t* rb = b < db.count ? db.residues + db.offsets[b] : ra;
    uint32_t h_col[MAXQ], e_col[MAXQ];
    const uint32_t zero = 0u;
    const uint32_t low = pack2(-16000, -16000);
    const uint32_t open = pack2(sc.gap_open, sc.gap_open);
    const uint32_t ext = pack2(sc.gap_extend, sc.gap_extend);
#pragma unroll 4
    for (int i = 0; i < qlen; ++i) {
      h_col[i] = zero;
      e_col[i] = low;
    }
    uint32_t best = zero;
    const int n = max(la, lb);
    for (int j = 0; j < n; ++j) {
      const int ca = j < la ? ra[j] : kPad;
      const int cb = j < lb ? rb[j] : kPad;
      uint32_t diag = zero, up = zero, f = low;
      for (int i = 0; i < qlen; ++i) {
        const int sa = tex2D<short>(profile, (float)i, (float)ca);
        const int sb = tex2D<short>(profile, (float)i, (float)cb);
        const uint32_t left = h_col[i];
        const uint32_t e = __vmaxs2(__vsubss2(e_col[i], ext), __vsubss2(left, open));
        f = __vmaxs2(__vsubss2(f, ext), __vsubss2(up, open));
        uint32_t h = __vmaxs2(__vaddss2(diag, pack2(sa, sb)), zero);
        h = __vmaxs2(h, __vmaxs2(e, f));
        e_col[i] = e;
        h_col[i] = h;
        diag = left;
        up = h;
        best = __vmaxs2(best, h);
      }
    }
    score_a = (short)(best & 0xffffu);
    score_b = (short)(best >> 16);
    scores[a] = score_a;
    if (b < db.count) scores[b] = score_b;
  }
  // Cells computed by the block, summed by a cooperative-groups reduction.
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  unsigned long long mine = 0;
  if (a < db.count) {
    mine = (unsigned long long)qlen * (db.offsets[a + 1] - db.offsets[a]);
    if (b < db.count) mine += (unsigned long long)qlen * (db.offsets[b + 1] - db.offsets[b]);
  }
  const unsigned long long sum = cg::reduce(warp, mine, cg::plus<unsigned long long>());
  if (warp.thread_rank() == 0 && sum) atomicAdd(cells, sum);
  // The best database sequence of the warp by cub's WarpReduce, as a
  // (score, index) pair; ties to the lowest index.
  using Pair = cub::KeyValuePair<int, int>;
  using WarpReduce = cub::WarpReduce<Pair>;
  __shared__ typename WarpReduce::TempStorage temp[4];
  struct Better {
    __device__ Pair operator()(const Pair& x, const Pair& y) const {
      if (x.value != y.value) return x.value > y.value ? x : y;
      return x.key < y.key ? x : y;
    }
  };
  Pair p(a < db.count ? a : INT_MAX, a < db.count ? score_a : -1);
  if (b < db.count && score_b > score_a) p = Pair(b, score_b);
  const Pair top = WarpReduce(temp[threadIdx.x / 32]).Reduce(p, Better());
  const unsigned voters = __ballot_sync(0xffffffffu, a < db.count);
  if (warp.thread_rank() == 0 && voters) {
    // Pack (score, lowest index first) so that one atomicMax picks the best.
    const unsigned long long key = ((unsigned long long)(unsigned)top.value << 32) | (0xffffffffu - (unsigned)top.key);
    atomicMax(best_pair, key);
  }
}

}  // namespace swsimd

#endif  // TRIALBIO_SW_SIMD_CUH
