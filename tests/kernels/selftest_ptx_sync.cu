/*
 * selftest_ptx_sync.cu: self-checking kernels for inline PTX's memory,
 * atomic, barrier and warp instructions: ld/st in several state spaces,
 * vector forms and orders, atom/red, fences, cp.async, bar.sync/bar.red,
 * shfl.sync in every mode with its predicate and segment/clamp operand,
 * vote.sync, match.sync, redux.sync and activemask. Shuffles in partial
 * warps are tested by tests/programs/ptx_partial_warp.cu.
 */
#include "selftest.cuh"

template <typename T>
__device__ static T opaque(T x) {
  volatile T v = x;
  return v;
}

__device__ unsigned ptx_global_words[64];

extern "C" __global__ void selftest_ptx_memory(unsigned *failures) {
  const unsigned lane = threadIdx.x;
  __shared__ unsigned words[32 * 4];
  __shared__ unsigned char bytes[32];
  unsigned *mine = &ptx_global_words[2 * lane];
  /* st.global.v2 then ld.global.nc.v2 through generic addresses. */
  asm volatile("st.global.v2.u32 [%0], {%1, %2};" ::"l"(mine), "r"(lane), "r"(lane * 3));
  unsigned a, b;
  asm volatile("ld.global.v2.u32 {%0, %1}, [%2];" : "=r"(a), "=r"(b) : "l"(mine));
  SELFTEST_CHECK(failures, a == lane && b == lane * 3);
  asm volatile("ld.global.nc.u32 %0, [%1+4];" : "=r"(a) : "l"(mine));
  SELFTEST_CHECK(failures, a == lane * 3);
  /* Shared memory through a shared-window address (cvta.to.shared). */
  unsigned w0, w1, w2, w3;
  asm volatile("{ .reg .u64 s; cvta.to.shared.u64 s, %0;\n\t"
               "st.shared.v4.u32 [s], {%1, %2, %3, %4}; }"
               ::"l"(&words[4 * lane]), "r"(lane), "r"(lane + 1), "r"(lane + 2), "r"(lane + 3)
               : "memory");
  asm volatile("{ .reg .u64 s; cvta.to.shared.u64 s, %4;\n\t"
               "ld.shared.v4.u32 {%0, %1, %2, %3}, [s]; }"
               : "=r"(w0), "=r"(w1), "=r"(w2), "=r"(w3)
               : "l"(&words[4 * lane]));
  SELFTEST_CHECK(failures, w0 == lane && w1 == lane + 1 && w2 == lane + 2 && w3 == lane + 3);
  /* Sub-word loads extend by type: s8 with the sign, u8 with zeros. */
  bytes[lane] = (unsigned char)(0x80 | lane);
  int sb;
  unsigned ub;
  unsigned short h;
  asm volatile("ld.s8 %0, [%1];" : "=r"(sb) : "l"(&bytes[lane]));
  asm volatile("ld.u8 %0, [%1];" : "=r"(ub) : "l"(&bytes[lane]));
  asm volatile("ld.s8 %0, [%1];" : "=h"(h) : "l"(&bytes[lane]));
  SELFTEST_CHECK(failures, sb == (int)(0xffffff80u | lane) && ub == (0x80u | lane));
  SELFTEST_CHECK(failures, h == (unsigned short)(0xff80u | lane));
  asm volatile("st.u8 [%0], %1;" ::"l"(&bytes[lane]), "r"(0x1234u + lane));
  SELFTEST_CHECK(failures, bytes[lane] == (unsigned char)(0x34 + lane));
  /* Orders and scopes, f32 and f64. */
  float fv;
  double dv;
  asm volatile("st.release.gpu.global.f32 [%0], %1;" ::"l"(mine), "f"(1.5f + lane));
  asm volatile("ld.acquire.gpu.global.f32 %0, [%1];" : "=f"(fv) : "l"(mine));
  SELFTEST_CHECK(failures, fv == 1.5f + lane);
  asm volatile("st.relaxed.sys.global.u32 [%0], %1;" ::"l"(mine), "r"(lane));
  asm volatile("ld.volatile.global.u32 %0, [%1];" : "=r"(a) : "l"(mine));
  SELFTEST_CHECK(failures, a == lane);
  /* Ordered vectors (one access of the whole vector, as CUB's tile
   * descriptors need): v2.u64, v4.u32, v2.u32 and v4.u16. */
  __shared__ ulonglong2 pairs[32];
  unsigned long long x, y;
  asm volatile("st.relaxed.gpu.v2.u64 [%0], {%1, %2};" ::"l"(&pairs[lane]), "l"(lane + 7ull),
               "l"((unsigned long long)lane << 40) : "memory");
  asm volatile("ld.relaxed.gpu.v2.u64 {%0, %1}, [%2];" : "=l"(x), "=l"(y) : "l"(&pairs[lane]) : "memory");
  SELFTEST_CHECK(failures, x == lane + 7ull && y == (unsigned long long)lane << 40);
  SELFTEST_CHECK(failures, pairs[lane].x == lane + 7ull && pairs[lane].y == (unsigned long long)lane << 40);
  asm volatile("st.release.gpu.v4.u32 [%0], {%1, %2, %3, %4};" ::"l"(&pairs[lane]), "r"(lane),
               "r"(lane + 1), "r"(lane + 2), "r"(lane + 3) : "memory");
  asm volatile("ld.acquire.gpu.v4.u32 {%0, %1, %2, %3}, [%4];"
               : "=r"(w0), "=r"(w1), "=r"(w2), "=r"(w3) : "l"(&pairs[lane]) : "memory");
  SELFTEST_CHECK(failures, w0 == lane && w1 == lane + 1 && w2 == lane + 2 && w3 == lane + 3);
  SELFTEST_CHECK(failures, pairs[lane].x == ((unsigned long long)(lane + 1) << 32 | lane));
  asm volatile("st.relaxed.gpu.v2.u32 [%0], {%1, %2};" ::"l"(&pairs[lane].y), "r"(lane * 5),
               "r"(~lane) : "memory");
  asm volatile("ld.relaxed.gpu.v2.u32 {%0, %1}, [%2];" : "=r"(a), "=r"(b) : "l"(&pairs[lane].y) : "memory");
  SELFTEST_CHECK(failures, a == lane * 5 && b == ~lane);
  unsigned short h0, h1, h2, h3;
  asm volatile("st.relaxed.gpu.v4.u16 [%0], {%1, %2, %3, %4};" ::"l"(&pairs[lane].x),
               "h"((unsigned short)lane), "h"((unsigned short)0xfffe), "h"((unsigned short)3),
               "h"((unsigned short)(lane << 8)) : "memory");
  asm volatile("ld.relaxed.gpu.v4.u16 {%0, %1, %2, %3}, [%4];"
               : "=h"(h0), "=h"(h1), "=h"(h2), "=h"(h3) : "l"(&pairs[lane].x) : "memory");
  SELFTEST_CHECK(failures, h0 == lane && h1 == 0xfffe && h2 == 3 && h3 == (unsigned short)(lane << 8));
  asm volatile("st.global.wb.f64 [%0], %1;" ::"l"(mine), "d"(0.25 * lane));
  asm volatile("ld.global.cg.f64 %0, [%1];" : "=d"(dv) : "l"(mine));
  SELFTEST_CHECK(failures, dv == 0.25 * lane);
  asm volatile("prefetch.global.L2 [%0];" ::"l"(mine));
  asm volatile("membar.gl;");
  asm volatile("membar.cta;");
  asm volatile("fence.acq_rel.gpu;");
  asm volatile("fence.sc.sys;");
  asm volatile("nanosleep.u32 %0;" ::"r"(100u));
}

