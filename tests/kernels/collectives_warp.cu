/*
 * collectives_warp.cu: the warp reductions and scans of
 * examples/programs/collectives/collectives.cuh with the mask
 * masks[blockIdx.x] (less the lanes past the end of the block); lanes outside
 * it skip the calls. Each taking lane writes its row of `out` (collectives_layout.h).
 */
#include "../../examples/programs/collectives/collectives.cuh"
#include "collectives_layout.h"
#include "result_bits.cuh"

extern "C" __global__ void coll_warp(long long *out, const unsigned *masks) {
  unsigned b = blockIdx.x, r = collectives::block_thread();
  unsigned mask = masks[b] & collectives::warp_lanes_in_block();
  long long *o = out + ((size_t)b * collectives::block_threads() + r) * WARP_SLOTS;
  if (!(mask >> (r % 32u) & 1u))
    return;
  int i = coll_i(b, r);
  unsigned u = coll_u(b, r);
  long long ll = coll_ll(b, r);
  float f = coll_f(b, r);
  double d = coll_d(b, r);
  o[W_ISUM] = collectives::warp_sum(i, mask);
  o[W_IMIN] = collectives::warp_min(i, mask);
  o[W_IMAX] = collectives::warp_max(i, mask);
  o[W_USUM] = collectives::warp_sum(u, mask);
  o[W_UMAX] = collectives::warp_max(u, mask);
  o[W_LLSUM] = collectives::warp_sum(ll, mask);
  o[W_LLMIN] = collectives::warp_min(ll, mask);
  o[W_ULLMAX] = (long long)collectives::warp_max((unsigned long long)ll, mask);
  o[W_FSUM] = fbits(collectives::warp_sum(f, mask));
  o[W_DSUM] = dbits(collectives::warp_sum(d, mask));
  o[W_DMIN] = dbits(collectives::warp_min(d, mask));
  o[W_IINC] = collectives::warp_inclusive_sum(i, mask);
  o[W_IEXC] = collectives::warp_exclusive_sum(i, mask);
  o[W_LLINC] = collectives::warp_inclusive_sum(ll, mask);
  o[W_DINC] = dbits(collectives::warp_inclusive_sum(d, mask));
  o[W_FEXC] = fbits(collectives::warp_exclusive_sum(f, mask));
}

/* The default mask: all 32 lanes of a full warp. */
extern "C" __global__ void coll_warp_default(long long *out) {
  unsigned r = collectives::block_thread();
  int i = coll_i(0, r);
  out[2 * r] = collectives::warp_sum(i);
  out[2 * r + 1] = collectives::warp_exclusive_sum(i);
}
