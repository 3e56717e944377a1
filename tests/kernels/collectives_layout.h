/*
 * collectives_layout.h: what tests/kernels/collectives_*.cu write and
 * tests/check_groups.c checks (the warp and block collectives of
 * examples/programs/collectives/collectives.cuh). Included by both (C and
 * CUDA C++).
 */
#ifndef CUEMU_TESTS_COLLECTIVES_LAYOUT_H
#define CUEMU_TESTS_COLLECTIVES_LAYOUT_H

#include "groups_layout.h"

/* Inputs of the thread of block rank r in block b. */
GROUPS_HD static inline unsigned coll_u(unsigned b, unsigned r) {
  return groups_mix(b * 1024u + r);
}
GROUPS_HD static inline int coll_i(unsigned b, unsigned r) {
  return (int)(coll_u(b, r) % 2001u) - 1000;
}
GROUPS_HD static inline long long coll_ll(unsigned b, unsigned r) {
  return ((long long)coll_i(b, r) << 33) + (long long)coll_u(b, r);
}
GROUPS_HD static inline float coll_f(unsigned b, unsigned r) {
  return (float)coll_i(b, r) / 7.0f;
}
GROUPS_HD static inline double coll_d(unsigned b, unsigned r) {
  return (double)coll_u(b, r) / 11.0 - 1e8;
}

/* Slots of a thread's row (floating results as bits). */
enum {
  W_ISUM, W_IMIN, W_IMAX, W_USUM, W_UMAX, W_LLSUM, W_LLMIN, W_ULLMAX,
  W_FSUM, W_DSUM, W_DMIN, W_IINC, W_IEXC, W_LLINC, W_DINC, W_FEXC,
  WARP_SLOTS
};

enum {
  B_ISUM, B_IMIN, B_IMAX, B_DSUM, B_FSUM, B_FMAX, B_LLSUM, B_UMIN,
  B_IINC, B_IEXC, B_DINC, B_DEXC, B_LLEXC, B_ISUM2, B_THREAD, B_THREADS,
  BLOCK_SLOTS
};

#endif /* CUEMU_TESTS_COLLECTIVES_LAYOUT_H */
