/*
 * collectives_block.cu: the block reductions and scans of
 * examples/programs/collectives/collectives.cuh in blocks of any shape, each
 * thread writing its row of `out` (collectives_layout.h), and block_sum_to into
 * global sums with one atomic per block.
 */
#include "../../examples/programs/collectives/collectives.cuh"
#include "collectives_layout.h"
#include "result_bits.cuh"

extern "C" __global__ void coll_block(long long *out, int *isum,
                                      unsigned long long *usum,
                                      long long *llsum, float *fsum,
                                      double *dsum) {
  unsigned b = blockIdx.x, r = collectives::block_thread();
  long long *o =
      out + ((size_t)b * collectives::block_threads() + r) * BLOCK_SLOTS;
  int i = coll_i(b, r);
  unsigned u = coll_u(b, r);
  long long ll = coll_ll(b, r);
  float f = coll_f(b, r);
  double d = coll_d(b, r);
  o[B_ISUM] = collectives::block_sum(i);
  o[B_IMIN] = collectives::block_min(i);
  o[B_IMAX] = collectives::block_max(i);
  o[B_DSUM] = dbits(collectives::block_sum(d));
  o[B_FSUM] = fbits(collectives::block_sum(f));
  o[B_FMAX] = fbits(collectives::block_max(f));
  o[B_LLSUM] = collectives::block_sum(ll);
  o[B_UMIN] = collectives::block_min(u);
  o[B_IINC] = collectives::block_inclusive_sum(i);
  o[B_IEXC] = collectives::block_exclusive_sum(i);
  o[B_DINC] = dbits(collectives::block_inclusive_sum(d));
  o[B_DEXC] = dbits(collectives::block_exclusive_sum(d));
  o[B_LLEXC] = collectives::block_exclusive_sum(ll);
  o[B_ISUM2] = collectives::block_sum(i * 3);
  o[B_THREAD] = r;
  o[B_THREADS] = collectives::block_threads();
  collectives::block_sum_to(isum, i);
  collectives::block_sum_to(usum, (unsigned long long)u);
  collectives::block_sum_to(llsum, ll);
  collectives::block_sum_to(fsum, f);
  collectives::block_sum_to(dsum, d);
}
