/*
 * selftest_atomics.cu: self-checking kernels for CUDA's atomic functions.
 *
 * Launched with one block of 32 threads. Every thread of the block contends
 * on the same shared-memory words; the checks after the barrier know the
 * exact result, because the operations commute (or, for atomicInc/atomicDec
 * and atomicExch, because their results form a known set).
 */
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "selftest.cuh"

#define SELFTEST_REPS 64

/* atomicAdd on every integer and floating-point type, all threads at once,
 * plus the old values: each of 0..31 is returned exactly once. */
extern "C" __global__ void selftest_atomic_add_contended(unsigned *failures) {
  __shared__ int si;
  __shared__ unsigned su;
  __shared__ unsigned long long sull;
  __shared__ float sf;
  __shared__ double sd;
  __shared__ unsigned ticket;
  __shared__ unsigned seen;
  const unsigned tid = threadIdx.x;
  if (tid == 0) {
    si = -1000;
    su = 0;
    sull = 0xFFFFFFFF00000000ULL;
    sf = 0.5f;
    sd = -0.25;
    ticket = 0;
    seen = 0;
  }
  __syncthreads();
  for (int i = 0; i < SELFTEST_REPS; ++i) {
    atomicAdd(&si, 2);
    atomicAdd(&su, 3u);
    atomicAdd(&sull, 0x100000000ULL);
    atomicAdd(&sf, 1.0f);
    atomicAdd(&sd, 0.5);
  }
  const unsigned old = atomicAdd(&ticket, 1u);
  SELFTEST_CHECK(failures, old < 32u);
  atomicOr(&seen, 1u << (old & 31u));
  __syncthreads();
  SELFTEST_CHECK(failures, si == -1000 + 2 * 32 * SELFTEST_REPS);
  SELFTEST_CHECK(failures, su == 3u * 32u * SELFTEST_REPS);
  /* The 64-bit counter wraps through zero: 2^32 - 1 + 2048 carries. */
  SELFTEST_CHECK(failures, sull == (0xFFFFFFFF00000000ULL + 32ULL * SELFTEST_REPS * 0x100000000ULL));
  SELFTEST_CHECK(failures, sf == 0.5f + 32.0f * SELFTEST_REPS);
  SELFTEST_CHECK(failures, sd == -0.25 + 0.5 * 32 * SELFTEST_REPS);
  SELFTEST_CHECK(failures, ticket == 32u);
  SELFTEST_CHECK(failures, seen == 0xFFFFFFFFu);
}

/* atomicSub, atomicMin, atomicMax (32- and 64-bit, signed and unsigned) and
 * atomicExch under contention. */
