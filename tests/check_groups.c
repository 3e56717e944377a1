/*
 * check_groups.c: cooperative groups (cooperative_groups.h, reduce.h,
 * scan.h, memcpy_async.h) against expectations computed here, on the host:
 * every operation of thread_block_tile<N> for N = 1 ... 32 and of the
 * dynamic tiles, in full and partial warps and 1-D, 2-D and 3-D blocks;
 * coalesced groups in divergent branches with sparse masks, with their
 * partitions; memcpy_async; and misuse, which ends the launch with a
 * message naming the kernel's source line. Also the warp and block
 * collectives of examples/programs/collectives/collectives.cuh, with any mask
 * and every block size from 1 to 1024 threads in 1-D, 2-D and 3-D shapes.
 * Then the tiles wider than a warp (thread_block_tile<64> ... <1024>):
 * every operation on every block shape that is a whole number of tiles,
 * under several schedules, nested tiles, and their misuse; and
 * cuda::barrier with cuda::memcpy_async (<cuda/barrier>). The kernels are
 * tests/kernels/groups_*.cu, collectives_*.cu and cuda_barrier.cu (layouts
 * in groups_layout.h, groups_wide_layout.h and collectives_layout.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuemu/cuemu.h>

#include "check_suites.h"
#include "cuemu_test_util.h"
#include "kernels/collectives_layout.h"
#include "kernels/groups_layout.h"
#include "kernels/groups_wide_layout.h"

/* ---- Helpers --------------------------------------------------------------- */

/* The kernel files that the suite builds with g++ and with clang++ (see
 * test_compiler), built as one module per compiler
 * (test_module_combined): one build of the three costs about two thirds
 * of three (g++: 5.8 s of CPU instead of 9.4; with --check=all, 8.8
 * instead of 12.3). */
static const char *const combined_files[] = {
    "groups_tiles.cu", "groups_coalesced.cu", "groups_wide.cu", NULL};

/* The module that holds the kernels of `file` built with compiler `cxx`:
 * the combined module for the files of combined_files, else the file's
 * own. */
static cuemu_module *groups_module(const char *file, const char *cxx) {
  for (int i = 0; combined_files[i]; ++i)
    if (strcmp(file, combined_files[i]) == 0)
      return test_module_combined("groups_combined.cu", combined_files, cxx);
  return test_module_cxx(file, cxx, NULL, 0);
}

static void launch_ok(cuemu_module *m, const char *name, cuemu_dim3 grid,
                      cuemu_dim3 block, void **args, int nargs) {
  cuemu_status st = cuemu_kernel_launch(test_kernel(m, name), grid, block, 0,
                                        NULL, args, nargs);
  ck_assert_msg(st == CUEMU_SUCCESS, "%s <<<(%u,%u,%u), (%u,%u,%u)>>>: %s: %s",
                name, grid.x, grid.y, grid.z, block.x, block.y, block.z,
                cuemu_status_name(st), cuemu_last_message());
}

static long long fbits(float f) {
  unsigned u;
  memcpy(&u, &f, sizeof u);
  return (long long)u;
}

static long long dbits(double d) {
  long long u;
  memcpy(&u, &d, sizeof u);
  return u;
}

/* The inputs of the thread of block rank r, as the kernels compute them. */
static unsigned in_u(unsigned r) { return groups_mix(r); }
static int in_i(unsigned r) { return (int)(groups_mix(r) % 1000u) - 500; }
static float in_f(unsigned r) {
  return (float)(groups_mix(r) % 100000u) / 7.0f;
}
static double in_d(unsigned r) { return (double)groups_mix(r) / 3.0; }

/* Compares one slot and says which thread, slot and launch differ. */
#define EXPECT(row, slot, want, what)                                         \
  ck_assert_msg((row)[slot] == (long long)(want),                             \
                "%s: thread %u: slot %s: got %lld (0x%llx), expected %lld "   \
                "(0x%llx)",                                                   \
                what, r, #slot, (row)[slot], (unsigned long long)(row)[slot], \
                (long long)(want), (unsigned long long)(long long)(want))

/* ---- Static and dynamic tiles ---------------------------------------------- */

/* A tile: its first block rank and how many of its N members exist. */
typedef struct tile_shape {
  unsigned n, base, exist;
} tile_shape;

static tile_shape tile_of(unsigned n, unsigned r, unsigned size) {
  tile_shape t;
  t.n = n;
  t.base = r & ~(n - 1);
  t.exist = size - t.base < n ? size - t.base : n;
  return t;
}

/* Member k's value of u, or mine when member k does not exist (the
 * runtime's rule for a source lane outside the mask). */
static unsigned member_u(tile_shape t, unsigned k, unsigned r) {
  return k < t.exist ? in_u(t.base + k) : in_u(r);
}

/* The butterfly sum (shfl_xor from n/2 down to 1) of float or double values
 * over the existing members, with the caller's own value for a missing
 * partner, as the runtime computes it; result for member `me`. */
static float butterfly_f(tile_shape t, unsigned me) {
  float v[32], nv[32];
  for (unsigned k = 0; k < t.exist; ++k)
    v[k] = in_f(t.base + k);
  for (unsigned d = t.n >> 1; d > 0; d >>= 1) {
    for (unsigned k = 0; k < t.exist; ++k)
      nv[k] = v[k] + ((k ^ d) < t.exist ? v[k ^ d] : v[k]);
    memcpy(v, nv, sizeof v);
  }
  return v[me];
}

static double butterfly_d(tile_shape t, unsigned me) {
  double v[32], nv[32];
  for (unsigned k = 0; k < t.exist; ++k)
    v[k] = in_d(t.base + k);
  for (unsigned d = t.n >> 1; d > 0; d >>= 1) {
    for (unsigned k = 0; k < t.exist; ++k)
      nv[k] = v[k] + ((k ^ d) < t.exist ? v[k ^ d] : v[k]);
    memcpy(v, nv, sizeof v);
  }
  return v[me];
}

static int butterfly_max(tile_shape t, unsigned me) {
  int v[32], nv[32];
  for (unsigned k = 0; k < t.exist; ++k)
    v[k] = in_i(t.base + k);
  for (unsigned d = t.n >> 1; d > 0; d >>= 1) {
    for (unsigned k = 0; k < t.exist; ++k) {
      int other = (k ^ d) < t.exist ? v[k ^ d] : v[k];
      nv[k] = v[k] > other ? v[k] : other;
    }
    memcpy(v, nv, sizeof v);
  }
  return v[me];
}

/* The Hillis-Steele inclusive float sum over ranks 0..count-1 of values
 * vals[], out = out + lower at distances 1, 2, 4, ... below `size`. */
static void hillis_steele_f(float *v, unsigned count, unsigned size) {
  float nv[32];
  for (unsigned i = 1; i < size; i <<= 1) {
    for (unsigned k = 0; k < count; ++k)
      nv[k] = i <= k ? v[k] + v[k - i] : v[k];
    memcpy(v, nv, sizeof nv);
  }
}

