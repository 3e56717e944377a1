/*
 * cuemu_warp.c: warp collectives (shuffles, votes, matches, reductions,
 * __syncwarp) and __activemask.
 *
 * A warp is 32 consecutive threads of the block in linear order. A lane that
 * reaches a collective records its operands and waits; the lane that
 * completes the set named by the mask computes every lane's result, as
 * PTX's shfl.sync, vote.sync, match.sync and redux.sync define them, wakes
 * the others and carries on without a switch.
 *
 * CUDA's rule: "all non-exited threads named in mask must execute the same
 * intrinsic with the same mask". So a collective completes once every lane
 * of its mask that exists and has not exited has arrived: a full mask in a
 * partial warp, or after some lanes returned, is legal. A lane that exits
 * while others wait lets them complete when nothing else in the block can
 * run. Reading the value of a lane that exited or does not exist is
 * undefined on a GPU: a shuffle gets the reading lane's own value, a vote
 * counts such a lane as false, and synccheck reports it. Only lanes that are
 * alive and wait elsewhere make a collective that cannot complete, which is
 * reported when nothing else in the block can run.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "check/cuemu_check.h"
#include "core/cuemu_worker.h"
#include "core/cuemu_worker_layout.h"

#define WARP_SIZE 32u

/* The layout that the assembler fast path of the collectives relies on
 * (cuemu_warp_sync_x86_64.S; the barrier's part of it is checked in
 * cuemu_block.c). */
#if !CUEMU_CONTEXT_UCONTEXT && defined(__x86_64__)
#define LAYOUT CUEMU_LAYOUT_CHECK
LAYOUT(cuemu_worker, warp_waiting, CUEMU_W_WARP_WAITING);
LAYOUT(cuemu_worker, warp_live, CUEMU_W_WARP_LIVE);
LAYOUT(cuemu_worker, warp_gather, CUEMU_W_WARP_GATHER);
LAYOUT(struct cuemu_warp_gather, lanes, CUEMU_G_LANES);
LAYOUT(struct cuemu_warp_gather, alike, CUEMU_G_ALIKE);
LAYOUT(struct cuemu_warp_gather, key, CUEMU_G_KEY);
LAYOUT(struct cuemu_warp_gather, operands, CUEMU_G_OPERANDS);
LAYOUT(cuemu_thread, warp.arg, CUEMU_T_WARP_ARG);
LAYOUT(cuemu_thread, warp.width, CUEMU_T_WARP_WIDTH);
LAYOUT(cuemu_thread, warp.mask, CUEMU_T_WARP_MASK);
LAYOUT(cuemu_thread, warp.name, CUEMU_T_WARP_NAME);
LAYOUT(cuemu_thread, warp.value, CUEMU_T_WARP_VALUE);
LAYOUT(cuemu_thread, warp.result, CUEMU_T_WARP_RESULT);
#undef LAYOUT
_Static_assert(sizeof(struct cuemu_warp_gather) == CUEMU_G_SIZE,
               "gather record");
_Static_assert(CUEMU_KIND_WARP == CUEMU_SYNC_WARP, "enum value");
#endif

/* The lanes of warp `base` (its first thread) that exist in the block. */
static unsigned warp_lanes(const cuemu_worker *w, unsigned base) {
  unsigned n = w->nthreads - base;
  return n >= WARP_SIZE ? 0xffffffffu : (1u << n) - 1u;
}

/* The source lane of a shuffle, following PTX shfl.sync with the c operand
 * that CUDA's __shfl*_sync(width) pass; -1 when it is out of the segment
 * (the caller then gets its own value). */
static inline __attribute__((always_inline)) int
shuffle_source(int op, unsigned lane, int arg, int width) {
  unsigned segmask = (WARP_SIZE - (unsigned)width) & 0x1fu;
  unsigned cval = op == CUEMU_WARP_SHFL_UP ? 0u : 0x1fu;
  int max_lane = (int)((lane & segmask) | (cval & ~segmask));
  int min_lane = (int)(lane & segmask);
  int b = arg & 0x1f, j;
  int ok;
  switch (op) {
  case CUEMU_WARP_SHFL_UP:
    j = (int)lane - b;
    ok = j >= max_lane;
    break;
  case CUEMU_WARP_SHFL_DOWN:
    j = (int)lane + b;
    ok = j <= max_lane;
    break;
  case CUEMU_WARP_SHFL_XOR:
    j = (int)lane ^ b;
    ok = j <= max_lane;
    break;
  default: /* CUEMU_WARP_SHFL_IDX */
    j = min_lane | (b & (int)~segmask & 0x1f);
    ok = j <= max_lane;
    break;
  }
  return ok ? j : -1;
}