extern "C" __global__ void selftest_atomic_sub_min_max_exch(unsigned *failures) {
  __shared__ int sub_i;
  __shared__ unsigned sub_u;
  __shared__ int min_i, max_i;
  __shared__ unsigned min_u, max_u;
  __shared__ long long min_ll, max_ll;
  __shared__ unsigned long long min_ull, max_ull;
  __shared__ unsigned slot;
  __shared__ unsigned long long slot64;
  __shared__ unsigned seen, got32;
  __shared__ float fslot;
  const unsigned tid = threadIdx.x;
  if (tid == 0) {
    sub_i = 0;
    sub_u = 1000000u;
    min_i = 0x7FFFFFFF;
    max_i = -0x7FFFFFFF - 1;
    min_u = 0xFFFFFFFFu;
    max_u = 0;
    min_ll = 0;
    max_ll = 0;
    min_ull = ~0ULL;
    max_ull = 0;
    slot = 32;
    slot64 = 32;
    seen = 0;
    got32 = 0;
    fslot = -1.0f;
  }
  __syncthreads();
  for (int i = 0; i < SELFTEST_REPS; ++i) {
    atomicSub(&sub_i, 5);
    atomicSub(&sub_u, 7u);
  }
  atomicMin(&min_i, static_cast<int>(tid) - 16);
  atomicMax(&max_i, static_cast<int>(tid) - 16);
  atomicMin(&min_u, tid + 100u);
  atomicMax(&max_u, tid + 100u);
  atomicMin(&min_ll, -static_cast<long long>(tid) * 1000000000000LL);
  atomicMax(&max_ll, static_cast<long long>(tid) * 1000000000000LL);
  atomicMin(&min_ull, 0x100000000ULL + tid);
  atomicMax(&max_ull, 0xF00000000ULL + tid);
  /* Every value 0..32 ends up either returned by exactly one thread or
   * left in the slot. */
  const unsigned old = atomicExch(&slot, tid);
  SELFTEST_CHECK(failures, old <= 32u);
  if (old == 32u)
    atomicAdd(&got32, 1u);
  else
    atomicOr(&seen, 1u << (old & 31u));
  const unsigned long long old64 = atomicExch(&slot64, 1000ULL + tid);
  SELFTEST_CHECK(failures, old64 == 32ULL || (old64 >= 1000ULL && old64 < 1032ULL));
  const float fold = atomicExch(&fslot, static_cast<float>(tid));
  SELFTEST_CHECK(failures, fold == -1.0f || (fold >= 0.0f && fold < 32.0f));
  __syncthreads();
  SELFTEST_CHECK(failures, sub_i == -5 * 32 * SELFTEST_REPS);
  SELFTEST_CHECK(failures, sub_u == 1000000u - 7u * 32u * SELFTEST_REPS);
  SELFTEST_CHECK(failures, min_i == -16);
  SELFTEST_CHECK(failures, max_i == 15);
  SELFTEST_CHECK(failures, min_u == 100u);
  SELFTEST_CHECK(failures, max_u == 131u);
  SELFTEST_CHECK(failures, min_ll == -31000000000000LL);
  SELFTEST_CHECK(failures, max_ll == 31000000000000LL);
  SELFTEST_CHECK(failures, min_ull == 0x100000000ULL);
  SELFTEST_CHECK(failures, max_ull == 0xF0000001FULL);
  /* The slot kept one thread's id; 32 came back from the first exchange. */
  SELFTEST_CHECK(failures, slot < 32u && got32 == 1u);
  SELFTEST_CHECK(failures, (seen | (1u << slot)) == 0xFFFFFFFFu);
  SELFTEST_CHECK(failures, (seen & (1u << slot)) == 0u);
}

/* atomicInc and atomicDec wrap exactly as CUDA specifies. */
extern "C" __global__ void selftest_atomic_inc_dec_wrap(unsigned *failures) {
  __shared__ unsigned inc, dec;
  const unsigned tid = threadIdx.x;
  if (tid == 0) {
    inc = 0;
    dec = 0;
  }
  __syncthreads();
  for (int i = 0; i < 10; ++i) {
    const unsigned o1 = atomicInc(&inc, 99u);
    SELFTEST_CHECK(failures, o1 <= 99u);
    const unsigned o2 = atomicDec(&dec, 99u);
    SELFTEST_CHECK(failures, o2 <= 99u);
  }
  __syncthreads();
  /* 320 increments modulo 100, and 320 decrements from 0 modulo 100. */
  SELFTEST_CHECK(failures, inc == 20u);
  SELFTEST_CHECK(failures, dec == 80u);

  /* Known single-thread values, each thread on its own shared word (atomics
   * on local variables are not allowed on the GPU). */
  __shared__ unsigned words[32];
  unsigned &x = words[tid];
  x = 5u;
  SELFTEST_CHECK(failures, atomicInc(&x, 5u) == 5u && x == 0u); /* old >= val */
  x = 3u;
  SELFTEST_CHECK(failures, atomicInc(&x, 5u) == 3u && x == 4u);
  x = 9u;
  SELFTEST_CHECK(failures, atomicInc(&x, 5u) == 9u && x == 0u); /* above val */
  x = 0u;
  SELFTEST_CHECK(failures, atomicInc(&x, 0u) == 0u && x == 0u);
  x = 0xFFFFFFFFu;
  SELFTEST_CHECK(failures, atomicInc(&x, 0xFFFFFFFFu) == 0xFFFFFFFFu && x == 0u);
  x = 0u;
  SELFTEST_CHECK(failures, atomicDec(&x, 7u) == 0u && x == 7u); /* old == 0 */
  x = 9u;
  SELFTEST_CHECK(failures, atomicDec(&x, 7u) == 9u && x == 7u); /* old > val */
  x = 4u;
  SELFTEST_CHECK(failures, atomicDec(&x, 7u) == 4u && x == 3u);
  x = 7u;
  SELFTEST_CHECK(failures, atomicDec(&x, 7u) == 7u && x == 6u);
  x = 1u;
  SELFTEST_CHECK(failures, atomicDec(&x, 0u) == 1u && x == 0u); /* old > val */
  x = 0u;
  SELFTEST_CHECK(failures, atomicDec(&x, 0u) == 0u && x == 0u);
}