static void check_tile_row(const long long *o, unsigned n, unsigned r,
                           unsigned size, int delta, unsigned xmask,
                           int srcbase, const char *what) {
  tile_shape t = tile_of(n, r, size);
  unsigned k = r - t.base, u = in_u(r);
  EXPECT(o, T_RANK, k, what);
  EXPECT(o, T_NUM, n, what);
  EXPECT(o, T_SIZE, n, what);
  EXPECT(o, T_MRANK, r / n, what);
  EXPECT(o, T_MSIZE, (size + n - 1) / n, what);

  EXPECT(o, T_SHFL, member_u(t, (r * 7u + (unsigned)srcbase) % n, r), what);
  EXPECT(o, T_SHFL_DOWN,
         k + (unsigned)delta < n ? member_u(t, k + (unsigned)delta, r) : u,
         what);
  EXPECT(o, T_SHFL_UP,
         k >= (unsigned)delta ? member_u(t, k - (unsigned)delta, r) : u, what);
  EXPECT(o, T_SHFL_XOR, member_u(t, k ^ xmask, r), what);
  EXPECT(o, T_SHFL_DOWN_D,
         dbits(k + 1 < t.exist ? in_d(r + 1) : in_d(r)), what);

  unsigned ballot = 0, any = 0, all = 1, match = 0, all_same = 1;
  int sum = 0, mn = 1 << 30, mx = -(1 << 30);
  unsigned band = ~0u, bor = 0, bxor = 0;
  for (unsigned j = 0; j < t.exist; ++j) {
    unsigned rj = t.base + j, uj = in_u(rj);
    int ij = in_i(rj);
    ballot |= (uj & 1u) << j;
    any |= uj % 5u == 0;
    all &= rj % 3u != 2u || (rj / n) % 2u == 0;
    if (uj % 3u == u % 3u)
      match |= 1u << j;
    unsigned lab_j = (rj / n) % 2u ? rj : 7u, lab_0 = (t.base / n) % 2u ? t.base : 7u;
    all_same &= lab_j == lab_0;
    sum += ij;
    mn = ij < mn ? ij : mn;
    mx = ij > mx ? ij : mx;
    band &= uj;
    bor |= uj;
    bxor ^= uj;
  }
  unsigned exist_mask = t.exist == 32 ? ~0u : (1u << t.exist) - 1u;
  EXPECT(o, T_BALLOT, ballot, what);
  EXPECT(o, T_ANY, any, what);
  EXPECT(o, T_ALL, all, what);
  EXPECT(o, T_MATCH_ANY, match, what);
  EXPECT(o, T_MATCH_ALL, all_same ? exist_mask : 0u, what);
  EXPECT(o, T_MATCH_ALL_PRED, all_same, what);
  EXPECT(o, T_SUM, sum, what);
  EXPECT(o, T_MIN, mn, what);
  EXPECT(o, T_MAX, mx, what);
  EXPECT(o, T_AND, band, what);
  EXPECT(o, T_OR, bor, what);
  EXPECT(o, T_XOR, bxor, what);
  EXPECT(o, T_FSUM, fbits(butterfly_f(t, k)), what);
  EXPECT(o, T_DSUM, dbits(butterfly_d(t, k)), what);
  EXPECT(o, T_LMAX, butterfly_max(t, k), what);

  int isum = 0, imin = 1 << 30;
  unsigned emax = 0;
  for (unsigned j = 0; j <= k; ++j) {
    isum += in_i(t.base + j);
    imin = in_i(t.base + j) < imin ? in_i(t.base + j) : imin;
    if (j < k)
      emax = in_u(t.base + j) > emax ? in_u(t.base + j) : emax;
  }
  float fs[32];
  for (unsigned j = 0; j < t.exist; ++j)
    fs[j] = in_f(t.base + j);
  hillis_steele_f(fs, t.exist, n);
  EXPECT(o, T_ISCAN, isum, what);
  EXPECT(o, T_ESCAN, isum - in_i(r), what);
  EXPECT(o, T_FISCAN, fbits(fs[k]), what);
  EXPECT(o, T_EGREATER, emax, what);
  EXPECT(o, T_IMIN, imin, what);
  EXPECT(o, T_FESCAN, fbits(k ? fs[k - 1] : 0.0f), what);

  EXPECT(o, T_VOID_MRANK, r / n, what);
  EXPECT(o, T_VOID_MSIZE, (size + n - 1) / n, what);
  EXPECT(o, T_GROUP_RANK, k, what);
  EXPECT(o, T_GROUP_SIZE, n, what);

  if (n >= 2) {
    tile_shape s = tile_of(n / 2, r, size);
    int ssum = 0;
    for (unsigned j = 0; j < s.exist; ++j)
      ssum += in_i(s.base + j);
    EXPECT(o, T_SUB_RANK, r & (n / 2 - 1), what);
    EXPECT(o, T_SUB_MRANK, k / (n / 2), what);
    EXPECT(o, T_SUB_MSIZE, 2, what);
    EXPECT(o, T_SUB_SUM, ssum, what);
  } else {
    EXPECT(o, T_SUB_RANK, -1, what);
    EXPECT(o, T_SUB_SUM, -1, what);
  }

  /* tiled_partition(block, n): n consecutive ranks, fewer at the end of
   * the block; then tiled_partition(that, n / 2) of its ranks. */
  EXPECT(o, T_DYN_RANK, k, what);
  EXPECT(o, T_DYN_SIZE, t.exist, what);
  unsigned half = n >= 2 ? n / 2 : 1;
  if (t.exist <= half) {
    EXPECT(o, T_DYN2_RANK, k, what);
    EXPECT(o, T_DYN2_SIZE, t.exist, what);
  } else {
    unsigned hb = k & ~(half - 1);
    EXPECT(o, T_DYN2_RANK, k & (half - 1), what);
    EXPECT(o, T_DYN2_SIZE, t.exist - hb < half ? t.exist - hb : half, what);
  }
  EXPECT(o, T_FN_RANK, k, what);
  EXPECT(o, T_FN_SIZE, n, what);
  unsigned src = (k + 1) % n;
  unsigned rs = src < t.exist ? t.base + src : r;
  EXPECT(o, T_STRUCT_A, dbits(in_d(rs)), what);
  EXPECT(o, T_STRUCT_B, (long long)in_u(rs) * 3, what);
}

static const unsigned tile_sizes[] = {1, 2, 4, 8, 16, 32};

/* Block shapes: full and partial warps, 1-D, 2-D and 3-D. */
static const cuemu_dim3 tile_blocks[] = {
    {1, 1, 1}, {20, 1, 1}, {32, 1, 1}, {33, 1, 1},  {64, 1, 1},
    {8, 4, 3}, {5, 3, 2},  {7, 7, 7},  {16, 2, 1}, {1024, 1, 1},
};

static void run_tiles(const char *cxx) {
  cuemu_module *m = groups_module("groups_tiles.cu", cxx);
  size_t nb = sizeof tile_blocks / sizeof tile_blocks[0];
  for (size_t b = 0; b < nb; ++b) {
    cuemu_dim3 blk = tile_blocks[b];
    unsigned size = blk.x * blk.y * blk.z;
    long long *out = malloc((size_t)size * TILE_SLOTS * sizeof *out);
    ck_assert_ptr_nonnull(out);
    for (size_t s = 0; s < sizeof tile_sizes / sizeof tile_sizes[0]; ++s) {
      unsigned n = tile_sizes[s];
      int delta = 1 + (int)(b % 3);
      unsigned xmask = (unsigned)(b * 5 + 1) % n;
      int srcbase = (int)b;
      char name[64], what[160];
      snprintf(name, sizeof name, "groups_tile_%u", n);
      snprintf(what, sizeof what, "%s (%s) block (%u,%u,%u)", name,
               cxx ? cxx : "c++", blk.x, blk.y, blk.z);
      memset(out, 0xa5, (size_t)size * TILE_SLOTS * sizeof *out);
      void *args[] = {&out, &delta, &xmask, &srcbase};
      launch_ok(m, name, test_dim(1, 1, 1), blk, args, 4);
      for (unsigned r = 0; r < size; ++r)
        check_tile_row(out + (size_t)r * TILE_SLOTS, n, r, size, delta, xmask,
                       srcbase, what);
    }
    free(out);
  }
  cuemu_module_unload(m);
}

/* With g++, then clang++ (see test_compiler). */
START_TEST(tiles_each_compiler) {
  const char *cxx = test_compiler(_i);
  if (cxx)
    run_tiles(cxx);
}
END_TEST

/* ---- Coalesced groups ------------------------------------------------------ */

/* A coalesced group of a warp: its members' block ranks in lane order. */
typedef struct cgroup {
  unsigned n, rank[32];
} cgroup;

static cgroup cgroup_of(unsigned warp_base, unsigned lanes) {
  cgroup g;
  g.n = 0;
  for (unsigned l = 0; l < 32; ++l)
    if (lanes >> l & 1u)
      g.rank[g.n++] = warp_base + l;
  return g;
}

static unsigned cg_rank_of(const cgroup *g, unsigned r) {
  for (unsigned k = 0; k < g->n; ++k)
    if (g->rank[k] == r)
      return k;
  ck_abort_msg("thread %u is not in its group", r);
  return 0;
}

/* The float (double) sum CUDA's algorithm gives: a butterfly over a full
 * warp, else the Hillis-Steele scan over the ranks, read at the last. */
static float cg_fsum(const cgroup *g) {
  float v[32];
  for (unsigned k = 0; k < g->n; ++k)
    v[k] = in_f(g->rank[k]);
  if (g->n == 32) {
    tile_shape t = {32, g->rank[0], 32};
    return butterfly_f(t, 0);
  }
  hillis_steele_f(v, g->n, g->n);
  return v[g->n - 1];
}

static double cg_dsum(const cgroup *g) {
  double v[32], nv[32];
  for (unsigned k = 0; k < g->n; ++k)
    v[k] = in_d(g->rank[k]);
  if (g->n == 32) {
    tile_shape t = {32, g->rank[0], 32};
    return butterfly_d(t, 0);
  }
  for (unsigned i = 1; i < g->n; i <<= 1) {
    for (unsigned k = 0; k < g->n; ++k)
      nv[k] = i <= k ? v[k] + v[k - i] : v[k];
    memcpy(v, nv, sizeof nv);
  }
  return v[g->n - 1];
}