/* The lanes of `mask` in warp `base` that exist and have not exited: those
 * that take part in a collective of that mask. */
static inline unsigned live_lanes(const cuemu_worker *w, unsigned base,
                                  unsigned mask) {
  return mask & w->warp_live[base / WARP_SIZE];
}

/* The shuffles of compute() below. */
static inline __attribute__((always_inline)) unsigned
compute_shuffle(int op, unsigned mask, cuemu_thread *lanes) {
  unsigned inactive = 0;
  for (unsigned m = mask; m; m &= m - 1) {
    unsigned l = (unsigned)__builtin_ctz(m);
    cuemu_warp_wait *me = &lanes[l].warp;
    int src = shuffle_source(op, l, me->arg, me->width);
    /* A source outside the mask is inactive (or gone): CUDA leaves the
     * result unspecified; the caller's own value is as good as any. */
    if (src >= 0 && !(mask >> src & 1u))
      inactive |= 1u << l;
    me->result = src >= 0 && (mask >> src & 1u) ? lanes[src].warp.value
                                                 : me->value;
  }
  return inactive;
}

/* A shuffle of every lane of a warp with the same source operand and width
 * (the common case): compute_shuffle() with the per-lane work that depends
 * only on those hoisted out of the loop. No source is inactive. */
static inline __attribute__((always_inline)) void
compute_shuffle_full_with(int op, cuemu_thread *lanes, int arg, int width) {
  for (unsigned l = 0; l < WARP_SIZE; ++l) {
    int src = shuffle_source(op, l, arg, width);
    lanes[l].warp.result = lanes[src >= 0 ? src : (int)l].warp.value;
  }
}

/* Gives the `n` lanes from `dst` the values of the `n` lanes from `src`
 * as their results (unrolled: the copy is most of a shuffle's gather). */
static inline __attribute__((always_inline)) void
copy_values(cuemu_thread *dst, const cuemu_thread *src, unsigned n) {
#pragma GCC unroll 4
  for (unsigned i = 0; i < n; ++i)
    dst[i].warp.result = src[i].warp.value;
}

/* compute_shuffle_full_with() for the width of a whole warp, where the
 * source lane is a shift or a flip of the lane (b is the operand's low 5
 * bits): up and down in two runs (the lanes that read a source, then those
 * that keep their own value), with no test per lane. */
static inline __attribute__((always_inline)) void
compute_shuffle_warp(int op, cuemu_thread *lanes, unsigned b) {
  switch (op) {
  case CUEMU_WARP_SHFL_DOWN:
    copy_values(lanes, lanes + b, WARP_SIZE - b);
    copy_values(lanes + (WARP_SIZE - b), lanes + (WARP_SIZE - b), b);
    break;
  case CUEMU_WARP_SHFL_UP:
    copy_values(lanes, lanes, b);
    copy_values(lanes + b, lanes, WARP_SIZE - b);
    break;
  case CUEMU_WARP_SHFL_XOR:
#pragma GCC unroll 4
    for (unsigned l = 0; l < WARP_SIZE; ++l)
      lanes[l].warp.result = lanes[l ^ b].warp.value;
    break;
  default: { /* CUEMU_WARP_SHFL_IDX */
    unsigned long long v = lanes[b].warp.value;
#pragma GCC unroll 4
    for (unsigned l = 0; l < WARP_SIZE; ++l)
      lanes[l].warp.result = v;
    break;
  }
  }
}

/* The shuffles of compute(): compute_shuffle_warp() or
 * compute_shuffle_full_with() when every lane of the warp takes part with
 * the same operands (`uniform`); else compute_shuffle(). */
static inline __attribute__((always_inline)) unsigned
compute_shuffles(int op, unsigned mask, cuemu_thread *lanes, int uniform) {
  if (!uniform || mask != 0xffffffffu)
    return compute_shuffle(op, mask, lanes);
  int arg = lanes[0].warp.arg, width = lanes[0].warp.width;
  /* (The source lane depends on the width only through its low 5 bits,
   * as in PTX's c operand: 32 and 0 are the same.) */
  if (((WARP_SIZE - (unsigned)width) & 0x1fu) == 0)
    compute_shuffle_warp(op, lanes, (unsigned)arg & 0x1fu);
  else
    compute_shuffle_full_with(op, lanes, arg, width);
  return 0;
}