/* atomicCAS returns the old value whether or not it swapped, and a CAS loop
 * built on it counts correctly under contention. */
extern "C" __global__ void selftest_atomic_cas(unsigned *failures) {
  __shared__ unsigned counter;
  __shared__ unsigned long long counter64;
  __shared__ unsigned short counter16[2];
  const unsigned tid = threadIdx.x;
  if (tid == 0) {
    counter = 0;
    counter64 = 0;
    counter16[0] = 0;
    counter16[1] = 0;
  }
  __syncthreads();
  for (int i = 0; i < SELFTEST_REPS; ++i) {
    unsigned seen = counter;
    for (;;) {
      const unsigned prev = atomicCAS(&counter, seen, seen + 1u);
      if (prev == seen)
        break;
      seen = prev;
    }
    unsigned long long seen64 = counter64;
    for (;;) {
      const unsigned long long prev = atomicCAS(&counter64, seen64, seen64 + 3ULL);
      if (prev == seen64)
        break;
      seen64 = prev;
    }
    unsigned short seen16 = counter16[1];
    for (;;) {
      const unsigned short next = static_cast<unsigned short>(seen16 + 1u);
      const unsigned short prev = atomicCAS(&counter16[1], seen16, next);
      if (prev == seen16)
        break;
      seen16 = prev;
    }
  }
  __syncthreads();
  SELFTEST_CHECK(failures, counter == 32u * SELFTEST_REPS);
  SELFTEST_CHECK(failures, counter64 == 3ULL * 32 * SELFTEST_REPS);
  SELFTEST_CHECK(failures, counter16[1] == 32u * SELFTEST_REPS);
  SELFTEST_CHECK(failures, counter16[0] == 0u); /* the neighbour is untouched */

  __shared__ int iw[32];
  __shared__ unsigned uw[32];
  __shared__ unsigned long long ullw[32];
  __shared__ unsigned short usw[32];
  int &i = iw[tid];
  i = 10;
  SELFTEST_CHECK(failures, atomicCAS(&i, 10, 20) == 10 && i == 20);
  SELFTEST_CHECK(failures, atomicCAS(&i, 10, 30) == 20 && i == 20);
  unsigned &u = uw[tid];
  u = 0xFFFFFFFFu;
  SELFTEST_CHECK(failures, atomicCAS(&u, 0xFFFFFFFFu, 1u) == 0xFFFFFFFFu && u == 1u);
  SELFTEST_CHECK(failures, atomicCAS(&u, 0u, 2u) == 1u && u == 1u);
  unsigned long long &ull = ullw[tid];
  ull = 0x123456789ULL;
  SELFTEST_CHECK(failures, atomicCAS(&ull, 0x123456789ULL, 7ULL) == 0x123456789ULL && ull == 7ULL);
  SELFTEST_CHECK(failures, atomicCAS(&ull, 0x123456789ULL, 8ULL) == 7ULL && ull == 7ULL);
  unsigned short &us = usw[tid];
  us = 0xFFFFu;
  SELFTEST_CHECK(failures, atomicCAS(&us, (unsigned short)0xFFFFu, (unsigned short)5u) == 0xFFFFu && us == 5u);
  SELFTEST_CHECK(failures, atomicCAS(&us, (unsigned short)4u, (unsigned short)6u) == 5u && us == 5u);
  i = 1;
  SELFTEST_CHECK(failures, atomicCAS_block(&i, 1, 2) == 1 && i == 2);
  SELFTEST_CHECK(failures, atomicCAS_system(&i, 2, 3) == 2 && i == 3);
}