/* The members of g whose key (a function of the block rank) equals mine. */
static unsigned lanes_with(const cgroup *g, unsigned r,
                           unsigned (*key)(unsigned)) {
  unsigned lanes = 0;
  for (unsigned k = 0; k < g->n; ++k)
    if (key(g->rank[k]) == key(r))
      lanes |= 1u << (g->rank[k] % 32u);
  return lanes;
}

static unsigned key_mod3(unsigned r) { return in_u(r) % 3u; }
static unsigned key_odd(unsigned r) { return in_u(r) & 1u; }

static void check_coalesced_row(const long long *o, unsigned r,
                                unsigned block_size, unsigned pattern,
                                const char *what) {
  unsigned base = r & ~31u;
  unsigned exist = block_size - base >= 32 ? ~0u : (1u << (block_size - base)) - 1u;
  unsigned lanes = (pattern >> (r % 32u) & 1u ? pattern : ~pattern) & exist;
  cgroup g = cgroup_of(base, lanes);
  unsigned k = cg_rank_of(&g, r), u = in_u(r);
  EXPECT(o, C_SIZE, g.n, what);
  EXPECT(o, C_RANK, k, what);
  EXPECT(o, C_MRANK, 0, what);
  EXPECT(o, C_MSIZE, 1, what);
  EXPECT(o, C_SHFL, in_u(g.rank[(k * 5u + 1u) % g.n]), what);
  EXPECT(o, C_SHFL0, in_u(g.rank[0]), what);
  EXPECT(o, C_SHFL_DOWN, k + 2 < g.n ? in_u(g.rank[k + 2]) : u, what);
  EXPECT(o, C_SHFL_UP, k >= 3 ? in_u(g.rank[k - 3]) : u, what);

  unsigned ballot = 0, any = 0, all = 1, match = 0, octets_same = 1;
  int sum = 0, mn = 1 << 30, mx = -(1 << 30), isum = 0, imin = 1 << 30;
  unsigned bxor = 0;
  for (unsigned j = 0; j < g.n; ++j) {
    unsigned rj = g.rank[j], uj = in_u(rj);
    int ij = in_i(rj);
    ballot |= (uj & 1u) << j;
    any |= uj % 5u == 0;
    all &= ij > -400;
    match |= (uj % 3u == u % 3u) << j;
    octets_same &= (rj % 32u) / 8u == (g.rank[0] % 32u) / 8u;
    sum += ij;
    mn = ij < mn ? ij : mn;
    mx = ij > mx ? ij : mx;
    bxor ^= uj;
    if (j <= k) {
      isum += ij;
      imin = ij < imin ? ij : imin;
    }
  }
  unsigned all_ranks = g.n == 32 ? ~0u : (1u << g.n) - 1u;
  EXPECT(o, C_BALLOT, ballot, what);
  EXPECT(o, C_ANY, any, what);
  EXPECT(o, C_ALL, all, what);
  EXPECT(o, C_MATCH_ANY, match, what);
  EXPECT(o, C_MATCH_ALL, octets_same ? all_ranks : 0u, what);
  EXPECT(o, C_MATCH_ALL_PRED, octets_same, what);
  EXPECT(o, C_SUM, sum, what);
  EXPECT(o, C_MIN, mn, what);
  EXPECT(o, C_MAX, mx, what);
  EXPECT(o, C_XOR, bxor, what);
  EXPECT(o, C_FSUM, fbits(cg_fsum(&g)), what);
  EXPECT(o, C_DSUM, dbits(cg_dsum(&g)), what);
  EXPECT(o, C_ISCAN, isum, what);
  EXPECT(o, C_ESCAN, isum - in_i(r), what);
  float fs[32];
  for (unsigned j = 0; j < g.n; ++j)
    fs[j] = in_f(g.rank[j]);
  hillis_steele_f(fs, g.n, g.n);
  EXPECT(o, C_FESCAN, fbits(k ? fs[k - 1] : 0.0f), what);
  EXPECT(o, C_IMIN, imin, what);

  /* tiled_partition(g, 4): ranks 4q ... 4q + 3. */
  if (g.n <= 4) {
    EXPECT(o, C_TILE_SIZE, g.n, what);
    EXPECT(o, C_TILE_RANK, k, what);
    EXPECT(o, C_TILE_MRANK, 0, what);
    EXPECT(o, C_TILE_MSIZE, 1, what);
    EXPECT(o, C_TILE_SUM, sum, what);
  } else {
    unsigned first = k / 4 * 4, count = g.n - first < 4 ? g.n - first : 4;
    int tsum = 0;
    for (unsigned j = first; j < first + count; ++j)
      tsum += in_i(g.rank[j]);
    EXPECT(o, C_TILE_SIZE, count, what);
    EXPECT(o, C_TILE_RANK, k % 4, what);
    EXPECT(o, C_TILE_MRANK, k / 4, what);
    EXPECT(o, C_TILE_MSIZE, (g.n + 3) / 4, what);
    EXPECT(o, C_TILE_SUM, tsum, what);
  }

  /* labeled_partition(g, u % 3): groups ordered by their lowest lane. */
  unsigned same = lanes_with(&g, r, key_mod3);
  unsigned leaders = 0;
  int lsum = 0;
  for (unsigned j = 0; j < g.n; ++j) {
    unsigned lj = lanes_with(&g, g.rank[j], key_mod3);
    leaders |= lj & -lj;
    if (lj == same)
      lsum += in_i(g.rank[j]);
  }
  unsigned lowest = same & -same;
  EXPECT(o, C_LABEL_SIZE, __builtin_popcount(same), what);
  EXPECT(o, C_LABEL_RANK, __builtin_popcount(same & ((1u << (r % 32u)) - 1u)),
         what);
  EXPECT(o, C_LABEL_MRANK, __builtin_popcount(leaders & (lowest - 1u)), what);
  EXPECT(o, C_LABEL_MSIZE, __builtin_popcount(leaders), what);
  EXPECT(o, C_LABEL_SUM, lsum, what);

  /* binary_partition(g, u & 1). */
  unsigned side = lanes_with(&g, r, key_odd);
  if (side == lanes) {
    EXPECT(o, C_BIN_SIZE, g.n, what);
    EXPECT(o, C_BIN_RANK, k, what);
    EXPECT(o, C_BIN_MRANK, 0, what);
    EXPECT(o, C_BIN_MSIZE, 1, what);
  } else {
    EXPECT(o, C_BIN_SIZE, __builtin_popcount(side), what);
    EXPECT(o, C_BIN_RANK, __builtin_popcount(side & ((1u << (r % 32u)) - 1u)),
           what);
    EXPECT(o, C_BIN_MRANK, u & 1u, what);
    EXPECT(o, C_BIN_MSIZE, 2, what);
  }
  EXPECT(o, C_ACTIVE, all_ranks, what);
}

static const unsigned coalesced_patterns[] = {
    0xffffffffu, 0x80000001u, 0x0000ffffu, 0xaaaaaaaau,
    0x00000100u, 0x12345678u, 0xfffffffeu, 0x00000007u,
};

static const cuemu_dim3 coalesced_blocks[] = {
    {32, 1, 1}, {48, 1, 1}, {8, 8, 1}, {4, 4, 4}, {5, 1, 1}, {3, 5, 7},
};

static void run_coalesced(const char *cxx) {
  cuemu_module *m = groups_module("groups_coalesced.cu", cxx);
  unsigned nblocks = sizeof coalesced_patterns / sizeof coalesced_patterns[0];
  const unsigned *patterns = coalesced_patterns;
  for (size_t b = 0; b < sizeof coalesced_blocks / sizeof coalesced_blocks[0];
       ++b) {
    cuemu_dim3 blk = coalesced_blocks[b];
    unsigned size = blk.x * blk.y * blk.z;
    size_t rows = (size_t)size * nblocks;
    long long *out = malloc(rows * COALESCED_SLOTS * sizeof *out);
    ck_assert_ptr_nonnull(out);
    memset(out, 0xa5, rows * COALESCED_SLOTS * sizeof *out);
    void *args[] = {&out, &patterns};
    launch_ok(m, "groups_coalesced", test_dim(nblocks, 1, 1), blk, args, 2);
    for (unsigned p = 0; p < nblocks; ++p) {
      char what[160];
      snprintf(what, sizeof what,
               "groups_coalesced (%s) block (%u,%u,%u) pattern 0x%08x",
               cxx ? cxx : "c++", blk.x, blk.y, blk.z, patterns[p]);
      for (unsigned r = 0; r < size; ++r)
        check_coalesced_row(out + ((size_t)p * size + r) * COALESCED_SLOTS, r,
                            size, patterns[p], what);
    }
    free(out);
  }
  cuemu_module_unload(m);
}