/* The reduction `op` (one of CUEMU_WARP_REDUCE_*) of the low 32 bits of the
 * values of the lanes in `mask` (not empty), one loop per operation. */
static inline __attribute__((always_inline)) unsigned
reduce_lanes(int op, unsigned mask, const cuemu_thread *lanes) {
  unsigned acc = (unsigned)lanes[__builtin_ctz(mask)].warp.value;
  for (unsigned m = mask & (mask - 1); m; m &= m - 1) {
    unsigned v = (unsigned)lanes[__builtin_ctz(m)].warp.value;
    switch (op) {
    case CUEMU_WARP_REDUCE_ADD: acc += v; break;
    case CUEMU_WARP_REDUCE_MIN_S: acc = (int)v < (int)acc ? v : acc; break;
    case CUEMU_WARP_REDUCE_MAX_S: acc = (int)v > (int)acc ? v : acc; break;
    case CUEMU_WARP_REDUCE_MIN_U: acc = v < acc ? v : acc; break;
    case CUEMU_WARP_REDUCE_MAX_U: acc = v > acc ? v : acc; break;
    case CUEMU_WARP_REDUCE_AND: acc &= v; break;
    case CUEMU_WARP_REDUCE_OR: acc |= v; break;
    default: acc ^= v; break; /* CUEMU_WARP_REDUCE_XOR */
    }
  }
  return acc;
}

/* The lanes of `mask` whose value is not zero. */
static inline unsigned ballot_lanes(unsigned mask, const cuemu_thread *lanes) {
  unsigned ballot = 0;
  for (unsigned m = mask; m; m &= m - 1) {
    unsigned l = (unsigned)__builtin_ctz(m);
    ballot |= (unsigned)(lanes[l].warp.value != 0) << l;
  }
  return ballot;
}

/* Computes the result of every lane in `mask` (the live lanes of the
 * collective) from the operands in `lanes` (indexed by lane); `uniform`
 * says that they all passed the same shuffle operands. Returns the
 * lanes whose shuffle read a lane outside `mask` (an unspecified value on
 * the GPU, or an undefined one when the source was named but is gone). */
static unsigned compute(int op, unsigned mask, cuemu_thread *lanes,
                        int uniform) {
  unsigned long long r;
  if (__builtin_expect(mask == 0, 0))
    return 0;
  switch (op) {
  /* One loop per kind of shuffle, so that each is compiled with its
   * source-lane formula folded in. */
  case CUEMU_WARP_SHFL_IDX:
    return compute_shuffles(CUEMU_WARP_SHFL_IDX, mask, lanes, uniform);
  case CUEMU_WARP_SHFL_UP:
    return compute_shuffles(CUEMU_WARP_SHFL_UP, mask, lanes, uniform);
  case CUEMU_WARP_SHFL_DOWN:
    return compute_shuffles(CUEMU_WARP_SHFL_DOWN, mask, lanes, uniform);
  case CUEMU_WARP_SHFL_XOR:
    return compute_shuffles(CUEMU_WARP_SHFL_XOR, mask, lanes, uniform);
  case CUEMU_WARP_MATCH_ANY:
    /* One pass over the lanes not yet grouped per distinct value: the
     * first of them gathers its group, and every lane of the group gets
     * it. */
    for (unsigned left = mask; left;) {
      unsigned long long v = lanes[__builtin_ctz(left)].warp.value;
      unsigned same = 0;
      for (unsigned k = left; k; k &= k - 1)
        if (lanes[__builtin_ctz(k)].warp.value == v)
          same |= 1u << __builtin_ctz(k);
      for (unsigned k = same; k; k &= k - 1)
        lanes[__builtin_ctz(k)].warp.result = same;
      left &= ~same;
    }
    return 0;
  case CUEMU_WARP_SYNC: r = 0; break;
  case CUEMU_WARP_BALLOT: r = ballot_lanes(mask, lanes); break;
  case CUEMU_WARP_ALL: r = ballot_lanes(mask, lanes) == mask; break;
  case CUEMU_WARP_ANY: r = ballot_lanes(mask, lanes) != 0; break;
  case CUEMU_WARP_UNI: {
    unsigned ballot = ballot_lanes(mask, lanes);
    r = ballot == mask || ballot == 0;
    break;
  }
  case CUEMU_WARP_MATCH_ALL: {
    unsigned long long first = lanes[__builtin_ctz(mask)].warp.value;
    unsigned differ = 0;
    for (unsigned m = mask; m; m &= m - 1)
      differ |= lanes[__builtin_ctz(m)].warp.value != first;
    r = differ ? 0 : mask;
    break;
  }
  /* The reductions: one loop each, with the operation folded in. */
#define CUEMU_WARP_REDUCE_CASE(OP)                                             \
  case OP:                                                                     \
    r = reduce_lanes(OP, mask, lanes);                                         \
    break;
  CUEMU_WARP_REDUCE_CASE(CUEMU_WARP_REDUCE_ADD)
  CUEMU_WARP_REDUCE_CASE(CUEMU_WARP_REDUCE_MIN_S)
  CUEMU_WARP_REDUCE_CASE(CUEMU_WARP_REDUCE_MAX_S)
  CUEMU_WARP_REDUCE_CASE(CUEMU_WARP_REDUCE_MIN_U)
  CUEMU_WARP_REDUCE_CASE(CUEMU_WARP_REDUCE_MAX_U)
  CUEMU_WARP_REDUCE_CASE(CUEMU_WARP_REDUCE_AND)
  CUEMU_WARP_REDUCE_CASE(CUEMU_WARP_REDUCE_OR)
  CUEMU_WARP_REDUCE_CASE(CUEMU_WARP_REDUCE_XOR)
#undef CUEMU_WARP_REDUCE_CASE
  default:
    r = 0;
    break;
  }
  /* One result for every lane. */
  for (unsigned m = mask; m; m &= m - 1)
    lanes[__builtin_ctz(m)].warp.result = r;
  return 0;
}