/* A 16-byte value for the sm_90 128-bit atomicCAS and atomicExch. */
struct __align__(16) selftest_pair64 {
  unsigned long long lo;
  unsigned long long hi;
};

/* 128-bit compare-and-swap: both halves move together. */
extern "C" __global__ void selftest_atomic_cas128(unsigned *failures) {
  __shared__ selftest_pair64 pair;
  const unsigned tid = threadIdx.x;
  if (tid == 0) {
    pair.lo = 0;
    pair.hi = 1000;
  }
  __syncthreads();
  for (int i = 0; i < 8; ++i) {
    selftest_pair64 seen = pair;
    for (;;) {
      selftest_pair64 next;
      next.lo = seen.lo + 1;
      next.hi = seen.hi + 2;
      const selftest_pair64 prev = atomicCAS(&pair, seen, next);
      if (prev.lo == seen.lo && prev.hi == seen.hi)
        break;
      seen = prev;
    }
  }
  __syncthreads();
  SELFTEST_CHECK(failures, pair.lo == 32ULL * 8);
  SELFTEST_CHECK(failures, pair.hi == 1000ULL + 2ULL * 32 * 8);
  /* Every state the pair passes through keeps hi == 1000 + 2 lo. */
  __syncthreads();
  selftest_pair64 mine;
  mine.lo = tid;
  mine.hi = 1000ULL + 2ULL * tid;
  const selftest_pair64 old = atomicExch(&pair, mine);
  SELFTEST_CHECK(failures, old.hi == 1000ULL + 2ULL * old.lo);
}

/* atomicAnd, atomicOr and atomicXor on 32- and 64-bit words. */
extern "C" __global__ void selftest_atomic_bitwise(unsigned *failures) {
  __shared__ unsigned or_u, and_u, xor_u;
  __shared__ int or_i;
  __shared__ unsigned long long or_ull, and_ull, xor_ull;
  __shared__ long long xor_ll;
  const unsigned tid = threadIdx.x;
  if (tid == 0) {
    or_u = 0;
    and_u = 0xFFFFFFFFu;
    xor_u = 0x0F0F0F0Fu;
    or_i = 0;
    or_ull = 0;
    and_ull = ~0ULL;
    xor_ull = 0;
    xor_ll = -1;
  }
  __syncthreads();
  atomicOr(&or_u, 1u << tid);
  atomicAnd(&and_u, ~(1u << tid));
  atomicXor(&xor_u, 1u << tid);
  atomicOr(&or_i, static_cast<int>(1u << tid));
  atomicOr(&or_ull, 1ULL << (tid + 32));
  atomicAnd(&and_ull, ~(1ULL << tid));
  atomicXor(&xor_ull, (1ULL << tid) | (1ULL << (tid + 32)));
  atomicXor(&xor_ll, static_cast<long long>(1ULL << (tid * 2)));
  atomicOr_block(&or_u, 0u);
  atomicAnd_system(&and_u, 0xFFFFFFFFu);
  __syncthreads();
  SELFTEST_CHECK(failures, or_u == 0xFFFFFFFFu);
  SELFTEST_CHECK(failures, and_u == 0u);
  SELFTEST_CHECK(failures, xor_u == 0xF0F0F0F0u);
  SELFTEST_CHECK(failures, or_i == -1);
  SELFTEST_CHECK(failures, or_ull == 0xFFFFFFFF00000000ULL);
  SELFTEST_CHECK(failures, and_ull == 0xFFFFFFFF00000000ULL);
  SELFTEST_CHECK(failures, xor_ull == ~0ULL);
  SELFTEST_CHECK(failures, xor_ll == static_cast<long long>(0xAAAAAAAAAAAAAAAAULL));
}