/* With g++, then clang++ (see test_compiler). */
START_TEST(coalesced_each_compiler) {
  const char *cxx = test_compiler(_i);
  if (cxx)
    run_coalesced(cxx);
}
END_TEST

/* ---- memcpy_async -------------------------------------------------------- */

START_TEST(memcpy_async_block_and_tile) {
  cuemu_module *m = test_module("groups_misc.cu");
  static const struct {
    unsigned threads;
    int n;
  } cases[] = {{128, 1000}, {64, 64}, {96, 7}, {1, 5}, {1024, 1024}, {50, 333}};
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
    unsigned blocks = 3;
    int n = cases[c].n;
    int *src = malloc(sizeof(int) * n * blocks);
    int *dst = malloc(sizeof(int) * n * blocks);
    ck_assert(src && dst);
    for (int k = 0; k < n * (int)blocks; ++k) {
      src[k] = (int)groups_mix((unsigned)k) % 100000;
      dst[k] = -1;
    }
    void *args[] = {&src, &dst, &n};
    launch_ok(m, "groups_memcpy", test_dim(blocks, 1, 1),
              test_dim(cases[c].threads, 1, 1), args, 3);
    for (unsigned b = 0; b < blocks; ++b) {
      for (int k = 0; k < n; ++k) {
        int want = src[b * n + (n - 1 - k)] * 2;
        ck_assert_msg(dst[b * n + k] == want,
                      "%u threads, n %d: block %u element %d: got %d, "
                      "expected %d",
                      cases[c].threads, n, b, k, dst[b * n + k], want);
      }
    }
    free(src);
    free(dst);
  }
  cuemu_module_unload(m);
}
END_TEST

/* ---- Misuse ----------------------------------------------------------------- */

/* Launches `kernel` (one block of `threads`) and expects `status` with a
 * message that contains each of the non-NULL strings. */
static void expect_failure(const char *kernel, unsigned threads,
                           cuemu_status status, void **args, int nargs,
                           const char *s1, const char *s2, const char *s3) {
  cuemu_module *m = test_module("groups_misc.cu");
  cuemu_status st = cuemu_kernel_launch(test_kernel(m, kernel),
                                        test_dim(1, 1, 1),
                                        test_dim(threads, 1, 1), 0, NULL,
                                        args, nargs);
  const char *msg = cuemu_last_message();
  ck_assert_msg(st == status, "%s: got %s, expected %s: %s", kernel,
                cuemu_status_name(st), cuemu_status_name(status), msg);
  const char *want[] = {s1, s2, s3};
  for (int i = 0; i < 3; ++i)
    ck_assert_msg(!want[i] || strstr(msg, want[i]),
                  "%s: the message lacks \"%s\": %s", kernel, want[i], msg);
  cuemu_module_unload(m);
}

/* The line of tests/kernels/FILE that carries `mark`, as "FILE:LINE". */
static char *marked(const char *file, const char *mark) {
  static char buf[4][96];
  static int next;
  int found = test_marker_line(file, mark);
  char *b = buf[next++ % 4];
  snprintf(b, sizeof buf[0], "%s:%d", file, found);
  return b;
}

/* CUDA's rule for collectives: a member that has exited takes no part
 * (groups_misc.cu's groups_misuse_exit is legal): the others sync. */
START_TEST(exited_tile_member_takes_no_part) {
  int out[8], *po = out;
  void *args[] = {&po};
  memset(out, 0, sizeof out);
  expect_failure("groups_misuse_exit", 8, CUEMU_SUCCESS, args, 1, NULL, NULL,
                 NULL);
  for (int t = 0; t < 8; ++t)
    ck_assert_int_eq(out[t], t == 3 ? 0 : 1);
}
END_TEST

START_TEST(misuse_divergent_tile) {
  int out[32], *po = out;
  void *args[] = {&po};
  expect_failure("groups_misuse_diverge", 32, CUEMU_WARP_MISUSE, args, 1,
                 "0xffffffff", NULL, NULL);
  const char *msg = cuemu_last_message();
  ck_assert_msg(strstr(msg, marked("groups_misc.cu", "MISUSE-SHFL")) ||
                    strstr(msg, marked("groups_misc.cu", "MISUSE-BALLOT")),
                "the message names neither call: %s", msg);
}
END_TEST

START_TEST(misuse_tile_size) {
  int out[32], *po = out;
  unsigned size = 3;
  void *args[] = {&po, &size};
  expect_failure("groups_misuse_size", 32, CUEMU_ASSERT, args, 2,
                 "tiled_partition", marked("groups_misc.cu", "MISUSE-SIZE"), NULL);
  size = 64;
  expect_failure("groups_misuse_size", 64, CUEMU_ASSERT, args, 2,
                 "power of two from 1 to 32", NULL, NULL);
}
END_TEST

/* A member of a coalesced group that returned before the group shuffles
 * takes no part; the others read rank 1 (thread 1). */
START_TEST(exited_coalesced_member_takes_no_part) {
  int out[32], *po = out;
  void *args[] = {&po};
  memset(out, 0, sizeof out);
  expect_failure("groups_misuse_coalesced", 32, CUEMU_SUCCESS, args, 1, NULL,
                 NULL, NULL);
  for (int t = 0; t < 32; ++t)
    ck_assert_int_eq(out[t], t < 4 && t != 2 ? 1 : 0);
}
END_TEST

/* ---- collectives.cuh: warps -------------------------------------------------- */

/* The floating-point warp sum collectives.cuh computes over the values v[]
 * of the n named lanes (in lane order): a butterfly over a full warp, else
 * a pairwise tree over the ranks. */
static double warp_dsum(const double *v0, unsigned n) {
  double v[32], nv[32];
  memcpy(v, v0, n * sizeof *v);
  if (n == 32) {
    for (unsigned d = 16; d > 0; d >>= 1) {
      for (unsigned k = 0; k < 32; ++k)
        nv[k] = v[k] + v[k ^ d];
      memcpy(v, nv, sizeof v);
    }
    return v[0];
  }
  for (unsigned step = 1; step < n; step <<= 1)
    for (unsigned k = 0; k + step < n; k += 2 * step)
      v[k] = v[k] + v[k + step];
  return v[0];
}

static float warp_fsum(const float *v0, unsigned n) {
  float v[32], nv[32];
  memcpy(v, v0, n * sizeof *v);
  if (n == 32) {
    for (unsigned d = 16; d > 0; d >>= 1) {
      for (unsigned k = 0; k < 32; ++k)
        nv[k] = v[k] + v[k ^ d];
      memcpy(v, nv, sizeof v);
    }
    return v[0];
  }
  for (unsigned step = 1; step < n; step <<= 1)
    for (unsigned k = 0; k + step < n; k += 2 * step)
      v[k] = v[k] + v[k + step];
  return v[0];
}

/* The Hillis-Steele inclusive double sum over n values, in place. */
static void hillis_steele_d(double *v, unsigned n) {
  double nv[32];
  for (unsigned i = 1; i < n; i <<= 1) {
    for (unsigned k = 0; k < n; ++k)
      nv[k] = i <= k ? v[k] + v[k - i] : v[k];
    memcpy(v, nv, n * sizeof *v);
  }
}

