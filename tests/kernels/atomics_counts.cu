/*
 * atomics_counts.cu: atomics from many blocks at once, with results that are
 * exact whatever the order: counts, permutations of returned old values,
 * wrap-around of atomicInc/atomicDec, bit patterns, and a spin lock built on
 * atomicCAS. The host side is tests/check_atomics.c.
 */
#include <cuda_runtime.h>

__device__ inline unsigned global_id() {
  return blockIdx.x * blockDim.x + threadIdx.x;
}

/* A value of thread `gid` that the host can recompute. */
__device__ __host__ inline unsigned mix(unsigned gid) {
  unsigned x = gid * 2654435761u + 0x9e3779b9u;
  x ^= x >> 15;
  x *= 2246822519u;
  x ^= x >> 13;
  return x;
}

/* add_olds[gid] gets the old value of the int counter, so the host can
 * check that they are a permutation of 0..N-1. */
__global__ void atomic_adds(int *i, unsigned *u, unsigned long long *ull,
                            float *f, double *d, int *add_olds) {
  const unsigned gid = global_id();
  add_olds[gid] = atomicAdd(&i[0], 1);
  atomicAdd(&u[0], 3u);
  atomicAdd(&ull[0], (1ull << 32) + 1ull);
  atomicAdd(&f[0], 1.0f);
  atomicAdd(&f[1], (float)(gid % 4u)); /* integers below 2^24: exact */
  atomicAdd(&d[0], 0.5);
  atomicAdd(&d[1], (double)gid);
}

__global__ void atomic_subs(int *i, unsigned *u) {
  atomicSub(&i[0], 3);
  atomicSub(&u[0], 2u);
}

/* The old values of the exchanges, with the final value, are the initial
 * value and every thread's id, each once. */
__global__ void atomic_exchanges(int *slot, int *olds, float *fslot,
                                 unsigned long long *uslot,
                                 unsigned long long *uolds) {
  const unsigned gid = global_id();
  olds[gid] = atomicExch(slot, (int)gid);
  atomicExch(fslot, (float)gid);
  uolds[gid] = atomicExch(uslot, (unsigned long long)gid << 20);
}

/* Minima and maxima of mix(gid) seen as int, unsigned, long long and
 * unsigned long long; the host computes them. */
__global__ void atomic_min_max(int *imin, int *imax, unsigned *umin,
                               unsigned *umax, long long *llmin,
                               long long *llmax, unsigned long long *ullmin,
                               unsigned long long *ullmax) {
  const unsigned v = mix(global_id());
  atomicMin(imin, (int)v);
  atomicMax(imax, (int)v);
  atomicMin(umin, v);
  atomicMax(umax, v);
  atomicMin(llmin, (long long)(int)v * 1000);
  atomicMax(llmax, (long long)(int)v * 1000);
  atomicMin(ullmin, (unsigned long long)v << 24);
  atomicMax(ullmax, (unsigned long long)v << 24);
}

/* atomicInc(p, limit) counts 0..limit and wraps; atomicDec(p, limit) counts
 * down from limit and wraps from 0 to limit. */
__global__ void atomic_inc_dec(unsigned *inc, unsigned *dec, unsigned limit,
                               unsigned *inc_olds) {
  const unsigned gid = global_id();
  inc_olds[gid] = atomicInc(inc, limit);
  atomicDec(dec, limit);
}

/* A lock taken with atomicCAS protects a plain (non-atomic) increment. One
 * thread per warp takes the lock, so warps never spin against their own
 * lanes; the count of each lane is done in the critical section. */
__global__ void spin_lock_counter(int *lock, unsigned *counter,
                                  unsigned *inside) {
  if (threadIdx.x % 32u != 0)
    return;
  while (atomicCAS(lock, 0, 1) != 0) {
  }
  __threadfence();
  volatile unsigned *c = counter;
  volatile unsigned *in = inside;
  *in = *in + 1u;
  const unsigned seen = *in;
  for (unsigned lane = 0; lane < 32u; ++lane)
    *c = *c + 1u;
  if (*in != seen || seen != 1u)
    *c = *c + 1000000u; /* someone else was inside */
  *in = *in - 1u;
  __threadfence();
  atomicExch(lock, 0);
}

/* Bit patterns: the host folds mix() of every thread the same way. */
__global__ void atomic_bits(unsigned *and_w, unsigned *or_w, unsigned *xor_w,
                            unsigned long long *and_ll,
                            unsigned long long *or_ll,
                            unsigned long long *xor_ll, int *or_i) {
  const unsigned gid = global_id();
  const unsigned v = mix(gid);
  const unsigned long long wide = ((unsigned long long)mix(gid + 77u) << 32) | v;
  atomicAnd(and_w, v | 0x0ff00000u);
  atomicOr(or_w, v & 0x0000ff0fu);
  atomicXor(xor_w, v);
  atomicAnd(and_ll, wide | 0xf0000000000000f0ull);
  atomicOr(or_ll, wide & 0x000000ffff0000ffull);
  atomicXor(xor_ll, wide);
  atomicOr(or_i, (int)(1u << (gid % 31u)));
}

/* The _block and _system forms: a block-scope count in shared memory, stored
 * by one thread; adds, maxima and compare-and-swap loops on global memory;
 * and one word per remaining operation in words[0..11], each with a final
 * value the host computes. */
__global__ void atomic_scopes(unsigned *block_counts, unsigned *system_count,
                              int *system_max, int *cas_count,
                              unsigned *words) {
  __shared__ unsigned local;
  if (threadIdx.x == 0)
    local = 0;
  __syncthreads();
  atomicAdd_block(&local, 1u);
  atomicSub_block(&local, 0u);
  __syncthreads();
  if (threadIdx.x == 0)
    block_counts[blockIdx.x] = local;
  atomicAdd_system(system_count, 2u);
  atomicMax_system(system_max, (int)global_id());
  atomicMax_block(system_max, 0);
  /* Increment through a CAS loop, block scope then system scope. */
  int old = *(volatile int *)cas_count, assumed;
  do {
    assumed = old;
    old = atomicCAS_block(cas_count, assumed, assumed + 1);
  } while (old != assumed);
  old = *(volatile int *)cas_count;
  do {
    assumed = old;
    old = atomicCAS_system(cas_count, assumed, assumed + 1);
  } while (old != assumed);
  atomicExch_system(&words[0], 1u);
  atomicOr_block(&words[1], 2u);
  atomicXor_system(&words[2], mix(global_id()));
  atomicAnd_system(&words[3], ~(1u << (blockIdx.x % 32u)));
  atomicInc_system(&words[4], 0xffffffffu);
  atomicDec_block(&words[5], 0xffffffffu);
  atomicMin_block(&words[6], 7u);
  atomicExch_block(&words[7], 9u);
  atomicAnd_block(&words[8], 0xf0u);
  atomicOr_system(&words[9], 1u << (threadIdx.x % 32u));
  atomicXor_block(&words[10], 1u);
  atomicMin_system(&words[11], global_id() + 3u);
}