__device__ unsigned ptx_counter;
__device__ unsigned ptx_cells[32];
__device__ unsigned long long ptx_wide;
__device__ float ptx_fsum;

extern "C" __global__ void selftest_ptx_atomics(unsigned *failures) {
  const unsigned lane = threadIdx.x;
  if (lane == 0) {
    ptx_counter = 0;
    ptx_wide = 0;
    ptx_fsum = 0;
  }
  __syncthreads();
  unsigned old;
  asm volatile("atom.global.add.u32 %0, [%1], %2;" : "=r"(old) : "l"(&ptx_counter), "r"(lane + 1));
  asm volatile("red.global.add.u64 [%0], %1;" ::"l"(&ptx_wide), "l"(1ULL << 33));
  float fo;
  asm volatile("atom.global.add.f32 %0, [%1], %2;" : "=f"(fo) : "l"(&ptx_fsum), "f"(1.0f));
  __syncthreads();
  SELFTEST_CHECK(failures, ptx_counter == 32 * 33 / 2 && old < 32 * 33 / 2);
  SELFTEST_CHECK(failures, ptx_wide == 32ULL << 33 && ptx_fsum == 32.0f && fo < 32.0f);
  /* Exact old values, one cell per lane. */
  unsigned *cell = &ptx_cells[lane];
  *cell = 5;
  asm volatile("atom.inc.u32 %0, [%1], %2;" : "=r"(old) : "l"(cell), "r"(5u));
  SELFTEST_CHECK(failures, old == 5 && *cell == 0);
  asm volatile("atom.inc.u32 %0, [%1], %2;" : "=r"(old) : "l"(cell), "r"(5u));
  SELFTEST_CHECK(failures, old == 0 && *cell == 1);
  asm volatile("atom.dec.u32 %0, [%1], %2;" : "=r"(old) : "l"(cell), "r"(5u));
  SELFTEST_CHECK(failures, old == 1 && *cell == 0);
  asm volatile("atom.dec.u32 %0, [%1], %2;" : "=r"(old) : "l"(cell), "r"(5u));
  SELFTEST_CHECK(failures, old == 0 && *cell == 5);
  *cell = 7;
  asm volatile("atom.dec.u32 %0, [%1], %2;" : "=r"(old) : "l"(cell), "r"(5u));
  SELFTEST_CHECK(failures, old == 7 && *cell == 5);
  asm volatile("atom.global.cas.b32 %0, [%1], %2, %3;" : "=r"(old) : "l"(cell), "r"(5u), "r"(lane));
  SELFTEST_CHECK(failures, old == 5 && *cell == lane);
  asm volatile("atom.cas.b32 %0, [%1], %2, %3;" : "=r"(old) : "l"(cell), "r"(99u), "r"(1u));
  SELFTEST_CHECK(failures, old == lane && *cell == lane);
  asm volatile("atom.exch.b32 %0, [%1], %2;" : "=r"(old) : "l"(cell), "r"(0xf0u));
  SELFTEST_CHECK(failures, old == lane && *cell == 0xf0u);
  asm volatile("atom.and.b32 %0, [%1], %2;" : "=r"(old) : "l"(cell), "r"(0x3cu));
  asm volatile("atom.or.b32 %0, [%1], %2;" : "=r"(old) : "l"(cell), "r"(0x01u));
  asm volatile("atom.xor.b32 %0, [%1], %2;" : "=r"(old) : "l"(cell), "r"(0xffu));
  SELFTEST_CHECK(failures, old == 0x31u && *cell == 0xceu);
  *cell = (unsigned)-5;
  asm volatile("atom.min.s32 %0, [%1], %2;" : "=r"(old) : "l"(cell), "r"(3));
  SELFTEST_CHECK(failures, *cell == (unsigned)-5);
  asm volatile("atom.min.u32 %0, [%1], %2;" : "=r"(old) : "l"(cell), "r"(3u));
  SELFTEST_CHECK(failures, *cell == 3u);
  asm volatile("atom.max.s32 %0, [%1], %2;" : "=r"(old) : "l"(cell), "r"(-1));
  SELFTEST_CHECK(failures, *cell == 3u);
  asm volatile("atom.relaxed.gpu.global.max.u32 %0, [%1], %2;" : "=r"(old) : "l"(cell), "r"(0xffffffffu));
  SELFTEST_CHECK(failures, old == 3u && *cell == 0xffffffffu);
}