static void check_warp_lanes(const long long *out, unsigned b,
                             unsigned block_size, unsigned base,
                             unsigned mask, const char *what) {
  unsigned rank[32], n = 0;
  for (unsigned l = 0; l < 32; ++l)
    if (mask >> l & 1u)
      rank[n++] = base + l;
  if (n == 0)
    return;
  int isum = 0, imin = 1 << 30, imax = -(1 << 30);
  unsigned usum = 0, umax = 0;
  unsigned long long llsum = 0, ullmax = 0;
  long long llmin = 0;
  double dv[32], dmin = 0, dinc[32];
  float fv[32], finc[32];
  for (unsigned k = 0; k < n; ++k) {
    unsigned r = rank[k];
    int i = coll_i(b, r);
    long long ll = coll_ll(b, r);
    isum += i;
    imin = i < imin ? i : imin;
    imax = i > imax ? i : imax;
    usum += coll_u(b, r);
    umax = coll_u(b, r) > umax ? coll_u(b, r) : umax;
    llsum += (unsigned long long)ll;
    llmin = k == 0 || ll < llmin ? ll : llmin;
    ullmax = (unsigned long long)ll > ullmax ? (unsigned long long)ll : ullmax;
    dv[k] = dinc[k] = coll_d(b, r);
    dmin = k == 0 || dv[k] < dmin ? dv[k] : dmin;
    fv[k] = finc[k] = coll_f(b, r);
  }
  hillis_steele_d(dinc, n);
  hillis_steele_f(finc, n, n);
  double dsum = warp_dsum(dv, n);
  float fsum = warp_fsum(fv, n);
  int iinc = 0;
  long long llinc = 0;
  for (unsigned k = 0; k < n; ++k) {
    unsigned r = rank[k];
    const long long *o = out + ((size_t)b * block_size + r) * WARP_SLOTS;
    iinc += coll_i(b, r);
    llinc = (long long)((unsigned long long)llinc +
                        (unsigned long long)coll_ll(b, r));
    EXPECT(o, W_ISUM, isum, what);
    EXPECT(o, W_IMIN, imin, what);
    EXPECT(o, W_IMAX, imax, what);
    EXPECT(o, W_USUM, usum, what);
    EXPECT(o, W_UMAX, umax, what);
    EXPECT(o, W_LLSUM, (long long)llsum, what);
    EXPECT(o, W_LLMIN, llmin, what);
    EXPECT(o, W_ULLMAX, (long long)ullmax, what);
    EXPECT(o, W_FSUM, fbits(fsum), what);
    EXPECT(o, W_DSUM, dbits(dsum), what);
    EXPECT(o, W_DMIN, dbits(dmin), what);
    EXPECT(o, W_IINC, iinc, what);
    EXPECT(o, W_IEXC, iinc - coll_i(b, r), what);
    EXPECT(o, W_LLINC, llinc, what);
    EXPECT(o, W_DINC, dbits(dinc[k]), what);
    EXPECT(o, W_FEXC, fbits(k ? finc[k - 1] : 0.0f), what);
  }
}

static const unsigned warp_masks[] = {
    0xffffffffu, 0x80000001u, 0x0000ffffu, 0xaaaaaaaau, 0x00000100u,
    0x12345678u, 0xfffffffeu, 0x7fffffffu, 0x00000003u, 0xf0f0f00fu,
};

static const cuemu_dim3 warp_blocks[] = {
    {32, 1, 1}, {64, 1, 1}, {20, 1, 1}, {8, 4, 2}, {7, 3, 3}, {1, 1, 1},
};

START_TEST(collectives_warp) {
  cuemu_module *m = test_module("collectives_warp.cu");
  unsigned nblocks = sizeof warp_masks / sizeof warp_masks[0];
  const unsigned *masks = warp_masks;
  for (size_t s = 0; s < sizeof warp_blocks / sizeof warp_blocks[0]; ++s) {
    cuemu_dim3 blk = warp_blocks[s];
    unsigned size = blk.x * blk.y * blk.z;
    size_t rows = (size_t)nblocks * size;
    long long *out = malloc(rows * WARP_SLOTS * sizeof *out);
    ck_assert_ptr_nonnull(out);
    void *args[] = {&out, &masks};
    launch_ok(m, "coll_warp", test_dim(nblocks, 1, 1), blk, args, 2);
    for (unsigned b = 0; b < nblocks; ++b) {
      for (unsigned base = 0; base < size; base += 32) {
        unsigned exist =
            size - base >= 32 ? ~0u : (1u << (size - base)) - 1u;
        char what[160];
        snprintf(what, sizeof what, "coll_warp block (%u,%u,%u) mask 0x%08x",
                 blk.x, blk.y, blk.z, masks[b] & exist);
        check_warp_lanes(out, b, size, base, masks[b] & exist, what);
      }
    }
    free(out);
  }
  long long out[64], *po = out;
  void *args[] = {&po};
  launch_ok(m, "coll_warp_default", test_dim(1, 1, 1), test_dim(32, 1, 1),
            args, 1);
  int sum = 0;
  for (unsigned r = 0; r < 32; ++r)
    sum += coll_i(0, r);
  for (unsigned r = 0, before = 0; r < 32; before += (unsigned)coll_i(0, r), ++r) {
    ck_assert_int_eq(out[2 * r], sum);
    ck_assert_int_eq(out[2 * r + 1], (int)before);
  }
  cuemu_module_unload(m);
}
END_TEST

/* ---- collectives.cuh: blocks ------------------------------------------------- */

static void check_block(const long long *out, unsigned b, unsigned size,
                        const char *what) {
  unsigned warps = (size + 31) / 32;
  double wd[32] = {0}, dtotal = 0;
  float wf[32] = {0}, ftotal = 0, fmax_ = 0;
  int isum = 0, imin = 1 << 30, imax = -(1 << 30);
  unsigned umin = ~0u;
  unsigned long long llsum = 0;
  double dinc[1024], dexc[1024], wsum[32];
  for (unsigned w = 0; w < warps; ++w) {
    unsigned n = size - w * 32 < 32 ? size - w * 32 : 32;
    double dv[32], dscan[32];
    float fv[32];
    for (unsigned k = 0; k < n; ++k) {
      unsigned r = w * 32 + k;
      dv[k] = dscan[k] = coll_d(b, r);
      fv[k] = coll_f(b, r);
      int i = coll_i(b, r);
      isum += i;
      imin = i < imin ? i : imin;
      imax = i > imax ? i : imax;
      umin = coll_u(b, r) < umin ? coll_u(b, r) : umin;
      llsum += (unsigned long long)coll_ll(b, r);
      fmax_ = r == 0 || fv[k] > fmax_ ? fv[k] : fmax_;
    }
    wd[w] = warp_dsum(dv, n);
    wf[w] = warp_fsum(fv, n);
    hillis_steele_d(dscan, n);
    for (unsigned k = 0; k < n; ++k) {
      dinc[w * 32 + k] = dscan[k];
      dexc[w * 32 + k] = k ? dscan[k - 1] : 0.0;
    }
    wsum[w] = dscan[n - 1];
  }
  dtotal = wd[0];
  ftotal = wf[0];
  for (unsigned w = 1; w < warps; ++w) {
    dtotal = dtotal + wd[w];
    ftotal = ftotal + wf[w];
  }
  hillis_steele_d(wsum, warps);
  int iinc = 0;
  long long llexc = 0;
  for (unsigned r = 0; r < size; ++r) {
    const long long *o = out + ((size_t)b * size + r) * BLOCK_SLOTS;
    unsigned w = r / 32;
    double offset = w ? wsum[w - 1] : 0.0;
    iinc += coll_i(b, r);
    EXPECT(o, B_ISUM, isum, what);
    EXPECT(o, B_IMIN, imin, what);
    EXPECT(o, B_IMAX, imax, what);
    EXPECT(o, B_DSUM, dbits(dtotal), what);
    EXPECT(o, B_FSUM, fbits(ftotal), what);
    EXPECT(o, B_FMAX, fbits(fmax_), what);
    EXPECT(o, B_LLSUM, (long long)llsum, what);
    EXPECT(o, B_UMIN, umin, what);
    EXPECT(o, B_IINC, iinc, what);
    EXPECT(o, B_IEXC, iinc - coll_i(b, r), what);
    EXPECT(o, B_DINC, dbits(offset + dinc[r]), what);
    EXPECT(o, B_DEXC, dbits(offset + dexc[r]), what);
    EXPECT(o, B_LLEXC, llexc, what);
    EXPECT(o, B_ISUM2, 3 * isum, what);
    EXPECT(o, B_THREAD, r, what);
    EXPECT(o, B_THREADS, size, what);
    llexc = (long long)((unsigned long long)llexc +
                        (unsigned long long)coll_ll(b, r));
  }
}

/* Launches coll_block with `blocks` blocks of shape blk and checks every
 * row and the global sums. */
static void run_block_shape(cuemu_module *m, unsigned blocks, cuemu_dim3 blk) {
  unsigned size = blk.x * blk.y * blk.z;
  size_t rows = (size_t)blocks * size;
  long long *out = malloc(rows * BLOCK_SLOTS * sizeof *out);
  ck_assert_ptr_nonnull(out);
  int isum = 5;
  unsigned long long usum = 0;
  long long llsum = 0;
  float fsum = 0;
  double dsum = 0;
  int *pi = &isum;
  unsigned long long *pu = &usum;
  long long *pll = &llsum;
  float *pf = &fsum;
  double *pd = &dsum;
  void *args[] = {&out, &pi, &pu, &pll, &pf, &pd};
  launch_ok(m, "coll_block", test_dim(blocks, 1, 1), blk, args, 6);
  char what[160];
  int want_i = 5;
  unsigned long long want_u = 0, want_ll = 0;
  double want_f = 0, want_d = 0, mag_d = 0;
  for (unsigned b = 0; b < blocks; ++b) {
    snprintf(what, sizeof what, "coll_block block %u of (%u,%u,%u)", b, blk.x,
             blk.y, blk.z);
    check_block(out, b, size, what);
    for (unsigned r = 0; r < size; ++r) {
      want_i += coll_i(b, r);
      want_u += coll_u(b, r);
      want_ll += (unsigned long long)coll_ll(b, r);
      want_f += coll_f(b, r);
      want_d += coll_d(b, r);
      mag_d += coll_d(b, r) < 0 ? -coll_d(b, r) : coll_d(b, r);
    }
  }
  ck_assert_int_eq(isum, want_i);
  ck_assert_uint_eq(usum, want_u);
  ck_assert_msg((unsigned long long)llsum == want_ll, "long long sum");
  ck_assert_msg(fsum - want_f < 1e-2 * size * blocks &&
                    want_f - fsum < 1e-2 * size * blocks,
                "float sum %g, expected %g", (double)fsum, want_f);
  ck_assert_msg(dsum - want_d <= 1e-12 * mag_d && want_d - dsum <= 1e-12 * mag_d,
                "double sum %.17g, expected %.17g", dsum, want_d);
  free(out);
}

