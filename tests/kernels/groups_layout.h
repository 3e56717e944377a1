/*
 * groups_layout.h: what tests/kernels/groups_*.cu write and
 * tests/check_groups.c checks: the per-thread input values and the slot of
 * each result in a thread's row of the output. Included by both (C and
 * CUDA C++).
 */
#ifndef CUEMU_TESTS_GROUPS_LAYOUT_H
#define CUEMU_TESTS_GROUPS_LAYOUT_H

#ifdef __cplusplus
#define GROUPS_HD __host__ __device__
#else
#define GROUPS_HD
#endif

/* The input value of the thread of block rank r. */
GROUPS_HD static inline unsigned groups_mix(unsigned r) {
  unsigned x = r * 2654435761u + 0x9e3779b9u;
  x ^= x >> 15;
  x *= 2246822519u;
  x ^= x >> 13;
  return x;
}

/* Slots of a thread's row in the output of groups_tile_N (one row of
 * TILE_SLOTS long longs per thread of the block, by block rank). Floating
 * results are stored as their bits. */
enum {
  T_RANK, T_NUM, T_SIZE, T_MRANK, T_MSIZE,
  T_SHFL, T_SHFL_DOWN, T_SHFL_UP, T_SHFL_XOR, T_SHFL_DOWN_D,
  T_BALLOT, T_ANY, T_ALL, T_MATCH_ANY, T_MATCH_ALL, T_MATCH_ALL_PRED,
  T_SUM, T_MIN, T_MAX, T_AND, T_OR, T_XOR, T_FSUM, T_DSUM, T_LMAX,
  T_ISCAN, T_ESCAN, T_FISCAN, T_EGREATER, T_IMIN, T_FESCAN,
  T_VOID_MRANK, T_VOID_MSIZE, T_GROUP_RANK, T_GROUP_SIZE,
  T_SUB_RANK, T_SUB_MRANK, T_SUB_MSIZE, T_SUB_SUM,
  T_DYN_RANK, T_DYN_SIZE, T_DYN2_RANK, T_DYN2_SIZE,
  T_FN_RANK, T_FN_SIZE, T_STRUCT_A, T_STRUCT_B,
  TILE_SLOTS
};

/* Slots of a thread's row in the output of groups_coalesced (threads that
 * are not in the branch leave their row as it was). */
enum {
  C_SIZE, C_RANK, C_MRANK, C_MSIZE,
  C_SHFL, C_SHFL0, C_SHFL_DOWN, C_SHFL_UP,
  C_BALLOT, C_ANY, C_ALL, C_MATCH_ANY, C_MATCH_ALL, C_MATCH_ALL_PRED,
  C_SUM, C_MIN, C_MAX, C_XOR, C_FSUM, C_DSUM,
  C_ISCAN, C_ESCAN, C_FESCAN, C_IMIN,
  C_TILE_SIZE, C_TILE_RANK, C_TILE_MRANK, C_TILE_MSIZE, C_TILE_SUM,
  C_LABEL_SIZE, C_LABEL_RANK, C_LABEL_MRANK, C_LABEL_MSIZE, C_LABEL_SUM,
  C_BIN_SIZE, C_BIN_RANK, C_BIN_MRANK, C_BIN_MSIZE,
  C_ACTIVE,
  COALESCED_SLOTS
};

#endif /* CUEMU_TESTS_GROUPS_LAYOUT_H */