extern "C" __global__ void selftest_ptx_barriers(unsigned *failures) {
  const unsigned lane = threadIdx.x;
  __shared__ unsigned seen[32];
  seen[lane] = lane;
  asm volatile("bar.sync 0;" ::: "memory");
  SELFTEST_CHECK(failures, seen[(lane + 1) % 32] == (lane + 1) % 32);
  asm volatile("barrier.sync.aligned 0;" ::: "memory");
  seen[lane] = 2 * lane;
  asm volatile("bar.sync 1, 32;" ::: "memory");
  SELFTEST_CHECK(failures, seen[(lane + 5) % 32] == 2 * ((lane + 5) % 32));
  unsigned count, all, any;
  asm volatile("{ .reg .pred p; setp.ne.u32 p, %1, 0; bar.red.popc.u32 %0, 0, p; }"
               : "=r"(count) : "r"(lane & 1));
  SELFTEST_CHECK(failures, count == 16);
  asm volatile("{ .reg .pred p, q; setp.lt.u32 p, %1, 32; bar.red.and.pred q, 0, p; selp.u32 %0, 1, 0, q; }"
               : "=r"(all) : "r"(lane));
  SELFTEST_CHECK(failures, all == 1);
  asm volatile("{ .reg .pred p, q; setp.eq.u32 p, %1, 7; bar.red.or.pred q, 0, !p; selp.u32 %0, 1, 0, q; }"
               : "=r"(any) : "r"(lane));
  SELFTEST_CHECK(failures, any == 1);
  asm volatile("bar.warp.sync %0;" ::"r"(0xffffffffu));
}

