/*
 * check_warp.c: the warp intrinsics (shims/cuda_builtins/cuemu_warp.h and
 * the runtime's warp collectives) against expectations computed here:
 * shuffles of every type at every width and lane argument, votes,
 * __activemask, matching, reductions and __syncwarp, in full and partial
 * warps, blocks of every shape (lanes follow the row-major linear thread
 * id) and sparse masks; each misuse ends the launch with WARP_MISUSE and a
 * message naming the intrinsic, its file:line, the mask and the lanes; the
 * legacy intrinsics without a mask do not compile; and results do not
 * depend on the schedule or the number of workers.
 *
 * The shuffle model here follows the CUDA Programming Guide's description
 * (source lane srcLane % width within the segment, up and down clamped to
 * the segment, xor allowed into earlier segments only), with PTX's use of
 * the low five bits of the lane argument. A source lane outside the mask
 * gives the caller's own value (cuemu_device.h; unspecified on the GPU).
 *
 * Every test runs in its own child process, so setenv() stays local.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cuemu/cuemu_device.h>

#include "check_suites.h"
#include "cuemu_test_util.h"

/* The suite's kernel files, built as one module (test_module_combined):
 * one build instead of seven. */
static cuemu_module *warp_module(void) {
  static const char *const files[] = {
      "warp_inactive.cu", "warp_match.cu",   "warp_misuse.cu", "warp_reduce.cu",
      "warp_shuffle.cu",  "warp_syncwarp.cu", "warp_vote.cu",   NULL};
  return test_module_combined("warp_combined.cu", files, NULL);
}

/* ---- Helpers ------------------------------------------------------------- */

/* A launch shape. */
typedef struct {
  cuemu_dim3 grid, block;
} shape;

static shape shape_of(unsigned gx, unsigned bx, unsigned by, unsigned bz) {
  shape s = {test_dim(gx, 1, 1), test_dim(bx, by, bz)};
  return s;
}

static unsigned block_size(shape s) {
  return s.block.x * s.block.y * s.block.z;
}

static unsigned grid_size(shape s) { return s.grid.x * s.grid.y * s.grid.z; }

static cuemu_status launch(cuemu_kernel *k, shape s, void **args, int nargs) {
  return cuemu_kernel_launch(k, s.grid, s.block, 0, NULL, args, nargs);
}

/* The lanes that exist in the warp of thread `t` of a block of `n`. */
static unsigned present_lanes(unsigned t, unsigned n) {
  unsigned count = n - t / 32 * 32;
  return count >= 32 ? 0xffffffffu : (1u << count) - 1;
}