/* Appends "LANES" as "0,3,5-9" to buf. */
static size_t put_lanes(char *buf, size_t size, size_t len, unsigned lanes) {
  int first = 1;
  for (unsigned l = 0; l < WARP_SIZE && len < size; ++l) {
    if (!(lanes >> l & 1u))
      continue;
    unsigned end = l;
    while (end + 1 < WARP_SIZE && (lanes >> (end + 1) & 1u))
      end++;
    len += (size_t)snprintf(buf + len, size - len, end > l ? "%s%u-%u" : "%s%u",
                            first ? "" : ",", l, end);
    first = 0;
    l = end;
  }
  if (first && len < size)
    len += (size_t)snprintf(buf + len, size - len, "none");
  return len;
}

/* Where lane `id` of the block is, for messages. */
static size_t put_where(char *buf, size_t size, size_t len,
                        const cuemu_worker *w, unsigned id) {
  const cuemu_thread *t = &w->threads[id];
  if (len >= size)
    return len;
  switch (w->state[id]) {
  case CUEMU_THREAD_EXITED:
    return len + (size_t)snprintf(buf + len, size - len, "has exited");
  case CUEMU_THREAD_WAITING:
    if (t->wait.kind == CUEMU_SYNC_BARRIER)
      return len + (size_t)snprintf(buf + len, size - len,
                                    "waits at __syncthreads (%s:%d)",
                                    t->wait.file, t->wait.line);
    if (t->wait.kind == CUEMU_SYNC_ACTIVE)
      return len + (size_t)snprintf(buf + len, size - len,
                                    "waits at __activemask (%s:%d)",
                                    t->wait.file, t->wait.line);
    return len + (size_t)snprintf(buf + len, size - len,
                                  "waits at %s (%s:%d) with mask 0x%08x",
                                  t->warp.name, t->wait.file, t->wait.line,
                                  t->warp.mask);
  default:
    return len + (size_t)snprintf(buf + len, size - len, "is running");
  }
}

/* Ends the block: a collective of lane `id` that cannot complete. */
static __attribute__((noinline, cold)) void fail_misuse(cuemu_worker *w, unsigned id, const char *name,
                        const char *file, int line, unsigned mask,
                        const char *why, unsigned arrived, unsigned missing) {
  char *buf = w->detail;
  const size_t size = sizeof w->detail;
  unsigned base = id & ~(WARP_SIZE - 1u);
  size_t len = (size_t)snprintf(buf, size, "%s", why);
  if (len < size)
    len += (size_t)snprintf(buf + len, size - len, "; lanes arrived: ");
  len = put_lanes(buf, size, len, arrived);
  for (unsigned l = 0; l < WARP_SIZE && len < size; ++l) {
    if (!(missing >> l & 1u))
      continue;
    len += (size_t)snprintf(buf + len, size - len, "; lane %u ", l);
    if (base + l >= w->nthreads)
      len += (size_t)snprintf(buf + len, size - len,
                              "does not exist (the warp has %u lanes)",
                              w->nthreads - base);
    else
      len = put_where(buf, size, len, w, base + l);
  }
  cuemu_uint3 t = w->threads[id].tid;
  cuemu__block_fail(w, CUEMU_WARP_MISUSE,
                    "kernel %s: %s at %s:%d with mask 0x%08x in warp %u of "
                    "block (%u,%u,%u) (thread (%u,%u,%u), lane %u): %s",
                    w->launch->kernel->name, name, file, line, mask,
                    base / WARP_SIZE, w->block_idx.x, w->block_idx.y,
                    w->block_idx.z, t.x, t.y, t.z, id % WARP_SIZE, buf);
}