START_TEST(collectives_block_sizes_1d) {
  cuemu_module *m = test_module("collectives_block.cu");
  /* Every size from 1 to 70, then a spread up to 1024. */
  for (unsigned n = 1; n <= 1024; n = n < 70 ? n + 1 : n + 37 + n / 8)
    run_block_shape(m, 2, test_dim(n, 1, 1));
  run_block_shape(m, 2, test_dim(1023, 1, 1));
  run_block_shape(m, 2, test_dim(1024, 1, 1));
  cuemu_module_unload(m);
}
END_TEST

START_TEST(collectives_block_shapes_2d_3d) {
  cuemu_module *m = test_module("collectives_block.cu");
  static const cuemu_dim3 shapes[] = {
      {16, 16, 1}, {7, 9, 1},  {1, 33, 1}, {32, 32, 1}, {4, 8, 8},
      {5, 6, 7},   {10, 10, 10}, {1, 1, 64}, {3, 1, 5},   {2, 2, 2},
  };
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; ++s)
    run_block_shape(m, 3, shapes[s]);
  cuemu_module_unload(m);
}
END_TEST

/* The block collectives reuse their shared memory from call to call; under
 * schedules that run threads in other orders, a missing barrier shows. */
START_TEST(collectives_block_other_schedules) {
  static const char *const schedules[] = {"reverse", "random:3", "random:8"};
  static const cuemu_dim3 shapes[] = {{33, 1, 1}, {16, 16, 1}, {5, 6, 7}};
  cuemu_module *m = test_module("collectives_block.cu");
  for (size_t k = 0; k < 3; ++k) {
    test_setenv("CUEMU_SCHEDULE", schedules[k]);
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; ++s)
      run_block_shape(m, 2, shapes[s]);
  }
  cuemu_module_unload(m);
}
END_TEST

/* ---- Tiles wider than a warp ----------------------------------------------- */

/* The float (double) sum CUDA's wide tile reduce gives: a butterfly in each
 * warp, then a butterfly over the warps' sums. */
static float wide_fsum(unsigned t0, unsigned n) {
  float v[32], nv[32];
  unsigned warps = n / 32;
  for (unsigned w = 0; w < warps; ++w) {
    tile_shape t = {32, t0 + 32 * w, 32};
    v[w] = butterfly_f(t, 0);
  }
  for (unsigned d = warps >> 1; d > 0; d >>= 1) {
    for (unsigned k = 0; k < warps; ++k)
      nv[k] = v[k] + v[k ^ d];
    memcpy(v, nv, warps * sizeof *v);
  }
  return v[0];
}

static double wide_dsum(unsigned t0, unsigned n) {
  double v[32], nv[32];
  unsigned warps = n / 32;
  for (unsigned w = 0; w < warps; ++w) {
    tile_shape t = {32, t0 + 32 * w, 32};
    v[w] = butterfly_d(t, 0);
  }
  for (unsigned d = warps >> 1; d > 0; d >>= 1) {
    for (unsigned k = 0; k < warps; ++k)
      nv[k] = v[k] + v[k ^ d];
    memcpy(v, nv, warps * sizeof *v);
  }
  return v[0];
}

/* The inclusive and exclusive float (double) sums of a wide tile, as CUDA
 * computes them: Hillis-Steele in each warp, an exclusive Hillis-Steele
 * scan of the warps' totals, and warp scan + total before (the warp scan
 * alone in the first warp). */
static void wide_fscan(unsigned t0, unsigned n, float *inc, float *exc) {
  unsigned warps = n / 32;
  float ws[1024], tot[32], before[32];
  for (unsigned w = 0; w < warps; ++w) {
    float v[32];
    for (unsigned j = 0; j < 32; ++j)
      v[j] = in_f(t0 + 32 * w + j);
    hillis_steele_f(v, 32, 32);
    memcpy(ws + 32 * w, v, sizeof v);
    tot[w] = v[31];
  }
  hillis_steele_f(tot, warps, warps);
  for (unsigned w = 0; w < warps; ++w)
    before[w] = w ? tot[w - 1] : 0.0f;
  for (unsigned k = 0; k < n; ++k) {
    unsigned w = k / 32, lane = k % 32;
    inc[k] = w ? ws[k] + before[w] : ws[k];
    exc[k] = lane == 0 ? before[w] : w ? ws[k - 1] + before[w] : ws[k - 1];
  }
}

static void wide_dscan(unsigned t0, unsigned n, double *inc) {
  unsigned warps = n / 32;
  double ws[1024], tot[32];
  for (unsigned w = 0; w < warps; ++w) {
    double v[32];
    for (unsigned j = 0; j < 32; ++j)
      v[j] = in_d(t0 + 32 * w + j);
    hillis_steele_d(v, 32);
    memcpy(ws + 32 * w, v, sizeof v);
    tot[w] = v[31];
  }
  hillis_steele_d(tot, warps);
  for (unsigned k = 0; k < n; ++k) {
    unsigned w = k / 32;
    inc[k] = w ? ws[k] + tot[w - 1] : ws[k];
  }
}

/* Checks the rows of block b (size threads) of groups_wide_N. */
static void check_wide_block(const long long *out, unsigned n, unsigned b,
                             unsigned size, int srcbase, const int *src,
                             const char *what) {
  static float finc[1024], fexc[1024];
  static double dinc[1024];
  for (unsigned t0 = 0; t0 < size; t0 += n) {
    unsigned from = (unsigned)(srcbase + 5 * (int)b + 3 * (int)(t0 / n)) % n;
    unsigned any = 0, all = 1, band = ~0u, bor = 0, bxor = 0;
    int sum = 0, mn = 1 << 30, mx = -(1 << 30);
    unsigned long long llsum = 0;
    for (unsigned j = 0; j < n; ++j) {
      unsigned rj = t0 + j, uj = in_u(rj);
      int ij = in_i(rj);
      any |= uj % 97u == 0;
      all &= rj % 3u != 2u || (rj / n) % 2u == 0;
      sum += ij;
      mn = ij < mn ? ij : mn;
      mx = ij > mx ? ij : mx;
      band &= uj;
      bor |= uj;
      bxor ^= uj;
      llsum += (unsigned long long)uj * 1000003ull;
    }
    float fsum = wide_fsum(t0, n);
    double dsum = wide_dsum(t0, n);
    wide_fscan(t0, n, finc, fexc);
    wide_dscan(t0, n, dinc);
    int isum = 0, imin = 1 << 30;
    unsigned emax = 0;
    for (unsigned k = 0; k < n; ++k) {
      unsigned r = t0 + k;
      const long long *o = out + ((size_t)b * size + r) * WIDE_SLOTS;
      int i = in_i(r);
      isum += i;
      imin = i < imin ? i : imin;
      EXPECT(o, WT_RANK, k, what);
      EXPECT(o, WT_NUM, n, what);
      EXPECT(o, WT_SIZE, n, what);
      EXPECT(o, WT_MRANK, r / n, what);
      EXPECT(o, WT_MSIZE, size / n, what);
      EXPECT(o, WT_VOID_MRANK, r / n, what);
      EXPECT(o, WT_VOID_MSIZE, size / n, what);
      EXPECT(o, WT_SHFL, in_u(t0 + from), what);
      EXPECT(o, WT_SHFL_D, dbits(in_d(t0 + (from * 7u + 1u) % n)), what);
      EXPECT(o, WT_SHFL_VOID, in_i(t0 + n - 1), what);
      EXPECT(o, WT_ANY, any, what);
      EXPECT(o, WT_ANY0, 0, what);
      EXPECT(o, WT_ALL, all, what);
      EXPECT(o, WT_ALL1, 1, what);
      EXPECT(o, WT_SUM, sum, what);
      EXPECT(o, WT_MIN, mn, what);
      EXPECT(o, WT_MAX, mx, what);
      EXPECT(o, WT_AND, band, what);
      EXPECT(o, WT_OR, bor, what);
      EXPECT(o, WT_XOR, bxor, what);
      EXPECT(o, WT_FSUM, fbits(fsum), what);
      EXPECT(o, WT_DSUM, dbits(dsum), what);
      EXPECT(o, WT_LMAX, mx, what);
      EXPECT(o, WT_LLSUM, (long long)llsum, what);
      EXPECT(o, WT_ISCAN, isum, what);
      EXPECT(o, WT_ESCAN, isum - i, what);
      EXPECT(o, WT_FISCAN, fbits(finc[k]), what);
      EXPECT(o, WT_FESCAN, fbits(fexc[k]), what);
      EXPECT(o, WT_EGREATER, emax, what);
      EXPECT(o, WT_IMIN, imin, what);
      EXPECT(o, WT_DISCAN, dbits(dinc[k]), what);
      emax = in_u(r) > emax ? in_u(r) : emax;

      int wsum = 0;
      for (unsigned j = 0; j < 32; ++j)
        wsum += in_i((r & ~31u) + j);
      EXPECT(o, WT_SUB_RANK, r & 31u, what);
      EXPECT(o, WT_SUB_MRANK, k / 32, what);
      EXPECT(o, WT_SUB_MSIZE, n / 32, what);
      EXPECT(o, WT_SUB_SUM, wsum, what);
      if (n >= 128) {
        unsigned half = n / 2, h0 = t0 + k / half * half;
        int hsum = 0;
        for (unsigned j = 0; j < half; ++j)
          hsum += in_i(h0 + j);
        EXPECT(o, WT_HALF_RANK, k % half, what);
        EXPECT(o, WT_HALF_MRANK, k / half, what);
        EXPECT(o, WT_HALF_MSIZE, 2, what);
        EXPECT(o, WT_HALF_SUM, hsum, what);
      } else {
        EXPECT(o, WT_HALF_RANK, -1, what);
        EXPECT(o, WT_HALF_SUM, -1, what);
      }
      EXPECT(o, WT_FN_RANK, k, what);
      EXPECT(o, WT_FN_SIZE, n, what);
      EXPECT(o, WT_STORE, sum, what);
      EXPECT(o, WT_COPY, src[t0 + (k + 1) % n], what);
    }
  }
}