/* shfl.sync.MODE.b32 d|p, a, b, c, 0xffffffff, with p as bit 8 of the
 * result. */
__device__ static unsigned shfl(int mode, unsigned a, unsigned b, unsigned c) {
  unsigned d, p;
  switch (mode) {
  case 0:
    asm volatile("{ .reg .pred q; shfl.sync.idx.b32 %0|q, %2, %3, %4, 0xffffffff; selp.u32 %1, 1, 0, q; }"
                 : "=r"(d), "=r"(p) : "r"(a), "r"(b), "r"(c));
    break;
  case 1:
    asm volatile("{ .reg .pred q; shfl.sync.up.b32 %0|q, %2, %3, %4, 0xffffffff; selp.u32 %1, 1, 0, q; }"
                 : "=r"(d), "=r"(p) : "r"(a), "r"(b), "r"(c));
    break;
  case 2:
    asm volatile("{ .reg .pred q; shfl.sync.down.b32 %0|q, %2, %3, %4, 0xffffffff; selp.u32 %1, 1, 0, q; }"
                 : "=r"(d), "=r"(p) : "r"(a), "r"(b), "r"(c));
    break;
  default:
    asm volatile("{ .reg .pred q; shfl.sync.bfly.b32 %0|q, %2, %3, %4, 0xffffffff; selp.u32 %1, 1, 0, q; }"
                 : "=r"(d), "=r"(p) : "r"(a), "r"(b), "r"(c));
    break;
  }
  return d | (p << 8);
}

extern "C" __global__ void selftest_ptx_shuffle(unsigned *failures) {
  const unsigned lane = threadIdx.x, v = 100 + lane;
  /* Whole warp (c = 0x1f for idx/down/bfly, 0 for up). */
  SELFTEST_CHECK(failures, shfl(0, v, 5, 0x1f) == (105u | 0x100u));
  SELFTEST_CHECK(failures, shfl(1, v, 1, 0) == (lane >= 1 ? (99u + lane) | 0x100u : 100u));
  SELFTEST_CHECK(failures, shfl(2, v, 1, 0x1f) == (lane <= 30 ? (101u + lane) | 0x100u : 131u));
  SELFTEST_CHECK(failures, shfl(3, v, 1, 0x1f) == ((100u + (lane ^ 1)) | 0x100u));
  /* Segments of 8 lanes: c = ((32 - 8) << 8) | clamp. */
  const unsigned seg = lane & ~7u;
  SELFTEST_CHECK(failures, shfl(0, v, 3, 0x181f) == ((100u + seg + 3) | 0x100u));
  SELFTEST_CHECK(failures, shfl(0, v, 11, 0x181f) == ((100u + seg + 3) | 0x100u));
  SELFTEST_CHECK(failures, shfl(2, v, 2, 0x181f) ==
                               ((lane & 7) < 6 ? (102u + lane) | 0x100u : 100u + lane));
  SELFTEST_CHECK(failures, shfl(1, v, 2, 0x1800) ==
                               ((lane & 7) >= 2 ? (98u + lane) | 0x100u : 100u + lane));
  SELFTEST_CHECK(failures, shfl(3, v, 4, 0x181f) == ((100u + (lane ^ 4)) | 0x100u));
  /* A clamp below the segment end: lanes past it read their own value. */
  SELFTEST_CHECK(failures, shfl(2, v, 1, 0x1805) ==
                               ((lane & 7) + 1 <= 5 ? (101u + lane) | 0x100u : 100u + lane));
  /* Only b[4:0] counts. */
  SELFTEST_CHECK(failures, shfl(0, v, 32 + 7, 0x1f) == (107u | 0x100u));
  /* Half the warp, with a member mask. */
  if (lane < 16) {
    unsigned d;
    asm volatile("shfl.sync.down.b32 %0, %1, 2, 0x1f, 0xffff;" : "=r"(d) : "r"(v));
    SELFTEST_CHECK(failures, lane >= 14 || d == v + 2);
  }
}