/* With checkers on, says once per launch that a shuffle read lanes outside
 * its mask: the GPU gives an unspecified value there. */
static __attribute__((noinline, cold)) void
warn_inactive(cuemu_worker *w, unsigned base, const cuemu_thread *me,
              unsigned lanes) {
  if (atomic_exchange(&w->launch->warned_inactive, 1))
    return;
  char which[160];
  put_lanes(which, sizeof which, 0, lanes);
  fprintf(stderr,
          "cuemu: warning: kernel %s: %s at %s:%d with mask 0x%08x in warp "
          "%u of block (%u,%u,%u): lanes %s read a source lane outside the "
          "mask; their values are unspecified on a GPU (cuemu gives each its "
          "own value)\n",
          w->launch->kernel->name, me->warp.name, me->wait.file,
          me->wait.line, me->warp.mask, base / WARP_SIZE, w->block_idx.x,
          w->block_idx.y, w->block_idx.z, which);
}

/* Synccheck: shuffles of `readers` read lanes that the mask names but that
 * have exited or do not exist; their values are undefined on a GPU, where
 * the kernel completes. Reported once for the collective's line, and the
 * launch goes on, as after racecheck's and initcheck's reports: a full-mask
 * __shfl_down_sync in a grid-stride loop that the last partial warp's lanes
 * have left, whose value the reading lane never uses, is common in correct
 * programs (a DBSCAN's cell bounds), which ended at the report before. */
static __attribute__((noinline, cold)) void
report_gone_sources(cuemu_worker *w, unsigned base, const cuemu_thread *me,
                    unsigned readers, unsigned gone) {
  int how = cuemu__check_report_begin(w->launch, CUEMU_REPORT_SYNC,
                                      (uintptr_t)(const void *)me->wait.file,
                                      (uintptr_t)me->wait.line);
  if (!how)
    return;
  char who[160], which[160], where[512];
  put_lanes(who, sizeof who, 0, readers);
  put_lanes(which, sizeof which, 0, gone);
  snprintf(where, sizeof where, "%s:%d",
           me->wait.file ? me->wait.file : "?", me->wait.line);
  cuemu__check_report(w->launch, how, where,
                      "synccheck: %s at %s with mask 0x%08x in warp %u of "
                      "block (%u,%u,%u): lanes %s read lanes %s, which have "
                      "exited or do not exist; the values read are undefined "
                      "on a GPU (cuemu gives each reader its own value)",
                      me->warp.name, where, me->warp.mask, base / WARP_SIZE,
                      w->block_idx.x, w->block_idx.y, w->block_idx.z, who,
                      which);
}

/* The lanes of `live` whose shuffle reads a source in `gone`. */
static unsigned readers_of(int op, unsigned live, unsigned gone,
                           cuemu_thread *lanes) {
  unsigned readers = 0;
  for (unsigned m = live; m; m &= m - 1) {
    unsigned l = (unsigned)__builtin_ctz(m);
    int src = shuffle_source(op, l, lanes[l].warp.arg, lanes[l].warp.width);
    if (src >= 0 && (gone >> src & 1u))
      readers |= 1u << l;
  }
  return readers;
}

/* Non-zero when thread `id` waits at the same collective as `me`. */
static int same_collective(const cuemu_worker *w, unsigned id,
                           const cuemu_thread *me) {
  const cuemu_thread *t = &w->threads[id];
  return w->state[id] == CUEMU_THREAD_WAITING &&
         t->wait.kind == CUEMU_SYNC_WARP && t->wait.op == me->wait.op &&
         t->warp.mask == me->warp.mask;
}

/* Two 32-bit values as one word, low then high: the keys of a warp's
 * gather record (cuemu_worker.h). */