/* The _block and _system forms behave as the plain ones. */
extern "C" __global__ void selftest_atomic_scopes(unsigned *failures) {
  __shared__ unsigned b, s;
  __shared__ double db;
  __shared__ float fs;
  const unsigned tid = threadIdx.x;
  if (tid == 0) {
    b = 0;
    s = 0;
    db = 0.0;
    fs = 0.0f;
  }
  __syncthreads();
  atomicAdd_block(&b, 1u);
  atomicAdd_system(&s, 2u);
  atomicAdd_block(&db, 0.125);
  atomicAdd_system(&fs, 4.0f);
  atomicInc_block(&b, 1000u);
  atomicDec_system(&s, 1000u);
  atomicMax_block(&b, 0u);
  atomicMin_system(&s, 0xFFFFFFFFu);
  __syncthreads();
  SELFTEST_CHECK(failures, b == 64u);
  SELFTEST_CHECK(failures, s == 32u);
  SELFTEST_CHECK(failures, db == 4.0);
  SELFTEST_CHECK(failures, fs == 128.0f);
  __shared__ unsigned long long xw[32];
  __shared__ int yw[32];
  unsigned long long &x = xw[tid];
  x = 5;
  SELFTEST_CHECK(failures, atomicExch_block(&x, 6ULL) == 5ULL && x == 6ULL);
  SELFTEST_CHECK(failures, atomicExch_system(&x, 7ULL) == 6ULL && x == 7ULL);
  int &y = yw[tid];
  y = 3;
  SELFTEST_CHECK(failures, atomicSub_block(&y, 1) == 3 && y == 2);
  SELFTEST_CHECK(failures, atomicXor_system(&y, 3) == 2 && y == 1);
}

/* Vector atomics work on global memory only. */
__device__ float2 selftest_g_v2;
__device__ float4 selftest_g_v4;

/* atomicAdd on float2 and float4 (sm_90), each element atomically. */
extern "C" __global__ void selftest_atomic_add_vector(unsigned *failures) {
  float2 &v2 = selftest_g_v2;
  float4 &v4 = selftest_g_v4;
  const unsigned tid = threadIdx.x;
  if (tid == 0) {
    v2 = make_float2(0.0f, 100.0f);
    v4 = make_float4(0.0f, 1.0f, 2.0f, 3.0f);
  }
  __syncthreads();
  atomicAdd(&v2, make_float2(1.0f, -1.0f));
  atomicAdd_block(&v4, make_float4(1.0f, 2.0f, 3.0f, 4.0f));
  atomicAdd_system(&v4, make_float4(0.5f, 0.5f, 0.5f, 0.5f));
  __syncthreads();
  SELFTEST_CHECK(failures, v2.x == 32.0f && v2.y == 68.0f);
  SELFTEST_CHECK(failures, v4.x == 48.0f && v4.y == 81.0f);
  SELFTEST_CHECK(failures, v4.z == 114.0f && v4.w == 147.0f);
}

/* atomicAdd on __half, __half2, __nv_bfloat16 and __nv_bfloat162. The sums
 * stay exactly representable, so the order of the adds cannot matter. */
extern "C" __global__ void selftest_atomic_add_half(unsigned *failures) {
  __shared__ __half h;
  __shared__ __half2 h2;
  __shared__ __nv_bfloat16 b;
  __shared__ __nv_bfloat162 b2;
  const unsigned tid = threadIdx.x;
  if (tid == 0) {
    h = __float2half(0.0f);
    h2 = __floats2half2_rn(0.0f, -64.0f);
    b = __float2bfloat16(0.0f);
    b2 = __floats2bfloat162_rn(0.0f, 1.0f);
  }
  __syncthreads();
  const __half old = atomicAdd(&h, __float2half(1.0f));
  SELFTEST_CHECK(failures, __half2float(old) >= 0.0f && __half2float(old) < 32.0f);
  atomicAdd(&h2, __floats2half2_rn(1.0f, 2.0f));
  atomicAdd(&b, __float2bfloat16(1.0f));
  atomicAdd(&b2, __floats2bfloat162_rn(2.0f, 0.5f));
  __syncthreads();
  SELFTEST_CHECK(failures, __half2float(h) == 32.0f);
  SELFTEST_CHECK(failures, __low2float(h2) == 32.0f && __high2float(h2) == 0.0f);
  SELFTEST_CHECK(failures, __bfloat162float(b) == 32.0f);
  SELFTEST_CHECK(failures, __low2float(b2) == 64.0f && __high2float(b2) == 17.0f);
}
