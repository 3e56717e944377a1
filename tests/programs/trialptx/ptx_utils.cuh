#pragma once
#include <cstdint>

namespace wp {

__device__ __forceinline__ unsigned lane_id() {
  unsigned r;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(r));
  return r;
}
__device__ __forceinline__ unsigned warp_id() {
  unsigned r;
  asm("mov.u32 %0, %%warpid;" : "=r"(r));
  return r;
}
__device__ __forceinline__ unsigned sm_id() {
  unsigned r;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(r));
  return r;
}
__device__ __forceinline__ unsigned long long clock64() {
  unsigned long long r;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(r));
  return r;
}
__device__ __forceinline__ unsigned lanemask_lt() {
  unsigned r;
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(r));
  return r;
}

template <typename T>
__device__ __forceinline__ T shfl_xor(T v, int m, unsigned mask = 0xffffffffu) {
  static_assert(sizeof(T) == 4, "32-bit only");
  unsigned x = *reinterpret_cast<unsigned*>(&v), y;
  asm volatile("shfl.sync.bfly.b32 %0, %1, %2, 0x1f, %3;" : "=r"(y) : "r"(x), "r"(m), "r"(mask));
  return *reinterpret_cast<T*>(&y);
}

__device__ __forceinline__ int shfl_up_pred(int v, int delta, bool& valid) {
  int r;
  unsigned p;
  asm volatile(
      "{\n\t"
      ".reg .pred p;\n\t"
      "shfl.sync.up.b32 %0|p, %2, %3, 0, 0xffffffff;\n\t"
      "selp.u32 %1, 1, 0, p;\n\t"
      "}\n"
      : "=r"(r), "=r"(p)
      : "r"(v), "r"(delta));
  valid = p != 0;
  return r;
}

__device__ __forceinline__ unsigned ballot(bool pred) {
  unsigned r;
  asm volatile(
      "{\n"
      "  .reg .pred %%p;\n"
      "  setp.ne.u32 %%p, %1, 0;\n"
      "  vote.sync.ballot.b32 %0, %%p, 0xffffffff;\n"
      "}\n"
      : "=r"(r)
      : "r"((unsigned)pred));
  return r;
}

__device__ __forceinline__ unsigned redux_add(unsigned v) {
  unsigned r;
  asm volatile("redux.sync.add.u32 %0, %1, 0xffffffff;" : "=r"(r) : "r"(v));
  return r;
}
__device__ __forceinline__ int redux_max(int v) {
  int r;
  asm volatile("redux.sync.max.s32 %0, %1, 0xffffffff;" : "=r"(r) : "r"(v));
  return r;
}

__device__ __forceinline__ unsigned bfe(unsigned x, unsigned pos, unsigned len) {
  unsigned r;
  asm("bfe.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(pos), "r"(len));
  return r;
}
__device__ __forceinline__ unsigned bfi(unsigned x, unsigned y, unsigned pos, unsigned len) {
  unsigned r;
  asm("bfi.b32 %0, %1, %2, %3, %4;" : "=r"(r) : "r"(x), "r"(y), "r"(pos), "r"(len));
  return r;
}

// Streaming loads and stores.
__device__ __forceinline__ uint4 ld_nc_na(const uint4* p) {
  uint4 r;
  asm volatile("ld.global.nc.L1::no_allocate.v4.u32 {%0,%1,%2,%3}, [%4];"
               : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w)
               : "l"(p));
  return r;
}
__device__ __forceinline__ void st_cs(uint4* p, uint4 v) {
  asm volatile("st.global.cs.v4.u32 [%0], {%1,%2,%3,%4};" ::"l"(p), "r"(v.x), "r"(v.y), "r"(v.z),
               "r"(v.w)
               : "memory");
}
__device__ __forceinline__ unsigned ld_nc(const unsigned* p) {
  unsigned r;
  asm volatile("ld.global.nc.b32 %0, [%1];" : "=r"(r) : "l"(p));
  return r;
}

__device__ __forceinline__ void red_add(unsigned* p, unsigned v) {
  asm volatile("red.global.add.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}
__device__ __forceinline__ void red_add_rel(int* p, int v) {
  asm volatile("red.release.gpu.global.add.s32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}
__device__ __forceinline__ int ld_acquire(const int* p) {
  int r;
  asm volatile("ld.acquire.gpu.global.b32 %0, [%1];" : "=r"(r) : "l"(p) : "memory");
  return r;
}
__device__ __forceinline__ unsigned atom_cas(unsigned* p, unsigned cmp, unsigned val) {
  unsigned old;
  asm volatile("atom.global.cas.b32 %0, [%1], %2, %3;" : "=r"(old) : "l"(p), "r"(cmp), "r"(val)
               : "memory");
  return old;
}
__device__ __forceinline__ unsigned long long atom_add64(unsigned long long* p,
                                                         unsigned long long v) {
  unsigned long long old;
  asm volatile("atom.global.add.u64 %0, [%1], %2;" : "=l"(old) : "l"(p), "l"(v) : "memory");
  return old;
}

// Spin lock with backoff, as used by some stream-K / semaphore code.
struct Semaphore {
  unsigned* lock;
  __device__ void acquire() {
    unsigned ns = 8;
    while (atom_cas(lock, 0u, 1u) != 0u) {
      asm volatile("nanosleep.u32 %0;" ::"r"(ns));
      if (ns < 256) ns *= 2;
    }
    asm volatile("fence.acq_rel.gpu;" ::: "memory");
  }
  __device__ void release() {
    asm volatile("membar.gl;" ::: "memory");
    asm volatile("st.global.release.gpu.b32 [%0], %1;" ::"l"(lock), "r"(0u) : "memory");
  }
};

// Named barriers for producer/consumer warps.
__device__ __forceinline__ void named_sync(int id, int n) {
  asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(n) : "memory");
}
__device__ __forceinline__ void named_arrive(int id, int n) {
  asm volatile("bar.arrive %0, %1;" ::"r"(id), "r"(n) : "memory");
}

// Predicated store; %= gives each expansion its own label.
__device__ __forceinline__ void store_if_positive(int* p, int v) {
  asm volatile(
      "{\n\t"
      ".reg .pred gt;\n\t"
      "setp.gt.s32 gt, %1, 0;\n\t"
      "@!gt bra.uni SKIP%=;\n\t"
      "st.global.s32 [%0], %1;\n"
      "SKIP%=:\n\t"
      "}\n" ::"l"(p),
      "r"(v)
      : "memory");
}

}  // namespace wp