static const unsigned wide_sizes[] = {64, 128, 256, 512, 1024};

/* Block shapes whose sizes are multiples of 64: 1-D, 2-D and 3-D. */
static const cuemu_dim3 wide_blocks[] = {
    {64, 1, 1},  {4, 4, 4},   {8, 8, 2},    {32, 2, 3},  {16, 16, 1},
    {8, 4, 16},  {10, 8, 8},  {1024, 1, 1}, {4, 16, 16},
};

/* The module of `file` built with g++ (test_compiler(0)): the tests of the
 * wide tiles and of cuda::barrier build their files so, as
 * wide_tiles_each_compiler does first, so that the suite builds each file
 * once with g++, not again with the default compiler (c++, which is g++
 * too, under another key of the compile cache). */
static cuemu_module *gxx_module(const char *file) {
  return groups_module(file, test_compiler(0));
}

/* Runs every wide tile size on every block shape that is a multiple of it
 * (two blocks per launch, with and without block_tile_memory) and checks
 * every row. */
static void run_wide(const char *cxx) {
  cuemu_module *m = groups_module("groups_wide.cu", cxx);
  int *src = malloc(1024 * sizeof *src);
  long long *out = malloc((size_t)2 * 1024 * WIDE_SLOTS * sizeof *out);
  ck_assert(src && out);
  for (unsigned r = 0; r < 1024; ++r)
    src[r] = in_i(r) * 3 + 1;
  for (size_t s = 0; s < sizeof wide_sizes / sizeof wide_sizes[0]; ++s) {
    unsigned n = wide_sizes[s];
    for (size_t b = 0; b < sizeof wide_blocks / sizeof wide_blocks[0]; ++b) {
      cuemu_dim3 blk = wide_blocks[b];
      unsigned size = blk.x * blk.y * blk.z;
      if (size % n != 0)
        continue;
      int srcbase = (int)(b * 11 + s);
      int use_scratch = (int)(b % 2);
      char name[64], what[200];
      snprintf(name, sizeof name, "groups_wide_%u", n);
      snprintf(what, sizeof what, "%s (%s, %s) block (%u,%u,%u)%s", name,
               cxx ? cxx : "c++",
               getenv("CUEMU_SCHEDULE") ? getenv("CUEMU_SCHEDULE") : "forward",
               blk.x, blk.y, blk.z, use_scratch ? " with scratch" : "");
      memset(out, 0xa5, (size_t)2 * size * WIDE_SLOTS * sizeof *out);
      void *args[] = {&out, &src, &srcbase, &use_scratch};
      launch_ok(m, name, test_dim(2, 1, 1), blk, args, 4);
      for (unsigned g = 0; g < 2; ++g)
        check_wide_block(out, n, g, size, srcbase, src, what);
    }
  }
  free(src);
  free(out);
  cuemu_module_unload(m);
}

/* With g++, then clang++ (see test_compiler). */
START_TEST(wide_tiles_each_compiler) {
  const char *cxx = test_compiler(_i);
  if (cxx)
    run_wide(cxx);
}
END_TEST

START_TEST(wide_tiles_reverse) {
  test_setenv("CUEMU_SCHEDULE", "reverse");
  run_wide(test_compiler(0));
}
END_TEST

START_TEST(wide_tiles_random) {
  test_setenv("CUEMU_SCHEDULE", "random:3");
  run_wide(test_compiler(0));
}
END_TEST

/* Tiles of 64 and 128 threads that start at the same thread synchronise
 * independently (tests/kernels/groups_wide.cu, wide_nested_sync). */
START_TEST(wide_nested_sync) {
  static const char *const schedules[] = {"forward", "reverse", "random:3",
                                          "random:8"};
  static const unsigned sizes[] = {128, 256, 1024};
  cuemu_module *m = gxx_module("groups_wide.cu");
  int *out = malloc(1024 * sizeof *out);
  ck_assert(out != NULL);
  for (size_t s = 0; s < sizeof schedules / sizeof schedules[0]; ++s) {
    test_setenv("CUEMU_SCHEDULE", schedules[s]);
    for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; ++z) {
      for (unsigned r = 0; r < sizes[z]; ++r)
        out[r] = -1;
      void *args[] = {&out};
      launch_ok(m, "wide_nested_sync", test_dim(1, 1, 1),
                test_dim(sizes[z], 1, 1), args, 1);
      for (unsigned r = 0; r < sizes[z]; ++r)
        ck_assert_msg(out[r] == 384,
                      "wide_nested_sync (%s) %u threads: thread %u saw %d, "
                      "expected 384",
                      schedules[s], sizes[z], r, out[r]);
    }
  }
  free(out);
  cuemu_module_unload(m);
}
END_TEST

/* Launches `kernel` of `file` (one block of `threads`, one int* argument)
 * and expects `status` with a message that contains each non-NULL s*. */
static void expect_kernel_failure(const char *file, const char *kernel,
                                  unsigned threads, cuemu_status status,
                                  const char *s1, const char *s2,
                                  const char *s3) {
  cuemu_module *m = gxx_module(file);
  int *out = calloc(1024, sizeof *out);
  void *args[] = {&out};
  cuemu_status st = cuemu_kernel_launch(test_kernel(m, kernel),
                                        test_dim(1, 1, 1),
                                        test_dim(threads, 1, 1), 0, NULL,
                                        args, 1);
  const char *msg = cuemu_last_message();
  ck_assert_msg(st == status, "%s: got %s, expected %s: %s", kernel,
                cuemu_status_name(st), cuemu_status_name(status), msg);
  const char *want[] = {s1, s2, s3};
  for (int i = 0; i < 3; ++i)
    ck_assert_msg(!want[i] || strstr(msg, want[i]),
                  "%s: the message lacks \"%s\": %s", kernel, want[i], msg);
  free(out);
  cuemu_module_unload(m);
}

START_TEST(wide_misuse_syncthreads) {
  expect_kernel_failure("groups_wide.cu", "wide_misuse_syncthreads", 128,
                        CUEMU_DEADLOCK, marked("groups_wide.cu", "WIDE-SYNC */"),
                        marked("groups_wide.cu", "WIDE-SYNCTHREADS"),
                        "threads 0..63");
}
END_TEST