static inline unsigned long long gather_key(int low, unsigned high) {
  return (unsigned long long)high << 32 | (unsigned)low;
}

/* Completes the collective that `me` (lane of warp `base`) waits at if
 * every live lane of its mask waits there too; wakes them (but not `me`
 * when `me_runs`). Returns 1 when it completed. Kept out of line, with its
 * lane table, so that the frame a waiting lane leaves on its stack stays
 * small. */
static __attribute__((noinline)) int try_complete(cuemu_worker *w, unsigned base, cuemu_thread *me,
                                                  int me_runs) {
  unsigned mask = me->warp.mask, live = live_lanes(w, base, mask);
  cuemu_thread *lanes = &w->threads[base];
  int op = me->wait.op;
  struct cuemu_warp_gather *g = &w->warp_gather[base / WARP_SIZE];
  int alike;
  if (g->key == gather_key(op, mask) && (g->lanes & live) == live) {
    /* Every live lane was counted at this collective on arrival. */
    alike = g->alike;
  } else {
    /* Every live lane must wait at this collective (same_collective(),
     * with the loads hoisted). */
    const unsigned char *state = &w->state[base];
    for (unsigned m = live; m; m &= m - 1) {
      const cuemu_thread *t = &lanes[__builtin_ctz(m)];
      if (state[__builtin_ctz(m)] != CUEMU_THREAD_WAITING ||
          t->wait.kind != CUEMU_SYNC_WARP || t->wait.op != op ||
          t->warp.mask != mask)
        return 0;
    }
    alike = 0;
  }
  /* The lanes woken below are no longer counted. */
  g->lanes &= ~live;
  unsigned inactive = compute(op, live, lanes, alike);
  if (inactive) {
    unsigned gone = mask & ~live;
    unsigned readers = gone ? readers_of(me->wait.op, live, gone, lanes) : 0;
    int synccheck = (cuemu__check_launch_mask(w->launch) & CUEMU_CHECK_SYNC) != 0;
    if (readers && synccheck)
      report_gone_sources(w, base, me, readers, gone);
    /* The warning comes with any checker asked for at run time, and with
     * synccheck built into the kernel (CUEMU_CC_CHECK=sync or all, with
     * CUEMU_CHECK unset): a checked build said nothing before. */
    else if ((w->launch->checks || synccheck) && (inactive & ~readers))
      warn_inactive(w, base, me, inactive & ~readers);
  }
  if (w->launch->check)
    cuemu__check_warp_sync(w, base, live);
  unsigned me_bit = me_runs ? 1u << (me->id - base) : 0;
  w->warp_phase[base / WARP_SIZE]++; /* a step of the warp (cuemu_printf.c) */
  cuemu__thread_wake_lanes(w, base, live & ~me_bit);
  w->warp_waiting[base / WARP_SIZE] &= ~live;
  return 1;
}

/* Checks a collective's mask on arrival: the caller must be in it. (It may
 * name lanes that have exited or do not exist: they do not take part.) */
static inline void check_mask(cuemu_worker *w, unsigned id, const char *name,
                       const char *file, int line, unsigned mask) {
  unsigned lane = id % WARP_SIZE;
  if (!(mask >> lane & 1u))
    fail_misuse(w, id, name, file, line, mask,
                "the calling lane is not in its own mask", 1u << lane, 0);
}

/* A collective outside a kernel: a warp of one lane (lane 0). */
static __attribute__((noinline)) unsigned long long
alone(int op, unsigned long long value, int arg, int width) {
  cuemu_thread one;
  memset(&one, 0, sizeof one);
  one.warp.value = value;
  one.warp.arg = arg;
  one.warp.width = width;
  compute(op, 1u, &one, 0);
  return one.warp.result;
}

/* Records the arrival of lane `me` (thread `id`) at a collective and marks
 * it waiting; returns 1 when every live lane of its mask waits at some
 * collective (this one may then be complete). */