/* A deterministic 64-bit generator (splitmix64). */
static uint64_t next_random(uint64_t *state) {
  uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/* Element `i` of an array of `size`-byte values, as bits. */
static uint64_t get_bits(const void *base, size_t size, size_t i) {
  uint64_t v = 0;
  memcpy(&v, (const unsigned char *)base + i * size, size);
  return v;
}

static void put_bits(void *base, size_t size, size_t i, uint64_t v) {
  memcpy((unsigned char *)base + i * size, &v, size);
}

#define SENTINEL_BYTE 0xA5
static uint64_t sentinel_bits(size_t size) {
  uint64_t v = 0;
  memset(&v, SENTINEL_BYTE, size);
  return v;
}

/* The block shapes most tests use: partial and full warps, one lane, 2-D
 * and 3-D blocks whose linear ids cross rows and planes inside a warp. */
static const shape *common_shapes(int *count) {
  static shape shapes[9];
  shapes[0] = shape_of(1, 1, 1, 1);
  shapes[1] = shape_of(2, 17, 1, 1);
  shapes[2] = shape_of(1, 32, 1, 1);
  shapes[3] = shape_of(2, 33, 1, 1);
  shapes[4] = shape_of(1, 100, 1, 1);
  shapes[5] = shape_of(1, 1024, 1, 1);
  shapes[6] = shape_of(2, 8, 4, 3);
  shapes[7] = shape_of(1, 5, 3, 7);
  shapes[8] = shape_of(1, 3, 1, 11);
  *count = 9;
  return shapes;
}

/* Full, alternate, the two ends, one lane, a half, and an irregular one. */
static const unsigned masks[] = {0xffffffffu, 0x55555555u, 0x80000001u,
                                 0x00000020u, 0xffff0000u, 0x9E3779B9u,
                                 0x00000001u};
#define NMASKS ((int)(sizeof masks / sizeof masks[0]))

/* ---- Shuffles ------------------------------------------------------------ */

#define SWEEP_ARGS 36
#define SWEEP_FIRST_ARG (-2)
#define SWEEP_WIDTHS 7
#define SWEEP_RESULTS (SWEEP_WIDTHS * SWEEP_ARGS * 4)

enum { SH_IDX, SH_UP, SH_DOWN, SH_XOR };

/* The lane whose value lane `lane` receives, or -1 for its own value, by
 * the Programming Guide's rules (the argument taken modulo 32, as PTX
 * reads its low five bits). */
static int shuffle_source(int op, unsigned lane, unsigned arg, unsigned width) {
  unsigned seg = lane / width * width, pos = lane % width, a = arg % 32;
  switch (op) {
  case SH_IDX:
    return (int)(seg + a % width);
  case SH_UP:
    return pos >= a ? (int)(lane - a) : -1;
  case SH_DOWN:
    return pos + a < width ? (int)(lane + a) : -1;
  default: /* later segments give the own value, earlier ones are read */
    return (lane ^ a) < seg + width ? (int)(lane ^ a) : -1;
  }
}

/* The model's answers to cases worked out by hand. */
START_TEST(shuffle_model_known_cases) {
  ck_assert_int_eq(shuffle_source(SH_IDX, 13, 9, 8), 9);   /* 8 + 9 % 8 */
  ck_assert_int_eq(shuffle_source(SH_IDX, 13, 33, 32), 1); /* 33 & 31 */
  ck_assert_int_eq(shuffle_source(SH_IDX, 5, 7, 1), 5);
  ck_assert_int_eq(shuffle_source(SH_UP, 5, 3, 8), 2);
  ck_assert_int_eq(shuffle_source(SH_UP, 10, 3, 8), -1); /* segment 8..15 */
  ck_assert_int_eq(shuffle_source(SH_UP, 31, 33, 32), 30);
  ck_assert_int_eq(shuffle_source(SH_UP, 3, 32, 32), 3); /* 32 & 31 == 0 */
  ck_assert_int_eq(shuffle_source(SH_DOWN, 6, 3, 8), -1);
  ck_assert_int_eq(shuffle_source(SH_DOWN, 4, 3, 8), 7);
  ck_assert_int_eq(shuffle_source(SH_DOWN, 30, 1, 32), 31);
  ck_assert_int_eq(shuffle_source(SH_DOWN, 31, 1, 32), -1);
  ck_assert_int_eq(shuffle_source(SH_XOR, 9, 16, 8), -1); /* later: 25 */
  ck_assert_int_eq(shuffle_source(SH_XOR, 25, 16, 8), 9); /* earlier */
  ck_assert_int_eq(shuffle_source(SH_XOR, 25, 1, 8), 24);
  ck_assert_int_eq(shuffle_source(SH_XOR, 0, 31, 32), 31);
  ck_assert_int_eq(shuffle_source(SH_IDX, 3, (unsigned)-1, 32), 31);
  ck_assert_int_eq(shuffle_source(SH_IDX, 3, (unsigned)-1, 8), 7);
  ck_assert_int_eq(shuffle_source(SH_UP, 31, (unsigned)-2, 32), 1);
}
END_TEST

/* A shuffled type: its sweep kernel, its size, and the bits its random
 * values may have (the floating-point types leave out infinities and NaNs,
 * which need not travel unchanged through host registers). */
typedef struct {
  const char *kernel;
  size_t size;
  uint64_t bits;
} shuffle_type;

static const shuffle_type shuffle_types[] = {
    {"sweep_int", 4, 0xffffffffull},
    {"sweep_unsigned", 4, 0xffffffffull},
    {"sweep_long", 8, ~0ull},
    {"sweep_unsigned_long", 8, ~0ull},
    {"sweep_long_long", 8, ~0ull},
    {"sweep_unsigned_long_long", 8, ~0ull},
    {"sweep_float", 4, 0xBFFFFFFFull},
    {"sweep_double", 8, 0xBFFFFFFFFFFFFFFFull},
    {"sweep_half", 2, 0xBFFFull},
    {"sweep_half2", 4, 0xBFFFBFFFull},
    {"sweep_bfloat16", 2, 0xBFFFull},
    {"sweep_bfloat162", 4, 0xBFFFBFFFull},
};
#define NSHUFFLE_TYPES ((int)(sizeof shuffle_types / sizeof shuffle_types[0]))

/* Runs the sweep kernel of `type` with `mask` and checks every result of
 * every thread. */
static void sweep(cuemu_module *m, const shuffle_type *type, shape s,
                  unsigned mask, uint64_t seed) {
  unsigned n = block_size(s), total = n * grid_size(s);
  size_t size = type->size;
  void *in = malloc(total * size);
  void *out = malloc((size_t)SWEEP_RESULTS * total * size);
  ck_assert(in && out);
  for (unsigned i = 0; i < total; ++i)
    put_bits(in, size, i, next_random(&seed) & type->bits);
  memset(out, SENTINEL_BYTE, (size_t)SWEEP_RESULTS * total * size);
  void *args[] = {&in, &out, &mask};
  TEST_ASSERT_LAUNCH_OK(launch(test_kernel(m, type->kernel), s, args, 3));
  uint64_t sentinel = sentinel_bits(size);
  for (unsigned b = 0; b < grid_size(s); ++b)
    for (unsigned t = 0; t < n; ++t) {
      unsigned i = b * n + t, lane = t % 32, warp = b * n + t - lane;
      unsigned mm = mask & present_lanes(t, n);
      int calls = (mm >> lane) & 1u;
      for (unsigned k = 0; k < SWEEP_RESULTS; ++k) {
        unsigned w = k / (SWEEP_ARGS * 4);
        int a = (int)(k / 4 % SWEEP_ARGS) + SWEEP_FIRST_ARG;
        unsigned width = w < 6 ? 1u << w : 32u;
        int op = (int)(k % 4);
        uint64_t got = get_bits(out, size, (size_t)k * total + i), want;
        if (!calls) {
          want = sentinel;
        } else {
          int j = shuffle_source(op, lane, (unsigned)a, width);
          want = j >= 0 && ((mm >> j) & 1u) ? get_bits(in, size, warp + j)
                                            : get_bits(in, size, i);
        }
        if (got != want)
          ck_abort_msg("%s block (%u,%u,%u) mask 0x%08x: thread %u (block %u) "
                       "op %d width %u%s arg %d: got 0x%llx, want 0x%llx",
                       type->kernel, s.block.x, s.block.y, s.block.z, mask, t,
                       b, op, width, w == 6 ? " (default)" : "", a,
                       (unsigned long long)got, (unsigned long long)want);
      }
    }
  free(in);
  free(out);
}

/* int, every shape, every mask. */
START_TEST(shuffle_every_width_shape_and_mask) {
  cuemu_module *m = warp_module();
  int nshapes;
  const shape *shapes = common_shapes(&nshapes);
  for (int s = 0; s < nshapes; ++s)
    for (int k = 0; k < NMASKS; ++k)
      sweep(m, &shuffle_types[0], shapes[s], masks[k], (uint64_t)(s * 100 + k));
  cuemu_module_unload(m);
}
END_TEST

/* Every type (_i), in a partial warp and a 3-D block, with two masks. */
START_TEST(shuffle_every_type) {
  cuemu_module *m = warp_module();
  const shuffle_type *type = &shuffle_types[_i];
  sweep(m, type, shape_of(2, 45, 1, 1), 0xffffffffu, 1);
  sweep(m, type, shape_of(1, 8, 4, 3), 0x55555555u, 2);
  sweep(m, type, shape_of(1, 8, 4, 3), 0x80000001u, 3);
  cuemu_module_unload(m);
}
END_TEST

/* The butterfly sum, with values whose sums are known. */
START_TEST(shuffle_xor_sum) {
  cuemu_module *m = warp_module();
  enum { N = 256 };
  int in[N], out[N];
  for (int i = 0; i < N; ++i)
    in[i] = i % 2 ? -i : 3 * i;
  int *ip = in, *op = out;
  void *args[] = {&ip, &op};
  TEST_ASSERT_LAUNCH_OK(
      launch(test_kernel(m, "xor_sum"), shape_of(2, 16, 4, 2), args, 2));
  for (int w = 0; w < N / 32; ++w) {
    int sum = 0;
    for (int l = 0; l < 32; ++l)
      sum += in[32 * w + l];
    for (int l = 0; l < 32; ++l)
      ck_assert_int_eq(out[32 * w + l], sum);
  }
  /* Warp 0: lanes 0..31 give 3 * (0 + 2 + ... + 30) - (1 + 3 + ... + 31). */
  ck_assert_int_eq(out[0], 3 * 240 - 256);
  cuemu_module_unload(m);
}
END_TEST

/* One mask, two call sites of the same intrinsic. */
START_TEST(shuffle_from_two_call_sites) {
  cuemu_module *m = warp_module();
  enum { N = 64 };
  int in[N], out[N];
  for (int i = 0; i < N; ++i)
    in[i] = 1000 + i;
  int *ip = in, *op = out;
  void *args[] = {&ip, &op};
  TEST_ASSERT_LAUNCH_OK(
      launch(test_kernel(m, "two_sites"), shape_of(1, 64, 1, 1), args, 2));
  for (int i = 0; i < N; ++i)
    ck_assert_int_eq(out[i], 1000 + (i ^ 16));
  cuemu_module_unload(m);
}
END_TEST

/* Shuffles whose offset, source lane or width differ between lanes, and
 * two half-warp shuffles gathered at once (warp_shuffle.cu), against the
 * PTX model above. */
START_TEST(shuffle_per_lane_operands) {
  cuemu_module *m = warp_module();
  enum { N = 128 };
  int in[N], out[N * 4];
  for (int i = 0; i < N; ++i)
    in[i] = 5000 + 3 * i;
  int *ip = in, *op = out;
  void *args[] = {&ip, &op};
  TEST_ASSERT_LAUNCH_OK(launch(test_kernel(m, "per_lane_operands"),
                               shape_of(2, 64, 1, 1), args, 2));
  for (int i = 0; i < N; ++i) {
    unsigned lane = (unsigned)i % 32;
    int warp = i - (int)lane;
    int want[4], j;
    j = shuffle_source(SH_IDX, lane, (lane * 7 + 3) % 32, 32);
    want[0] = in[warp + j];
    j = shuffle_source(SH_DOWN, lane, lane % 4, 32);
    want[1] = j >= 0 ? in[warp + j] : in[i];
    /* Within each half: the source lane is lane ^ 1 or lane ^ 2, in the
     * same half, so always in the mask. */
    want[2] = in[warp + (int)(lane ^ (lane < 16 ? 1u : 2u))];
    j = shuffle_source(SH_UP, lane, 1, lane < 16 ? 8 : 16);
    want[3] = j >= 0 ? in[warp + j] : in[i];
    for (int k = 0; k < 4; ++k)
      ck_assert_msg(out[i * 4 + k] == want[k],
                    "thread %d, result %d: %d, want %d", i, k,
                    out[i * 4 + k], want[k]);
  }
  cuemu_module_unload(m);
}
END_TEST

/* The classic block sum (warp shuffles, shared memory, __syncthreads). */
static void block_sum(cuemu_module *m, shape sh, uint64_t seed) {
  unsigned n = block_size(sh), blocks = grid_size(sh);
  int *in = malloc(n * blocks * sizeof *in);
  int *out = malloc(blocks * sizeof *out);
  for (unsigned i = 0; i < n * blocks; ++i)
    in[i] = (int)(next_random(&seed) % 2001) - 1000;
  void *args[] = {&in, &out};
  TEST_ASSERT_LAUNCH_OK(launch(test_kernel(m, "block_sum"), sh, args, 2));
  for (unsigned b = 0; b < blocks; ++b) {
    int want = 0;
    for (unsigned t = 0; t < n; ++t)
      want += in[b * n + t];
    ck_assert_msg(out[b] == want, "block (%u,%u,%u) %u: sum %d, want %d",
                  sh.block.x, sh.block.y, sh.block.z, b, out[b], want);
  }
  free(in);
  free(out);
}

/* For every block shape. */
START_TEST(shuffle_block_sum) {
  cuemu_module *m = warp_module();
  int nshapes;
  const shape *shapes = common_shapes(&nshapes);
  const shape extra[] = {shape_of(3, 1000, 1, 1), shape_of(2, 32, 32, 1),
                         shape_of(1, 2, 3, 5), shape_of(2, 63, 1, 1)};
  for (int s = 0; s < nshapes; ++s)
    block_sum(m, shapes[s], (uint64_t)s + 300);
  for (int s = 0; s < 4; ++s)
    block_sum(m, extra[s], (uint64_t)s + 400);
  cuemu_module_unload(m);
}
END_TEST

/* ---- Votes and __activemask ---------------------------------------------- */

/* Predicates: mixed (zero, negative, large), all non-zero, all zero, every
 * third lane. */
static int make_pred(int pattern, unsigned i, uint64_t *seed) {
  uint64_t r = next_random(seed);
  switch (pattern) {
  case 0:
    return r % 3 == 0 ? 0 : (int)(uint32_t)r;
  case 1:
    return r % 2 ? -1 - (int)(r >> 40) : 0x100 << (r % 20);
  case 2:
    return 0;
  default:
    return i % 32 % 3 == 0 ? -7 : 0;
  }
}

static void votes(cuemu_module *m, shape s, unsigned mask, int pattern,
                  uint64_t seed) {
  unsigned n = block_size(s), total = n * grid_size(s);
  int *pred = malloc(total * sizeof *pred);
  unsigned *out = malloc(5 * total * sizeof *out);
  for (unsigned i = 0; i < total; ++i)
    pred[i] = make_pred(pattern, i, &seed);
  memset(out, SENTINEL_BYTE, 5 * total * sizeof *out);
  void *args[] = {&pred, &mask, &out};
  TEST_ASSERT_LAUNCH_OK(launch(test_kernel(m, "votes"), s, args, 3));
  for (unsigned b = 0; b < grid_size(s); ++b)
    for (unsigned t = 0; t < n; ++t) {
      unsigned i = b * n + t, lane = t % 32, warp = i - lane;
      unsigned mm = mask & present_lanes(t, n);
      unsigned want[5];
      if ((mm >> lane) & 1u) {
        unsigned ballot = 0;
        for (unsigned l = 0; l < 32; ++l)
          if (((mm >> l) & 1u) && pred[warp + l] != 0)
            ballot |= 1u << l;
        want[0] = ballot;
        want[1] = ballot == mm;
        want[2] = ballot != 0;
        want[3] = ballot == mm || ballot == 0;
        want[4] = mm;
      } else {
        for (int r = 0; r < 5; ++r)
          want[r] = 0xA5A5A5A5u;
      }
      for (int r = 0; r < 5; ++r)
        ck_assert_msg(out[5 * i + r] == want[r],
                      "votes block (%u,%u,%u) mask 0x%08x pattern %d: thread "
                      "%u of block %u result %d is 0x%08x, want 0x%08x",
                      s.block.x, s.block.y, s.block.z, mask, pattern, t, b, r,
                      out[5 * i + r], want[r]);
    }
  free(pred);
  free(out);
}

START_TEST(votes_every_shape_mask_and_predicate) {
  cuemu_module *m = warp_module();
  int nshapes;
  const shape *shapes = common_shapes(&nshapes);
  for (int s = 0; s < nshapes; ++s)
    for (int k = 0; k < NMASKS; ++k)
      for (int p = 0; p < 4; ++p)
        votes(m, shapes[s], masks[k], p, (uint64_t)(1000 * s + 10 * k + p));
  cuemu_module_unload(m);
}
END_TEST

/* Fixed answers in a 3-D block of (8,4,3): thread (x,y,z) has linear id
 * x + 8y + 32z, so warp z holds the plane z and lane x + 8y. */
START_TEST(votes_follow_row_major_lanes) {
  cuemu_module *m = warp_module();
  enum { N = 96 };
  int pred[N];
  unsigned out[5 * N];
  for (int z = 0; z < 3; ++z)
    for (int y = 0; y < 4; ++y)
      for (int x = 0; x < 8; ++x)
        pred[x + 8 * y + 32 * z] = y == z; /* row y == z of plane z */
  unsigned mask = 0xffffffffu;
  int *pp = pred;
  unsigned *op = out;
  void *args[] = {&pp, &mask, &op};
  TEST_ASSERT_LAUNCH_OK(
      launch(test_kernel(m, "votes"), shape_of(1, 8, 4, 3), args, 3));
  for (int t = 0; t < N; ++t) {
    ck_assert_uint_eq(out[5 * t], 0xffu << (8 * (t / 32)));
    ck_assert_uint_eq(out[5 * t + 1], 0);
    ck_assert_uint_eq(out[5 * t + 2], 1);
    ck_assert_uint_eq(out[5 * t + 3], 0);
    ck_assert_uint_eq(out[5 * t + 4], 0xffffffffu);
  }
  cuemu_module_unload(m);
}
END_TEST

/* __activemask() inside a branch: the lanes that took it, whether the others
 * exited (mode 0), wait at __syncwarp (mode 1) or at __activemask() on
 * another line (mode 2, where they see their own set). */
static void active_branch(cuemu_module *m, shape s, int mode, int pattern,
                          uint64_t seed) {
  unsigned n = block_size(s), total = n * grid_size(s);
  int *pred = malloc(total * sizeof *pred);
  unsigned *out = malloc(2 * total * sizeof *out);
  for (unsigned i = 0; i < total; ++i)
    pred[i] =
        pattern == 3 ? (int)(i % 32 % 5 == 1) : make_pred(pattern, i, &seed);
  void *args[] = {&pred, &mode, &out};
  TEST_ASSERT_LAUNCH_OK(launch(test_kernel(m, "active_branch"), s, args, 3));
  for (unsigned i = 0; i < total; ++i) {
    unsigned t = i % n, lane = t % 32, warp = i - lane, odd = 0;
    unsigned present = present_lanes(t, n);
    for (unsigned l = 0; l < 32; ++l)
      if (((present >> l) & 1u) && (pred[warp + l] & 1))
        odd |= 1u << l;
    ck_assert_uint_eq(out[2 * i + 1], odd);
    unsigned want = (pred[i] & 1) ? odd
                    : mode == 2   ? present & ~odd
                                  : 0xdeadbeefu;
    ck_assert_msg(out[2 * i] == want,
                  "block (%u,%u,%u) mode %d pattern %d: thread %u saw 0x%08x, "
                  "want 0x%08x",
                  s.block.x, s.block.y, s.block.z, mode, pattern, i, out[2 * i],
                  want);
  }
  free(pred);
  free(out);
}

START_TEST(activemask_in_a_branch) {
  cuemu_module *m = warp_module();
  int nshapes;
  const shape *shapes = common_shapes(&nshapes);
  for (int s = 0; s < nshapes; ++s)
    for (int mode = 0; mode < 3; ++mode)
      for (int p = 0; p < 4; ++p)
        active_branch(m, shapes[s], mode, p, (uint64_t)(s * 10 + p));
  cuemu_module_unload(m);
}
END_TEST

START_TEST(ballot_from_two_call_sites) {
  cuemu_module *m = warp_module();
  enum { N = 96 };
  int pred[N];
  unsigned out[N];
  for (int i = 0; i < N; ++i)
    pred[i] = i % 7 == 0 || i % 32 == 20;
  int *pp = pred;
  unsigned *op = out;
  void *args[] = {&pp, &op};
  TEST_ASSERT_LAUNCH_OK(launch(test_kernel(m, "ballot_two_sites"),
                               shape_of(1, 32, 3, 1), args, 2));
  for (int i = 0; i < N; ++i) {
    unsigned want = 0;
    for (int l = 0; l < 32; ++l)
      if (pred[i / 32 * 32 + l])
        want |= 1u << l;
    ck_assert_uint_eq(out[i], want);
  }
  cuemu_module_unload(m);
}
END_TEST

/* Two branches, each with its own constant mask. */
static void split_branches(cuemu_module *m, shape s, uint64_t seed) {
  unsigned n = block_size(s), total = n * grid_size(s);
  int *in = malloc(total * sizeof *in);
  unsigned *out = malloc(3 * total * sizeof *out);
  for (unsigned i = 0; i < total; ++i)
    in[i] = (int)(next_random(&seed) % 1000) - 500;
  void *args[] = {&in, &out};
  TEST_ASSERT_LAUNCH_OK(launch(test_kernel(m, "split_branches"), s, args, 2));
  for (unsigned i = 0; i < total; ++i) {
    unsigned t = i % n, lane = t % 32, warp = i - lane;
    unsigned present = present_lanes(t, n);
    unsigned mm = (lane % 3 == 0 ? 0x49249249u : ~0x49249249u) & present;
    unsigned ballot = 0, sum = 0;
    for (unsigned l = 0; l < 32; ++l)
      if ((mm >> l) & 1u) {
        ballot |= (unsigned)(in[warp + l] > 0) << l;
        sum += (unsigned)in[warp + l];
      }
    /* Lane + 3 in the first branch, lane 1 in the second. */
    int src = lane % 3 == 0 ? (lane + 3 < 32 ? (int)lane + 3 : -1) : 1;
    unsigned shfl =
        (unsigned)(src >= 0 && ((mm >> src) & 1u) ? in[warp + (unsigned)src]
                                                  : in[i]);
    ck_assert_msg(out[3 * i] == ballot && out[3 * i + 1] == shfl &&
                      out[3 * i + 2] == sum,
                  "block (%u,%u,%u) thread %u: got 0x%08x %d %u, want 0x%08x "
                  "%d %u",
                  s.block.x, s.block.y, s.block.z, i, out[3 * i],
                  (int)out[3 * i + 1], out[3 * i + 2], ballot, (int)shfl, sum);
  }
  free(in);
  free(out);
}

START_TEST(masks_of_two_branches) {
  cuemu_module *m = warp_module();
  int nshapes;
  const shape *shapes = common_shapes(&nshapes);
  for (int s = 0; s < nshapes; ++s)
    split_branches(m, shapes[s], (uint64_t)s + 77);
  cuemu_module_unload(m);
}
END_TEST

/* Outside a kernel a collective behaves as a warp of lane 0 alone. */
START_TEST(outside_a_kernel_one_lane) {
  ck_assert_uint_eq(cuemu_warp_collective(CUEMU_WARP_BALLOT, 0xffffffffu, 5, 0,
                                          32, "__ballot_sync", __FILE__,
                                          __LINE__),
                    1);
  ck_assert_uint_eq(cuemu_warp_collective(CUEMU_WARP_SHFL_IDX, 0xffffffffu,
                                          0x123456789ull, 7, 32, "__shfl_sync",
                                          __FILE__, __LINE__),
                    0x123456789ull);
  ck_assert_uint_eq(cuemu_warp_collective(CUEMU_WARP_REDUCE_ADD, 1u, 42, 0, 32,
                                          "__reduce_add_sync", __FILE__,
                                          __LINE__),
                    42);
  ck_assert_uint_eq(cuemu_warp_active_mask(__FILE__, __LINE__), 1);
}
END_TEST

/* Lanes leave a loop one by one, each vote taking the previous mask. */
static void shrinking(cuemu_module *m, shape s, uint64_t seed) {
  unsigned n = block_size(s), total = n * grid_size(s);
  int *count = malloc(total * sizeof *count);
  unsigned *out = malloc(total * sizeof *out);
  for (unsigned i = 0; i < total; ++i)
    count[i] = (int)(next_random(&seed) % 7);
  void *args[] = {&count, &out};
  TEST_ASSERT_LAUNCH_OK(launch(test_kernel(m, "shrinking"), s, args, 2));
  for (unsigned i = 0; i < total; ++i) {
    unsigned t = i % n, lane = t % 32, warp = i - lane;
    unsigned present = present_lanes(t, n), want = 0;
    for (int it = 0; it < count[i]; ++it)
      for (unsigned l = 0; l < 32; ++l)
        if (((present >> l) & 1u) && it < count[warp + l])
          want += (unsigned)it + l;
    ck_assert_msg(out[i] == want, "block (%u,%u,%u): thread %u got %u, want %u",
                  s.block.x, s.block.y, s.block.z, i, out[i], want);
  }
  free(count);
  free(out);
}

START_TEST(masks_shrinking_in_a_loop) {
  cuemu_module *m = warp_module();
  int nshapes;
  const shape *shapes = common_shapes(&nshapes);
  for (int s = 0; s < nshapes; ++s)
    shrinking(m, shapes[s], (uint64_t)s + 500);
  cuemu_module_unload(m);
}
END_TEST

/* ---- Matching ------------------------------------------------------------ */

/* A matched type: its kernel, its size and four values (as bits) that
 * differ where a careless implementation would confuse them: 64-bit values
 * with equal low halves, 0.0 and -0.0, and a NaN. */
typedef struct {
  const char *kernel;
  size_t size;
  uint64_t values[4];
} match_type;

#define M32                                                                    \
  { 0x00000000ull, 0x80000000ull, 0x00000001ull, 0xffffffffull }
#define M64                                                                    \
  {                                                                            \
    0x0000000100000000ull, 0x0000000200000000ull, 0x0ull,                      \
        0xffffffff00000000ull                                                  \
  }
static const match_type match_types[] = {
    {"match_unsigned", 4, M32},
    {"match_int", 4, M32},
    {"match_unsigned_long", 8, M64},
    {"match_long", 8, M64},
    {"match_unsigned_long_long", 8, M64},
    {"match_long_long", 8, M64},
    {"match_float",
     4,
     {0x00000000ull, 0x80000000ull, 0x3fc00000ull, 0x7fc00000ull}},
    {"match_double",
     8,
     {0x0ull, 0x8000000000000000ull, 0x3ff0000000000000ull,
      0x3ff0000000000001ull}},
};
#undef M32
#undef M64
#define NMATCH_TYPES ((int)(sizeof match_types / sizeof match_types[0]))

/* Which of the four values lane `lane` holds, by pattern. */
static int match_key(int pattern, unsigned lane) {
  switch (pattern) {
  case 0:
    return (int)(lane % 4);
  case 1:
    return (int)(lane / 8 % 4);
  case 2:
    return (int)(lane * 7 % 3);
  case 3:
    return 2; /* all equal */
  case 4:
    return lane == 13 ? 1 : 2; /* all equal but lane 13 */
  default:
    return lane % 2 ? 3 : 0;
  }
}
#define NMATCH_PATTERNS 6

static void match(cuemu_module *m, const match_type *type, shape s,
                  unsigned mask, int pattern) {
  unsigned n = block_size(s), total = n * grid_size(s);
  void *in = malloc(total * type->size);
  unsigned *out = malloc(3 * total * sizeof *out);
  for (unsigned i = 0; i < total; ++i)
    put_bits(in, type->size, i, type->values[match_key(pattern, i % n % 32)]);
  memset(out, SENTINEL_BYTE, 3 * total * sizeof *out);
  void *args[] = {&in, &mask, &out};
  TEST_ASSERT_LAUNCH_OK(launch(test_kernel(m, type->kernel), s, args, 3));
  for (unsigned i = 0; i < total; ++i) {
    unsigned t = i % n, lane = t % 32, warp = i - lane;
    unsigned mm = mask & present_lanes(t, n);
    unsigned want[3] = {0xA5A5A5A5u, 0xA5A5A5A5u, 0xA5A5A5A5u};
    if ((mm >> lane) & 1u) {
      uint64_t mine = get_bits(in, type->size, i);
      unsigned any = 0;
      int all = 1;
      for (unsigned l = 0; l < 32; ++l) {
        if (!((mm >> l) & 1u))
          continue;
        uint64_t v = get_bits(in, type->size, warp + l);
        if (v == mine)
          any |= 1u << l;
        else
          all = 0;
      }
      want[0] = any;
      want[1] = all ? mm : 0;
      want[2] = (unsigned)all;
    }
    for (int r = 0; r < 3; ++r)
      ck_assert_msg(out[3 * i + r] == want[r],
                    "%s block (%u,%u,%u) mask 0x%08x pattern %d: thread %u "
                    "result %d is 0x%08x, want 0x%08x",
                    type->kernel, s.block.x, s.block.y, s.block.z, mask,
                    pattern, i, r, out[3 * i + r], want[r]);
  }
  free(in);
  free(out);
}

START_TEST(match_every_type) {
  cuemu_module *m = warp_module();
  const match_type *type = &match_types[_i];
  static const unsigned match_masks[] = {0xffffffffu, 0x55555555u, 0x80000001u,
                                         0x00002000u, 0x0000ffffu};
  for (int p = 0; p < NMATCH_PATTERNS; ++p)
    for (int k = 0; k < 5; ++k) {
      match(m, type, shape_of(1, 64, 1, 1), match_masks[k], p);
      match(m, type, shape_of(2, 8, 4, 3), match_masks[k], p);
    }
  match(m, type, shape_of(1, 17, 1, 1), 0xffffffffu, 0);
  match(m, type, shape_of(1, 17, 1, 1), 0xffffffffu, 3);
  cuemu_module_unload(m);
}
END_TEST

/* Fixed answers: groups of four equal values, then all equal. */
START_TEST(match_known_values) {
  cuemu_module *m = warp_module();
  long long in[32];
  unsigned out[3 * 32], mask = 0xffffffffu;
  for (int l = 0; l < 32; ++l)
    in[l] = (long long)(l / 4) << 32; /* low halves all 0 */
  long long *ip = in;
  unsigned *op = out;
  void *args[] = {&ip, &mask, &op};
  cuemu_kernel *k = test_kernel(m, "match_long_long");
  TEST_ASSERT_LAUNCH_OK(launch(k, shape_of(1, 32, 1, 1), args, 3));
  for (int l = 0; l < 32; ++l) {
    ck_assert_uint_eq(out[3 * l], 0xfu << (l / 4 * 4));
    ck_assert_uint_eq(out[3 * l + 1], 0);
    ck_assert_uint_eq(out[3 * l + 2], 0);
  }
  for (int l = 0; l < 32; ++l)
    in[l] = -5;
  TEST_ASSERT_LAUNCH_OK(launch(k, shape_of(1, 32, 1, 1), args, 3));
  for (int l = 0; l < 32; ++l) {
    ck_assert_uint_eq(out[3 * l], 0xffffffffu);
    ck_assert_uint_eq(out[3 * l + 1], 0xffffffffu);
    ck_assert_uint_eq(out[3 * l + 2], 1);
  }
  cuemu_module_unload(m);
}
END_TEST

/* ---- Reductions ---------------------------------------------------------- */

static void reduce_int(cuemu_module *m, shape s, unsigned mask, uint64_t seed) {
  unsigned n = block_size(s), total = n * grid_size(s);
  int *in = malloc(total * sizeof *in), *out = malloc(3 * total * sizeof *out);
  for (unsigned i = 0; i < total; ++i) {
    uint64_t r = next_random(&seed);
    /* Small negatives and positives, and extremes whose sums wrap. */
    in[i] = r % 4 == 0 ? (int)(uint32_t)(r >> 32) : (int)(r % 2001) - 1000;
  }
  memset(out, SENTINEL_BYTE, 3 * total * sizeof *out);
  void *args[] = {&in, &mask, &out};
  TEST_ASSERT_LAUNCH_OK(launch(test_kernel(m, "reduce_int"), s, args, 3));
  for (unsigned i = 0; i < total; ++i) {
    unsigned t = i % n, lane = t % 32, warp = i - lane;
    unsigned mm = mask & present_lanes(t, n);
    int want[3] = {(int)0xA5A5A5A5u, (int)0xA5A5A5A5u, (int)0xA5A5A5A5u};
    if ((mm >> lane) & 1u) {
      uint32_t sum = 0;
      int lo = INT32_MAX, hi = INT32_MIN;
      for (unsigned l = 0; l < 32; ++l)
        if ((mm >> l) & 1u) {
          int v = in[warp + l];
          sum += (uint32_t)v;
          lo = v < lo ? v : lo;
          hi = v > hi ? v : hi;
        }
      want[0] = (int)sum;
      want[1] = lo;
      want[2] = hi;
    }
    for (int r = 0; r < 3; ++r)
      ck_assert_msg(out[3 * i + r] == want[r],
                    "reduce_int block (%u,%u,%u) mask 0x%08x: thread %u "
                    "result %d is %d, want %d",
                    s.block.x, s.block.y, s.block.z, mask, i, r, out[3 * i + r],
                    want[r]);
  }
  free(in);
  free(out);
}

static void reduce_unsigned(cuemu_module *m, shape s, unsigned mask,
                            uint64_t seed) {
  unsigned n = block_size(s), total = n * grid_size(s);
  unsigned *in = malloc(total * sizeof *in);
  unsigned *out = malloc(6 * total * sizeof *out);
  for (unsigned i = 0; i < total; ++i) {
    uint64_t r = next_random(&seed);
    /* Values above 2^31 tell unsigned from signed comparisons. */
    in[i] = r % 3 == 0 ? (unsigned)(r >> 32) | 0x80000000u : (unsigned)r;
  }
  memset(out, SENTINEL_BYTE, 6 * total * sizeof *out);
  void *args[] = {&in, &mask, &out};
  TEST_ASSERT_LAUNCH_OK(launch(test_kernel(m, "reduce_unsigned"), s, args, 3));
  for (unsigned i = 0; i < total; ++i) {
    unsigned t = i % n, lane = t % 32, warp = i - lane;
    unsigned mm = mask & present_lanes(t, n);
    unsigned want[6];
    for (int r = 0; r < 6; ++r)
      want[r] = 0xA5A5A5A5u;
    if ((mm >> lane) & 1u) {
      unsigned sum = 0, lo = UINT32_MAX, hi = 0, and_ = UINT32_MAX, or_ = 0,
               xor_ = 0;
      for (unsigned l = 0; l < 32; ++l)
        if ((mm >> l) & 1u) {
          unsigned v = in[warp + l];
          sum += v;
          lo = v < lo ? v : lo;
          hi = v > hi ? v : hi;
          and_ &= v;
          or_ |= v;
          xor_ ^= v;
        }
      want[0] = sum;
      want[1] = lo;
      want[2] = hi;
      want[3] = and_;
      want[4] = or_;
      want[5] = xor_;
    }
    for (int r = 0; r < 6; ++r)
      ck_assert_msg(out[6 * i + r] == want[r],
                    "reduce_unsigned block (%u,%u,%u) mask 0x%08x: thread %u "
                    "result %d is 0x%08x, want 0x%08x",
                    s.block.x, s.block.y, s.block.z, mask, i, r, out[6 * i + r],
                    want[r]);
  }
  free(in);
  free(out);
}

START_TEST(reductions_every_shape_and_mask) {
  cuemu_module *m = warp_module();
  int nshapes;
  const shape *shapes = common_shapes(&nshapes);
  for (int s = 0; s < nshapes; ++s)
    for (int k = 0; k < NMASKS; ++k) {
      reduce_int(m, shapes[s], masks[k], (uint64_t)(s * 50 + k));
      reduce_unsigned(m, shapes[s], masks[k], (uint64_t)(s * 50 + k + 7));
    }
  cuemu_module_unload(m);
}
END_TEST

/* Fixed answers: -16..15 in one warp. */
START_TEST(reductions_known_values) {
  cuemu_module *m = warp_module();
  int in[32], out[3 * 32];
  unsigned mask = 0xffffffffu;
  for (int l = 0; l < 32; ++l)
    in[l] = l - 16;
  int *ip = in, *op = out;
  void *args[] = {&ip, &mask, &op};
  TEST_ASSERT_LAUNCH_OK(
      launch(test_kernel(m, "reduce_int"), shape_of(1, 32, 1, 1), args, 3));
  for (int l = 0; l < 32; ++l) {
    ck_assert_int_eq(out[3 * l], -16);
    ck_assert_int_eq(out[3 * l + 1], -16);
    ck_assert_int_eq(out[3 * l + 2], 15);
  }
  /* The odd lanes only: -15, -13, ..., 15. */
  mask = 0xaaaaaaaau;
  TEST_ASSERT_LAUNCH_OK(
      launch(test_kernel(m, "reduce_int"), shape_of(1, 32, 1, 1), args, 3));
  for (int l = 1; l < 32; l += 2) {
    ck_assert_int_eq(out[3 * l], 0);
    ck_assert_int_eq(out[3 * l + 1], -15);
    ck_assert_int_eq(out[3 * l + 2], 15);
  }
  cuemu_module_unload(m);
}
END_TEST

/* ---- __syncwarp ---------------------------------------------------------- */

/* The next lane of `m` after `lane`, cyclically. */
static unsigned next_lane(unsigned m, unsigned lane) {
  for (unsigned d = 1; d <= 32; ++d)
    if ((m >> ((lane + d) % 32)) & 1u)
      return (lane + d) % 32;
  return lane;
}

static void exchange(cuemu_module *m, shape s, unsigned mask, int mode) {
  unsigned n = block_size(s), total = n * grid_size(s);
  int rounds = 5;
  unsigned *out = malloc(total * sizeof *out);
  memset(out, SENTINEL_BYTE, total * sizeof *out);
  void *args[] = {&mask, &rounds, &mode, &out};
  TEST_ASSERT_LAUNCH_OK(launch(test_kernel(m, "exchange"), s, args, 4));
  for (unsigned i = 0; i < total; ++i) {
    unsigned t = i % n, lane = t % 32;
    unsigned mm = mask & present_lanes(t, n), want = 0xA5A5A5A5u;
    if ((mm >> lane) & 1u) {
      unsigned from = t - lane + next_lane(mm, lane);
      want = 0;
      for (int r = 0; r < rounds; ++r)
        want = want * 31u + from * 1000u + (unsigned)r;
    }
    ck_assert_msg(out[i] == want,
                  "exchange block (%u,%u,%u) mask 0x%08x mode %d: thread %u "
                  "got 0x%08x, want 0x%08x",
                  s.block.x, s.block.y, s.block.z, mask, mode, i, out[i], want);
  }
  free(out);
}

START_TEST(syncwarp_orders_shared_memory) {
  cuemu_module *m = warp_module();
  int nshapes;
  const shape *shapes = common_shapes(&nshapes);
  for (int s = 0; s < nshapes; ++s)
    for (int k = 0; k < NMASKS; ++k)
      exchange(m, shapes[s], masks[k], 0);
  exchange(m, shape_of(3, 32, 1, 1), 0xffffffffu, 1);
  exchange(m, shape_of(1, 1024, 1, 1), 0xffffffffu, 1);
  exchange(m, shape_of(2, 8, 4, 4), 0xffffffffu, 1);
  cuemu_module_unload(m);
}
END_TEST

/* ---- Misuse -------------------------------------------------------------- */

/* What a misuse case must report: its intrinsic, the marker of its line,
 * the mask, and parts of the message about the lanes. */
typedef struct {
  int which; /* the case of warp_misuse.cu */
  unsigned threads;
  const char *name, *marker, *mask;
  const char *parts[4];
} misuse_case;

static const misuse_case misuse_cases[] = {
    {0,
     32,
     "__ballot_sync",
     "NOT_IN_MASK",
     "mask 0x00000006",
     {"the calling lane is not in its own mask", "lane 0)", NULL}},
    {3,
     32,
     "_sync",
     "ANY_HALF",
     "mask 0xffffffff",
     {"__any_sync", "__all_sync", NULL}},
    {4,
     32,
     "__syncwarp",
     "SYNCWARP_HALF",
     "mask 0xffffffff",
     {"lane 16 waits at __syncthreads", "lane 31 waits at __syncthreads",
      NULL}},
    {6,
     32,
     "__shfl_down_sync",
     "SINGLE",
     "mask 0x00000100",
     {"the calling lane is not in its own mask", "lane 9)", NULL}},
    {7,
     32,
     "_sync",
     "BALLOT_ODD",
     "mask 0x00000003",
     {"lanes arrived: ", NULL}},
};
#define NMISUSE ((int)(sizeof misuse_cases / sizeof misuse_cases[0]))

/* Case _i, under the default schedule and then reversed; then a correct
 * launch of the same kernel runs. */
START_TEST(misuse_is_reported) {
  const misuse_case *c = &misuse_cases[_i];
  cuemu_module *m = warp_module();
  cuemu_kernel *k = test_kernel(m, "misuse");
  static const char *const schedules[] = {"forward", "reverse", "random:3"};
  for (int sc = 0; sc < 3; ++sc) {
    test_setenv("CUEMU_SCHEDULE", schedules[sc]);
    unsigned out[32];
    int which = c->which;
    unsigned *op = out;
    void *args[] = {&which, &op};
    cuemu_status st = launch(k, shape_of(1, c->threads, 1, 1), args, 2);
    ck_assert_msg(st == CUEMU_WARP_MISUSE, "case %d (%s): %s: %s", _i,
                  schedules[sc], cuemu_status_name(st), cuemu_last_message());
    const char *msg = cuemu_last_message();
    char part[256];
    TEST_ASSERT_CONTAINS(msg, "kernel misuse");
    TEST_ASSERT_CONTAINS(msg, c->name);
    snprintf(part, sizeof part, "warp_misuse.cu:%d",
             test_marker_line("warp_misuse.cu", c->marker));
    if (c->which == 3 || c->which == 7) {
      /* Either half may be reported, naming the other. */
      char other[256];
      snprintf(other, sizeof other, "warp_misuse.cu:%d",
               test_marker_line("warp_misuse.cu",
                                c->which == 3 ? "ALL_HALF" : "SHFL_EVEN"));
      TEST_ASSERT_CONTAINS(msg, part);
      TEST_ASSERT_CONTAINS(msg, other);
    } else {
      snprintf(part + strlen(part), sizeof part - strlen(part), " with %s",
               c->mask);
      TEST_ASSERT_CONTAINS(msg, part);
    }
    TEST_ASSERT_CONTAINS(msg, c->mask);
    TEST_ASSERT_CONTAINS(msg, "; lane");
    /* Under a random schedule, lanes may not have run yet when the misuse
     * shows: the message names those that exited or wait elsewhere by
     * then, which need not be all of them. */
    for (int p = 0; c->parts[p] && sc < 2; ++p)
      TEST_ASSERT_CONTAINS(msg, c->parts[p]);
    if (c->which == 4 && sc < 2) {
      snprintf(part, sizeof part, "warp_misuse.cu:%d)",
               test_marker_line("warp_misuse.cu", "SYNCTHREADS_HALF"));
      TEST_ASSERT_CONTAINS(msg, part);
    }
    if (c->which == 3)
      ck_assert_msg(strstr(msg, "lanes arrived: 0-15") ||
                        strstr(msg, "lanes arrived: 16-31"),
                    "message \"%s\" does not say which half arrived", msg);

    /* The process lives on, and a correct launch runs. */
    which = 99;
    memset(out, 0, sizeof out);
    TEST_ASSERT_LAUNCH_OK(launch(k, shape_of(1, 32, 1, 1), args, 2));
    for (int t = 0; t < 32; ++t)
      ck_assert_uint_eq(out[t], 1);
  }
  cuemu_module_unload(m);
}
END_TEST

/* CUDA's rule: a mask may name lanes that have exited or do not exist; the
 * collective completes among the others (cases 1, 2 and 5 of
 * warp_misuse.cu), under every schedule. */
START_TEST(masks_may_name_exited_and_absent_lanes) {
  cuemu_module *m = warp_module();
  cuemu_kernel *k = test_kernel(m, "misuse");
  static const char *const schedules[] = {"forward", "reverse", "random:3"};
  for (int sc = 0; sc < 3; ++sc) {
    test_setenv("CUEMU_SCHEDULE", schedules[sc]);
    unsigned out[32], *op = out;
    int which;
    void *args[] = {&which, &op};
    /* Lanes 16 to 31 returned: the others read lane 0's value (0). */
    which = 1;
    TEST_ASSERT_LAUNCH_OK(launch(k, shape_of(1, 32, 1, 1), args, 2));
    for (unsigned t = 0; t < 32; ++t)
      ck_assert_uint_eq(out[t], t < 16 ? 1u : 0u);
    /* A partial warp of 20 lanes: a full-mask sum over the 20. */
    which = 2;
    TEST_ASSERT_LAUNCH_OK(launch(k, shape_of(1, 20, 1, 1), args, 2));
    for (unsigned t = 0; t < 20; ++t)
      ck_assert_uint_eq(out[t], 21u);
    /* __syncwarp(lanes 0 and 31) after lane 31 returned. */
    which = 5;
    TEST_ASSERT_LAUNCH_OK(launch(k, shape_of(1, 32, 1, 1), args, 2));
    for (unsigned t = 0; t < 32; ++t)
      ck_assert_uint_eq(out[t], t == 31 ? 0u : 1u);
  }
  cuemu_module_unload(m);
}
END_TEST

/* ---- The legacy intrinsics ----------------------------------------------- */

/* Compiles bad_warp_legacy.cu with the compiler of environment variable _i
 * (g++, then clang++; see test_compiler); every legacy call must fail with
 * a message naming its _sync form, pointing at the call's line. */
START_TEST(legacy_intrinsics_do_not_compile) {
  const char *cxx = test_compiler(_i);
  if (!cxx)
    return;
  char name[64];
  snprintf(name, sizeof name, "warp_legacy.%d.%ld", _i, (long)getpid());
  char *source = test_src_path("tests/kernels/bad_warp_legacy.cu");
  char *output = test_tmp_path(name);
  char log_name[80];
  snprintf(log_name, sizeof log_name, "%s.log", name);
  char *log = test_tmp_path(log_name);

  cuemu_compile_options o;
  memset(&o, 0, sizeof o);
  o.module = 1;
  o.cxx = cxx;
  o.no_cache = 1;
  test_capture capture = test_capture_begin(2, log);
  cuemu_status st = cuemu_compile(source, output, &o, NULL);
  test_capture_end(&capture);

  ck_assert_int_eq(st, CUEMU_COMPILE);
  char *text = test_read_text(log, NULL);
  static const char *const messages[] = {
      "__shfl() is not valid on compute_70 and above; use __shfl_sync(",
      "__shfl_up() is not valid on compute_70 and above; use __shfl_up_sync(",
      "__shfl_down() is not valid on compute_70 and above; use "
      "__shfl_down_sync(",
      "__shfl_xor() is not valid on compute_70 and above; use "
      "__shfl_xor_sync(",
      "__ballot() is not valid on compute_70 and above; use __ballot_sync(",
      "__all() is not valid on compute_70 and above; use __all_sync(",
      "__any() is not valid on compute_70 and above; use __any_sync(",
  };
  for (int i = 0; i < 7; ++i)
    ck_assert_msg(strstr(text, messages[i]) != NULL, "%s: no \"%s\" in %s", cxx,
                  messages[i], log);
  /* Each of the eleven calls is an error of its own (a line with "error:"
   * and the message; the compilers also echo the header's source lines),
   * located at the call's line. */
  int errors = 0;
  for (const char *p = text; *p;) {
    const char *end = strchr(p, '\n');
    size_t len = end ? (size_t)(end - p) : strlen(p);
    char line[1024];
    snprintf(line, sizeof line, "%.*s", (int)(len < 1023 ? len : 1023), p);
    errors += strstr(line, "error:") && strstr(line, "is not valid on");
    p += len + (end != NULL);
  }
  ck_assert_msg(errors == 11, "%s: %d legacy errors, want 11 (see %s)", cxx,
                errors, log);
  int first = test_marker_line("bad_warp_legacy.cu", "i[0] = __shfl(");
  for (int line = first; line < first + 11; ++line) {
    char where[64];
    snprintf(where, sizeof where, "bad_warp_legacy.cu:%d:", line);
    ck_assert_msg(strstr(text, where) != NULL, "%s: no %s in %s", cxx, where,
                  log);
  }
  free(text);
  unlink(log);
  free(log);
  free(output);
  free(source);
}
END_TEST

/* ---- Schedules and workers ----------------------------------------------- */

static const struct {
  const char *workers, *schedule;
} configs[] = {
    {"1", "forward"}, {"1", "reverse"}, {"1", "random:3"},
    {"2", "forward"}, {"2", "reverse"}, {"2", "random:3"},
};
#define NCONFIGS ((int)(sizeof configs / sizeof configs[0]))

/* The same expectations hold under every schedule and number of workers:
 * a sample of every kind of intrinsic, over several blocks. */
START_TEST(results_do_not_depend_on_the_schedule) {
  test_setenv("CUEMU_WORKERS", configs[_i].workers);
  test_setenv("CUEMU_SCHEDULE", configs[_i].schedule);
  cuemu_module *m = warp_module();
  sweep(m, &shuffle_types[0], shape_of(3, 100, 1, 1), 0xffffffffu, 11);
  sweep(m, &shuffle_types[0], shape_of(2, 8, 4, 3), 0x9E3779B9u, 12);
  sweep(m, &shuffle_types[7], shape_of(2, 45, 1, 1), 0x55555555u, 13);
  block_sum(m, shape_of(3, 1000, 1, 1), 18);
  block_sum(m, shape_of(2, 5, 3, 7), 19);
  cuemu_module_unload(m);
  m = warp_module();
  votes(m, shape_of(3, 8, 4, 3), 0xffffffffu, 0, 14);
  votes(m, shape_of(2, 100, 1, 1), 0x80000001u, 3, 15);
  for (int mode = 0; mode < 3; ++mode)
    active_branch(m, shape_of(3, 70, 1, 1), mode, 0, 20);
  split_branches(m, shape_of(2, 8, 4, 3), 21);
  shrinking(m, shape_of(3, 100, 1, 1), 22);
  cuemu_module_unload(m);
  m = warp_module();
  match(m, &match_types[5], shape_of(3, 64, 1, 1), 0xffffffffu, 1);
  match(m, &match_types[6], shape_of(2, 45, 1, 1), 0x55555555u, 5);
  cuemu_module_unload(m);
  m = warp_module();
  reduce_int(m, shape_of(3, 100, 1, 1), 0xffffffffu, 16);
  reduce_unsigned(m, shape_of(2, 5, 3, 7), 0x9E3779B9u, 17);
  cuemu_module_unload(m);
  m = warp_module();
  exchange(m, shape_of(4, 96, 1, 1), 0xffffffffu, 0);
  exchange(m, shape_of(3, 45, 1, 1), 0x80000001u, 0);
  exchange(m, shape_of(2, 8, 4, 4), 0xffffffffu, 1);
  cuemu_module_unload(m);
}
END_TEST

/* ---- Inactive source lanes ------------------------------------------------- */

/* Runs shfl_outside_mask with stderr captured; returns what it printed. */
static char *run_outside_mask(int *out) {
  cuemu_module *m = warp_module();
  char *log = test_tmp_path("warp_inactive.stderr");
  void *args[] = {&out};
  test_capture cap = test_capture_begin(2, log);
  cuemu_status st = test_launch1(test_kernel(m, "shfl_outside_mask"), 1, 32,
                                 args, 1);
  test_capture_end(&cap);
  ck_assert_int_eq(st, CUEMU_SUCCESS);
  char *text = test_read_text(log, NULL);
  free(log);
  return text;
}

START_TEST(inactive_source_warns_with_checkers) {
  int out[32];
  memset(out, 0xff, sizeof out);
  test_setenv("CUEMU_CHECK", "sync");
  char *text = run_outside_mask(out);
  TEST_ASSERT_CONTAINS(text, "warning");
  TEST_ASSERT_CONTAINS(text, "__shfl_sync");
  TEST_ASSERT_CONTAINS(text, "warp_inactive.cu:");
  TEST_ASSERT_CONTAINS(text, "0x55555555");
  TEST_ASSERT_CONTAINS(text, "unspecified");
  for (int i = 0; i < 32; i += 2)
    ck_assert_int_eq(out[i], i); /* the caller's own value */
  free(text);
}
END_TEST

/* With CUEMU_CHECK unset, the warning comes where synccheck is built into
 * the kernel (tests/checkers_suites.sh builds this suite's modules with
 * CUEMU_CC_CHECK=all; a checked build said nothing before) and nowhere
 * else. */
START_TEST(inactive_source_warns_only_where_synccheck_runs) {
  int out[32];
  test_setenv("CUEMU_CHECK", NULL);
  const char *built = getenv("CUEMU_CC_CHECK");
  int synccheck = built && (strstr(built, "all") || strstr(built, "sync"));
  char *text = run_outside_mask(out);
  if (synccheck) {
    TEST_ASSERT_CONTAINS(text, "warning");
    TEST_ASSERT_CONTAINS(text, "unspecified");
  } else {
    ck_assert_msg(strstr(text, "warning") == NULL, "unexpected: %s", text);
  }
  free(text);
}
END_TEST

START_TEST(inactive_source_is_quiet_with_checkers_off) {
  int out[32];
  test_setenv("CUEMU_CHECK", "none");
  char *text = run_outside_mask(out);
  ck_assert_msg(strstr(text, "warning") == NULL, "unexpected: %s", text);
  free(text);
}
END_TEST

Suite *make_warp_suite(void) {
  Suite *s = suite_create("warp");
  TCase *tc = test_tcase(s, "shuffle", 120);
  tcase_add_test(tc, shuffle_model_known_cases);
  tcase_add_test(tc, shuffle_every_width_shape_and_mask);
  tcase_add_loop_test(tc, shuffle_every_type, 0, NSHUFFLE_TYPES);
  tcase_add_test(tc, shuffle_xor_sum);
  tcase_add_test(tc, shuffle_from_two_call_sites);
  tcase_add_test(tc, shuffle_per_lane_operands);
  tcase_add_test(tc, shuffle_block_sum);
  tcase_add_test(tc, inactive_source_warns_with_checkers);
  tcase_add_test(tc, inactive_source_warns_only_where_synccheck_runs);
  tcase_add_test(tc, inactive_source_is_quiet_with_checkers_off);

  tc = test_tcase(s, "vote", 60);
  tcase_add_test(tc, votes_every_shape_mask_and_predicate);
  tcase_add_test(tc, votes_follow_row_major_lanes);
  tcase_add_test(tc, activemask_in_a_branch);
  tcase_add_test(tc, ballot_from_two_call_sites);
  tcase_add_test(tc, masks_of_two_branches);
  tcase_add_test(tc, masks_shrinking_in_a_loop);
  tcase_add_test(tc, outside_a_kernel_one_lane);

  tc = test_tcase(s, "match", 60);
  tcase_add_loop_test(tc, match_every_type, 0, NMATCH_TYPES);
  tcase_add_test(tc, match_known_values);

  tc = test_tcase(s, "reduce", 60);
  tcase_add_test(tc, reductions_every_shape_and_mask);
  tcase_add_test(tc, reductions_known_values);

  tc = test_tcase(s, "syncwarp", 60);
  tcase_add_test(tc, syncwarp_orders_shared_memory);

  tc = test_tcase(s, "misuse", 60);
  tcase_add_loop_test(tc, misuse_is_reported, 0, NMISUSE);
  tcase_add_test(tc, masks_may_name_exited_and_absent_lanes);

  tc = test_tcase(s, "legacy", 120);
  tcase_add_loop_test(tc, legacy_intrinsics_do_not_compile, 0, 2);

  tc = test_tcase(s, "schedules", 120);
  tcase_add_loop_test(tc, results_do_not_depend_on_the_schedule, 0, NCONFIGS);
  return s;
}
