/*
 * warp_vote.cu: the votes (__ballot_sync, __all_sync, __any_sync,
 * __uni_sync) and __activemask for tests/check_warp.c, in blocks of any
 * shape: lanes are numbered by the row-major linear thread id.
 */

#include "thread_layout.cuh"

/* The lanes of `mask` that exist in the caller's warp vote on pred[i]; the
 * others return at once. Each writes its five results at out[5 * i]: the
 * ballot, all, any, uni, and then __activemask() (the voting lanes, the
 * others having exited). */
extern "C" __global__ void votes(const int *pred, unsigned mask,
                                 unsigned *out) {
  unsigned n = block_threads(), t = linear_thread();
  unsigned i = linear_block() * n + t;
  unsigned m = mask & present_lanes(t, n);
  if (!lane_in_mask(m, t))
    return;
  int p = pred[i];
  unsigned *r = out + 5 * i;
  r[0] = __ballot_sync(m, p);
  r[1] = (unsigned)__all_sync(m, p);
  r[2] = (unsigned)__any_sync(m, p);
  r[3] = (unsigned)__uni_sync(m, p);
  r[4] = __activemask();
}

/* __activemask() in a branch that the lanes with an odd pred[i] take; the
 * others exit (mode 0), wait at __syncwarp with their own mask (mode 1) or
 * call __activemask() at another line (mode 2). Each thread writes what it
 * saw at out[2 * i] (0xdeadbeef if it did not call) and the ballot of the
 * branch at out[2 * i + 1]. */
extern "C" __global__ void active_branch(const int *pred, int mode,
                                         unsigned *out) {
  unsigned n = block_threads(), t = linear_thread();
  unsigned i = linear_block() * n + t;
  unsigned present = present_lanes(t, n);
  unsigned odd = __ballot_sync(present, pred[i] & 1);
  out[2 * i + 1] = odd;
  if (pred[i] & 1) {
    out[2 * i] = __activemask();
  } else {
    out[2 * i] = 0xdeadbeefu;
    if (mode == 1)
      __syncwarp(present & ~odd);
    else if (mode == 2)
      out[2 * i] = __activemask();
  }
}

/* Lanes 0, 3, 6, ..., 30 and the others take two branches, each half
 * calling a ballot, a shuffle and a reduction with its own mask (the
 * constant 0x49249249 or its complement, less the lanes that do not exist).
 * Each thread writes its three results at out[3 * i]. */
extern "C" __global__ void split_branches(const int *in, unsigned *out) {
  unsigned n = block_threads(), t = linear_thread();
  unsigned i = linear_block() * n + t, lane = t % 32;
  unsigned present = present_lanes(t, n);
  const unsigned thirds = 0x49249249u;
  int v = in[i];
  unsigned *r = out + 3 * i;
  if (lane % 3 == 0) {
    unsigned m = thirds & present;
    r[0] = __ballot_sync(m, v > 0);
    r[1] = (unsigned)__shfl_down_sync(m, v, 3);
    r[2] = __reduce_add_sync(m, (unsigned)v);
  } else {
    unsigned m = ~thirds & present;
    r[0] = __ballot_sync(m, v > 0);
    r[1] = (unsigned)__shfl_sync(m, v, 1);
    r[2] = __reduce_add_sync(m, (unsigned)v);
  }
}

/* A ballot reached from two call sites by the two halves of the warp, with
 * one mask: legal from sm_70 on. Every lane of a full warp calls. */
extern "C" __global__ void ballot_two_sites(const int *pred, unsigned *out) {
  unsigned t = linear_thread();
  unsigned i = linear_block() * block_threads() + t;
  if (t % 32 < 16)
    out[i] = __ballot_sync(0xffffffffu, pred[i]);
  else
    out[i] = __ballot_sync(0xffffffffu, pred[i]);
}

/* A loop whose lanes leave one by one: lane l of the warp runs
 * count[i] iterations. Each iteration, the lanes still in the loop vote on
 * going on with the mask of the previous vote, those that stop leave, and
 * the others add __reduce_add_sync(mask, iteration + lane) to their total,
 * written at out[i]. */
extern "C" __global__ void shrinking(const int *count, unsigned *out) {
  unsigned n = block_threads(), t = linear_thread();
  unsigned i = linear_block() * n + t, lane = t % 32;
  unsigned m = present_lanes(t, n), total = 0;
  for (int it = 0;; ++it) {
    unsigned next = __ballot_sync(m, it < count[i]);
    if (it >= count[i])
      break;
    m = next;
    total += __reduce_add_sync(m, (unsigned)it + lane);
  }
  out[i] = total;
}