static inline __attribute__((always_inline)) int
arrive(cuemu_worker *w, cuemu_thread *me, unsigned id, int op, unsigned mask,
       unsigned long long value, int arg, int width, const char *name,
       const char *file, int line) {
  unsigned base = id & ~(WARP_SIZE - 1u);
  me->wait.kind = CUEMU_SYNC_WARP;
  me->wait.op = op;
  me->wait.file = file;
  me->wait.line = line;
  me->warp.mask = mask;
  me->warp.arg = arg;
  me->warp.width = width;
  me->warp.name = name;
  me->warp.value = value;
  w->state[id] = CUEMU_THREAD_WAITING;
  unsigned bit = 1u << (id % WARP_SIZE);
  struct cuemu_warp_gather *g = &w->warp_gather[base / WARP_SIZE];
  unsigned long long key = gather_key(op, mask);
  unsigned long long operands = gather_key(arg, (unsigned)width);
  if (__builtin_expect(g->lanes != 0 && g->key == key, 1)) {
    g->lanes |= bit;
    if (__builtin_expect(g->operands != operands, 0))
      g->alike = 0;
  } else if (g->lanes == 0) {
    g->key = key;
    g->operands = operands;
    g->alike = 1;
    g->lanes = bit;
  }
  unsigned *waiting = &w->warp_waiting[base / WARP_SIZE];
  unsigned now = *waiting | bit;
  *waiting = now;
  /* Only when every live lane of the mask waits at some collective can
   * this one be complete; then try_complete() checks that they all wait at
   * this one. */
  unsigned live = live_lanes(w, base, mask);
  return (now & live) == live;
}

/* The collective of lane `me`, which has arrived and whose live lanes all
 * wait: completes it if they wait at this one, else waits. */
static __attribute__((noinline)) unsigned long long
complete_or_wait(cuemu_worker *w, cuemu_thread *me) {
  unsigned id = me->id;
  if (try_complete(w, id & ~(WARP_SIZE - 1u), me, 1)) {
    w->state[id] = CUEMU_THREAD_RUNNING;
    return me->warp.result;
  }
  cuemu__thread_wait(w, me);
  return me->warp.result;
}

/* A collective outside a kernel, in a thread that runs lazily in a runner
 * (its first blocking call), or of a lane outside its own mask. */
static __attribute__((noinline)) unsigned long long
collective_slow(int op, unsigned mask, unsigned long long value, int arg,
                int width, const char *name, const char *file, int line) {
  cuemu_worker *w = cuemu__worker_self;
  if (!w || !w->in_kernel)
    return alone(op, value, arg, width);
  cuemu_thread *me = cuemu__thread_current(w);
  unsigned id = me->id;
  check_mask(w, id, name, file, line, mask);
  if (arrive(w, me, id, op, mask, value, arg, width, name, file, line))
    return complete_or_wait(w, me);
  cuemu__thread_wait(w, me);
  return me->warp.result;
}

unsigned long long cuemu_warp_collective(int op, unsigned mask,
                                         unsigned long long value, int arg,
                                         int width, const char *name,
                                         const char *file, int line) {
  cuemu_worker *w = cuemu__worker_self;
  cuemu_thread *me;
  /* The common case, kept free of calls but the switch so that it saves
   * few registers: a lane that already is a coroutine, in its own mask,
   * that waits for the others or completes the collective. */
  if (__builtin_expect(!w || (me = w->current) == NULL || !w->in_kernel ||
                           !(mask >> (me->id % WARP_SIZE) & 1u),
                       0))
    return collective_slow(op, mask, value, arg, width, name, file, line);
  if (arrive(w, me, me->id, op, mask, value, arg, width, name, file, line))
    return complete_or_wait(w, me);
  cuemu__thread_wait_fast(w, me);
  return me->warp.result;
}

#if !CUEMU_CONTEXT_UCONTEXT && defined(__x86_64__)
unsigned long long cuemu__warp_sync_lazy(unsigned long long key,
                                         unsigned long long value,
                                         unsigned long long operands,
                                         const char *name, const char *file,
                                         int line, void *light) {
  int op = (int)(unsigned)key, arg = (int)(unsigned)operands;
  int width = (int)(unsigned)(operands >> 32);
  unsigned mask = (unsigned)(key >> 32);
  cuemu_worker *w = cuemu__worker_self;
  /* (The assembler has checked that a kernel runs.) */
  cuemu_thread *me = cuemu__thread_current(w);
  unsigned id = me->id;
  check_mask(w, id, name, file, line, mask);
  if (arrive(w, me, id, op, mask, value, arg, width, name, file, line))
    return complete_or_wait(w, me);
  cuemu__thread_wait_light(w, me, light);
  return me->warp.result;
}
#endif

/* Completes every __activemask of warp `base` if no lane of the warp can
 * still run (cuemu__thread_may_run: after a __syncthreads() the first lane
 * to reach __activemask must not see itself alone while the others are
 * still in the run queue, and lanes that spin on a flag it sets next must
 * not keep it waiting): the lanes waiting at one call site form its mask.
 * Returns 1 when it woke lanes (other than `except`, which is running). */
