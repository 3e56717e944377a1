/*
 * groups_wide_layout.h: what tests/kernels/groups_wide.cu writes and
 * tests/check_groups.c checks: the slot of each result in a thread's row of
 * the output of groups_wide_N (one row of WIDE_SLOTS long longs per thread,
 * by block and block rank). The inputs are those of groups_layout.h.
 * Floating results are stored as their bits.
 */
#ifndef CUEMU_TESTS_GROUPS_WIDE_LAYOUT_H
#define CUEMU_TESTS_GROUPS_WIDE_LAYOUT_H

enum {
  WT_RANK, WT_NUM, WT_SIZE, WT_MRANK, WT_MSIZE, WT_VOID_MRANK, WT_VOID_MSIZE,
  WT_SHFL, WT_SHFL_D, WT_SHFL_VOID,
  WT_ANY, WT_ANY0, WT_ALL, WT_ALL1,
  WT_SUM, WT_MIN, WT_MAX, WT_AND, WT_OR, WT_XOR, WT_FSUM, WT_DSUM, WT_LMAX, WT_LLSUM,
  WT_ISCAN, WT_ESCAN, WT_FISCAN, WT_FESCAN, WT_EGREATER, WT_IMIN, WT_DISCAN,
  WT_SUB_RANK, WT_SUB_MRANK, WT_SUB_MSIZE, WT_SUB_SUM,
  WT_HALF_RANK, WT_HALF_MRANK, WT_HALF_MSIZE, WT_HALF_SUM,
  WT_FN_RANK, WT_FN_SIZE, WT_STORE, WT_COPY,
  WIDE_SLOTS
};

#endif /* CUEMU_TESTS_GROUPS_WIDE_LAYOUT_H */