extern "C" __global__ void selftest_ptx_warp(unsigned *failures) {
  const unsigned lane = threadIdx.x;
  unsigned r, p;
  asm volatile("{ .reg .pred q; setp.ne.u32 q, %1, 0; vote.sync.ballot.b32 %0, q, 0xffffffff; }"
               : "=r"(r) : "r"(lane & 1));
  SELFTEST_CHECK(failures, r == 0xaaaaaaaau);
  asm volatile("{ .reg .pred q; setp.ne.u32 q, %1, 0; vote.sync.ballot.b32 %0, !q, 0xffffffff; }"
               : "=r"(r) : "r"(lane & 1));
  SELFTEST_CHECK(failures, r == 0x55555555u);
  asm volatile("{ .reg .pred q, d; setp.lt.u32 q, %1, 32; vote.sync.all.pred d, q, 0xffffffff; selp.u32 %0, 1, 0, d; }"
               : "=r"(r) : "r"(lane));
  SELFTEST_CHECK(failures, r == 1);
  asm volatile("{ .reg .pred q, d; setp.eq.u32 q, %1, 3; vote.sync.all.pred d, q, 0xffffffff; selp.u32 %0, 1, 0, d; }"
               : "=r"(r) : "r"(lane));
  SELFTEST_CHECK(failures, r == 0);
  asm volatile("{ .reg .pred q, d; setp.eq.u32 q, %1, 3; vote.sync.any.pred d, q, 0xffffffff; selp.u32 %0, 1, 0, d; }"
               : "=r"(r) : "r"(lane));
  SELFTEST_CHECK(failures, r == 1);
  asm volatile("{ .reg .pred q, d; setp.eq.u32 q, %1, 3; vote.sync.uni.pred d, q, 0xffffffff; selp.u32 %0, 1, 0, d; }"
               : "=r"(r) : "r"(lane));
  SELFTEST_CHECK(failures, r == 0);
  asm volatile("match.sync.any.b32 %0, %1, 0xffffffff;" : "=r"(r) : "r"(lane & 3));
  SELFTEST_CHECK(failures, r == 0x11111111u << (lane & 3));
  asm volatile("match.sync.any.b64 %0, %1, 0xffffffff;" : "=r"(r) : "l"((unsigned long long)(lane & 1) << 40));
  SELFTEST_CHECK(failures, r == ((lane & 1) ? 0xaaaaaaaau : 0x55555555u));
  asm volatile("{ .reg .pred q; match.sync.all.b32 %0|q, %2, 0xffffffff; selp.u32 %1, 1, 0, q; }"
               : "=r"(r), "=r"(p) : "r"(7u));
  SELFTEST_CHECK(failures, r == 0xffffffffu && p == 1);
  asm volatile("{ .reg .pred q; match.sync.all.b32 %0|q, %2, 0xffffffff; selp.u32 %1, 1, 0, q; }"
               : "=r"(r), "=r"(p) : "r"(lane));
  SELFTEST_CHECK(failures, r == 0 && p == 0);
  int s;
  asm volatile("redux.sync.add.u32 %0, %1, 0xffffffff;" : "=r"(r) : "r"(lane));
  SELFTEST_CHECK(failures, r == 496);
  asm volatile("redux.sync.min.s32 %0, %1, 0xffffffff;" : "=r"(s) : "r"((int)lane - 16));
  SELFTEST_CHECK(failures, s == -16);
  asm volatile("redux.sync.max.u32 %0, %1, 0xffffffff;" : "=r"(r) : "r"(lane));
  SELFTEST_CHECK(failures, r == 31);
  asm volatile("redux.sync.and.b32 %0, %1, 0xffffffff;" : "=r"(r) : "r"(lane | 0x100u));
  SELFTEST_CHECK(failures, r == 0x100u);
  asm volatile("redux.sync.or.b32 %0, %1, 0xffffffff;" : "=r"(r) : "r"(lane));
  SELFTEST_CHECK(failures, r == 31);
  asm volatile("redux.sync.xor.b32 %0, %1, 0xffffffff;" : "=r"(r) : "r"(1u << lane));
  SELFTEST_CHECK(failures, r == 0xffffffffu);
  __syncwarp();
  asm volatile("activemask.b32 %0;" : "=r"(r));
  SELFTEST_CHECK(failures, r == 0xffffffffu);
  /* elect.sync: the lowest lane of the mask leads. */
  asm volatile("{ .reg .pred q; elect.sync %0|q, 0xffffffff; selp.u32 %1, 1, 0, q; }"
               : "=r"(r), "=r"(p));
  SELFTEST_CHECK(failures, r == 0 && p == (lane == 0));
  if (lane >= 5) {
    asm volatile("{ .reg .pred q; elect.sync %0|q, 0xffffffe0; selp.u32 %1, 1, 0, q; }"
                 : "=r"(r), "=r"(p));
    SELFTEST_CHECK(failures, r == 5 && p == (lane == 5));
  }
  __syncwarp();
  asm volatile("griddepcontrol.wait;" ::: "memory");
  asm volatile("griddepcontrol.launch_dependents;");
}