static int settle_active(cuemu_worker *w, unsigned base, unsigned except) {
  unsigned exist = warp_lanes(w, base), pending = 0;
  for (unsigned l = 0; l < WARP_SIZE; ++l) {
    if (!(exist >> l & 1u))
      continue;
    int active = w->threads[base + l].wait.kind == CUEMU_SYNC_ACTIVE;
    if (base + l == except) {
      pending |= (unsigned)active << l;
      continue;
    }
    if (cuemu__thread_may_run(w, base + l,
                              (int)(w->warp_spinning[base / WARP_SIZE] >> l & 1u)))
      return 0;
    if (w->state[base + l] == CUEMU_THREAD_WAITING && active)
      pending |= 1u << l;
  }
  int woke = 0;
  while (pending) {
    unsigned first = (unsigned)__builtin_ctz(pending), group = 0;
    const cuemu_wait *site = &w->threads[base + first].wait;
    for (unsigned l = first; l < WARP_SIZE; ++l) {
      const cuemu_wait *o = &w->threads[base + l].wait;
      if ((pending >> l & 1u) && o->line == site->line &&
          (o->file == site->file || strcmp(o->file, site->file) == 0))
        group |= 1u << l;
    }
    pending &= ~group;
    for (unsigned l = 0; l < WARP_SIZE; ++l) {
      if (!(group >> l & 1u))
        continue;
      w->threads[base + l].warp.result = group;
      if (base + l != except) {
        cuemu__thread_wake(w, base + l);
        woke = 1;
      }
    }
  }
  return woke;
}

unsigned cuemu_warp_active_mask(const char *file, int line) {
  cuemu_worker *w = cuemu__worker_self;
  if (!w || !w->in_kernel)
    return 1u;
  cuemu_thread *me = cuemu__thread_current(w);
  unsigned id = (unsigned)(me - w->threads);
  me->wait.kind = CUEMU_SYNC_ACTIVE;
  me->wait.file = file;
  me->wait.line = line;
  me->warp.name = "__activemask";
  me->warp.result = 0;
  w->warp_spinning[id / WARP_SIZE] = 0;
  settle_active(w, id & ~(WARP_SIZE - 1u), id);
  if (me->warp.result)
    return (unsigned)me->warp.result;
  w->state[id] = CUEMU_THREAD_WAITING;
  cuemu__thread_wait(w, me);
  return (unsigned)me->warp.result;
}

void cuemu__warp_settle_active(cuemu_worker *w, unsigned id) {
  if (w->threads[id].wait.kind == CUEMU_SYNC_YIELD)
    w->warp_spinning[id / WARP_SIZE] |= 1u << (id % WARP_SIZE);
  settle_active(w, id & ~(WARP_SIZE - 1u), id);
}

int cuemu__warp_resolve(cuemu_worker *w) {
  int woke = 0;
  for (unsigned base = 0; base < w->nthreads; base += WARP_SIZE)
    woke |= settle_active(w, base, (unsigned)-1);
  if (woke)
    return 1;
  /* Collectives whose other lanes exited after this one arrived. */
  for (unsigned id = 0; id < w->nthreads; ++id) {
    cuemu_thread *t = &w->threads[id];
    if (w->state[id] == CUEMU_THREAD_WAITING && t->wait.kind == CUEMU_SYNC_WARP &&
        try_complete(w, id & ~(WARP_SIZE - 1u), t, 0))
      return 1;
  }
  /* A collective that cannot complete: explain the first one. */
  for (unsigned id = 0; id < w->nthreads; ++id) {
    const cuemu_thread *t = &w->threads[id];
    if (w->state[id] != CUEMU_THREAD_WAITING || t->wait.kind != CUEMU_SYNC_WARP)
      continue;
    unsigned base = id & ~(WARP_SIZE - 1u), arrived = 0, missing = 0;
    unsigned live = live_lanes(w, base, t->warp.mask);
    for (unsigned l = 0; l < WARP_SIZE; ++l) {
      if (!(live >> l & 1u))
        continue;
      if (same_collective(w, base + l, t))
        arrived |= 1u << l;
      else
        missing |= 1u << l;
    }
    fail_misuse(w, id, t->warp.name, t->wait.file, t->wait.line, t->warp.mask,
                "lanes named in the mask never arrive (they wait at a "
                "different intrinsic or barrier)",
                arrived, missing);
  }
  return 0;
}