START_TEST(wide_misuse_shfl) {
  expect_kernel_failure("groups_wide.cu", "wide_misuse_shfl_warps", 256,
                        CUEMU_ASSERT,
                        marked("groups_wide.cu", "WIDE-SHFL-WARPS"),
                        "one source for the whole tile", NULL);
  expect_kernel_failure("groups_wide.cu", "wide_misuse_shfl_lanes", 64,
                        CUEMU_ASSERT,
                        marked("groups_wide.cu", "WIDE-SHFL-LANES"),
                        "name different source ranks", NULL);
  expect_kernel_failure("groups_wide.cu", "wide_misuse_shfl_range", 64,
                        CUEMU_ASSERT,
                        marked("groups_wide.cu", "WIDE-SHFL-RANGE"),
                        "source rank 64 is not in the tile", NULL);
}
END_TEST

START_TEST(wide_misuse_shape) {
  expect_kernel_failure("groups_wide.cu", "wide_misuse_block_size", 96,
                        CUEMU_ASSERT, marked("groups_wide.cu", "WIDE-BLOCK"),
                        "96 threads, not a multiple of 64", NULL);
  expect_kernel_failure("groups_wide.cu", "wide_misuse_scratch", 128,
                        CUEMU_ASSERT, marked("groups_wide.cu", "WIDE-SCRATCH"),
                        "block_tile_memory<64>", NULL);
}
END_TEST

START_TEST(wide_misuse_members) {
  expect_kernel_failure("groups_wide.cu", "wide_misuse_exited_warp", 64,
                        CUEMU_ASSERT, marked("groups_wide.cu", "WIDE-EXITED"),
                        "threads 32..63 did not take part", NULL);
  expect_kernel_failure("groups_wide.cu", "wide_misuse_diverge", 64,
                        CUEMU_ASSERT, marked("groups_wide.cu", "WIDE-DIVERGE"),
                        "threads 0..31 did not take part", NULL);
  /* A lane that returned takes no part in the tile's vote (CUDA's rule):
   * the launch succeeds. */
  expect_kernel_failure("groups_wide.cu", "wide_misuse_exited_lane", 64,
                        CUEMU_SUCCESS, NULL, NULL, NULL);
}
END_TEST

/* ---- cuda::barrier and cuda::memcpy_async ---------------------------------- */

static void run_barrier_copy(cuemu_module *m, unsigned threads, int n,
                             const char *schedule) {
  unsigned blocks = 3;
  int *src = malloc(sizeof(int) * (size_t)n * blocks);
  int *dst = malloc(sizeof(int) * (size_t)n * blocks);
  ck_assert(src && dst);
  for (int k = 0; k < n * (int)blocks; ++k) {
    src[k] = (int)(groups_mix((unsigned)k + 77u) % 100000u);
    dst[k] = -1;
  }
  void *args[] = {&src, &dst, &n};
  launch_ok(m, "barrier_copy", test_dim(blocks, 1, 1), test_dim(threads, 1, 1),
            args, 3);
  for (unsigned b = 0; b < blocks; ++b)
    for (int k = 0; k < n; ++k)
      ck_assert_msg(dst[b * n + k] == src[b * n + (n - 1 - k)] * 2,
                    "barrier_copy (%s) %u threads, n %d: block %u element "
                    "%d: got %d, expected %d",
                    schedule, threads, n, b, k, dst[b * n + k],
                    src[b * n + (n - 1 - k)] * 2);
  free(src);
  free(dst);
}

static void run_barrier_phases(cuemu_module *m, unsigned threads,
                               const char *schedule) {
  int rounds = 3;
  int *out = malloc(sizeof(int) * 3 * threads);
  ck_assert(out != NULL);
  memset(out, 0x5a, sizeof(int) * 3 * threads);
  void *args[] = {&out, &rounds};
  launch_ok(m, "barrier_phases", test_dim(2, 1, 1), test_dim(threads, 1, 1),
            args, 2);
  for (unsigned r = 0; r < threads; ++r) {
    int acc = 2 * (0 + 1 + 2) + rounds * 7 * (int)((r + 1) % threads);
    ck_assert_msg(out[3 * r] == acc && out[3 * r + 1] == 2 * rounds &&
                      out[3 * r + 2] == (r % 2 ? -1 : 2 * rounds + 2),
                  "barrier_phases (%s) %u threads: thread %u: got %d %d %d, "
                  "expected %d %d %d",
                  schedule, threads, r, out[3 * r], out[3 * r + 1],
                  out[3 * r + 2], acc, 2 * rounds,
                  r % 2 ? -1 : 2 * rounds + 2);
  }
  free(out);
}

START_TEST(barrier_copies_and_phases) {
  static const struct {
    unsigned threads;
    int n;
  } cases[] = {{128, 1000}, {64, 64}, {96, 7},    {1, 5},
               {1024, 1024}, {50, 333}, {256, 1024}, {33, 1}};
  static const char *const schedules[] = {"forward", "reverse", "random:3"};
  static const unsigned phase_threads[] = {1, 2, 33, 64, 255, 1024};
  cuemu_module *m = gxx_module("cuda_barrier.cu");
  for (size_t s = 0; s < 3; ++s) {
    test_setenv("CUEMU_SCHEDULE", schedules[s]);
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c)
      run_barrier_copy(m, cases[c].threads, cases[c].n, schedules[s]);
    for (size_t c = 0; c < sizeof phase_threads / sizeof phase_threads[0]; ++c)
      run_barrier_phases(m, phase_threads[c], schedules[s]);
  }
  cuemu_module_unload(m);
}
END_TEST

START_TEST(barrier_misuse) {
  test_setenv("CUEMU_SPIN_TIMEOUT", "0.3");
  expect_kernel_failure("cuda_barrier.cu", "barrier_misuse_never", 64,
                        CUEMU_DEADLOCK, "made no progress", "spin", NULL);
  expect_kernel_failure("cuda_barrier.cu", "barrier_misuse_overflow", 32,
                        CUEMU_ASSERT,
                        marked("cuda_barrier.cu", "BARRIER-OVERFLOW"),
                        "arrive(2): the phase expects 1 more arrival", NULL);
  expect_kernel_failure("cuda_barrier.cu", "barrier_misuse_aligned", 32,
                        CUEMU_ASSERT,
                        marked("cuda_barrier.cu", "BARRIER-ALIGNED"),
                        "aligned_size_t<16>", NULL);
  expect_kernel_failure("cuda_barrier.cu", "barrier_misuse_uninit", 32,
                        CUEMU_ASSERT,
                        marked("cuda_barrier.cu", "BARRIER-UNINIT"),
                        "before init()", NULL);
}
END_TEST

Suite *make_groups_suite(void) {
  Suite *s = suite_create("groups");
  TCase *tc = tcase_create("tiles");
  tcase_set_timeout(tc, 120);
  tcase_add_loop_test(tc, tiles_each_compiler, 0, 2);
  suite_add_tcase(s, tc);
  tc = tcase_create("coalesced");
  tcase_set_timeout(tc, 120);
  tcase_add_loop_test(tc, coalesced_each_compiler, 0, 2);
  suite_add_tcase(s, tc);
  tc = tcase_create("memcpy_async");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, memcpy_async_block_and_tile);
  suite_add_tcase(s, tc);
  tc = tcase_create("misuse");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, exited_tile_member_takes_no_part);
  tcase_add_test(tc, misuse_divergent_tile);
  tcase_add_test(tc, misuse_tile_size);
  tcase_add_test(tc, exited_coalesced_member_takes_no_part);
  suite_add_tcase(s, tc);
  tc = tcase_create("collectives");
  tcase_set_timeout(tc, 240);
  tcase_add_test(tc, collectives_warp);
  tcase_add_test(tc, collectives_block_sizes_1d);
  tcase_add_test(tc, collectives_block_shapes_2d_3d);
  tcase_add_test(tc, collectives_block_other_schedules);
  suite_add_tcase(s, tc);
  tc = tcase_create("wide_tiles");
  tcase_set_timeout(tc, 180);
  tcase_add_loop_test(tc, wide_tiles_each_compiler, 0, 2);
  tcase_add_test(tc, wide_tiles_reverse);
  tcase_add_test(tc, wide_tiles_random);
  tcase_add_test(tc, wide_nested_sync);
  suite_add_tcase(s, tc);
  tc = tcase_create("wide_misuse");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, wide_misuse_syncthreads);
  tcase_add_test(tc, wide_misuse_shfl);
  tcase_add_test(tc, wide_misuse_shape);
  tcase_add_test(tc, wide_misuse_members);
  suite_add_tcase(s, tc);
  tc = tcase_create("cuda_barrier");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, barrier_copies_and_phases);
  tcase_add_test(tc, barrier_misuse);
  suite_add_tcase(s, tc);
  return s;
}