__device__ unsigned ptx_async_src[32 * 4];

extern "C" __global__ void selftest_ptx_cp_async(unsigned *failures) {
  const unsigned lane = threadIdx.x;
  __shared__ unsigned dst[32 * 4];
  for (int k = 0; k < 4; ++k) {
    ptx_async_src[4 * lane + k] = 10 * lane + k;
    dst[4 * lane + k] = 0xdeadbeefu;
  }
  /* 16 bytes copied, or 8 copied and 8 zeroed (src-size 8). */
  asm volatile("{ .reg .u64 d, s; cvta.to.shared.u64 d, %0; cvta.to.global.u64 s, %1;\n\t"
               "cp.async.cg.shared.global [d], [s], 16, %2; }"
               ::"l"(&dst[4 * lane]), "l"(&ptx_async_src[4 * lane]), "r"(lane & 1 ? 8u : 16u)
               : "memory");
  asm volatile("cp.async.commit_group;" ::: "memory");
  asm volatile("cp.async.wait_group 0;" ::: "memory");
  asm volatile("cp.async.wait_all;" ::: "memory");
  SELFTEST_CHECK(failures, dst[4 * lane] == 10 * lane && dst[4 * lane + 1] == 10 * lane + 1);
  SELFTEST_CHECK(failures, dst[4 * lane + 2] == (lane & 1 ? 0u : 10 * lane + 2));
  SELFTEST_CHECK(failures, dst[4 * lane + 3] == (lane & 1 ? 0u : 10 * lane + 3));
  __syncthreads(); /* every lane's source is written */
  asm volatile("{ .reg .u64 d, s; cvta.to.shared.u64 d, %0; cvta.to.global.u64 s, %1;\n\t"
               "cp.async.ca.shared.global [d], [s], 4; }"
               ::"l"(&dst[4 * lane]), "l"(&ptx_async_src[4 * ((lane + 1) % 32)])
               : "memory");
  asm volatile("cp.async.wait_all;" ::: "memory");
  SELFTEST_CHECK(failures, dst[4 * lane] == 10 * ((lane + 1) % 32));
}
