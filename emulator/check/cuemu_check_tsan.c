/*
 * cuemu_check_tsan.c: the entry points that code compiled with
 * -fsanitize=thread calls (g++ 12 and clang++ 14 emit the same ones), with
 * libcuemu in place of ThreadSanitizer's runtime: every access goes to the
 * shadow memory (cuemu_check_shadow.c) with the caller's return address,
 * which gives its source line. (Builds made since the checked build got its
 * own plain loads and stores, shims/cuda_builtins/cuemu_check_entry.h, now
 * an object that cuemu-cc links into every checked output, call only the
 * others here.) Atomic operations are performed for real
 * (and recorded as atomic accesses, which race with plain accesses only;
 * a compare-and-swap says it is one). Function entry and
 * exit have nothing to do; the vtable hooks are a write and a read.
 *
 * This file must not itself be instrumented, and nothing in libcuemu is.
 */
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

#include "check/cuemu_check.h"

extern atomic_int cuemu__check_present;

#define PC() __builtin_return_address(0)
#define R CUEMU_ACCESS_READ
#define W CUEMU_ACCESS_WRITE
#define V CUEMU_ACCESS_VOLATILE
#define A CUEMU_ACCESS_ATOMIC
/* A compare-and-swap of the user (CUDA's atomicCAS, __nv_atomic_compare_
 * exchange, libcu++'s): one whose failure order is not relaxed. The shims'
 * own loops that make an operation without an instruction of its own
 * (atomicMax, a float atomicAdd) fail relaxed; their compare-and-swap is
 * that operation, an ordinary read-modify-write to racecheck. */
#define CAS(fmo) ((fmo) == __ATOMIC_RELAXED ? 0 : CUEMU_ACCESS_CAS)

/* Called by the constructor of every instrumented object. */
void __tsan_init(void) { atomic_store(&cuemu__check_present, 1); }

void __tsan_func_entry(void *pc) { (void)pc; }
void __tsan_func_exit(void) {}
/* A constructor's (or destructor's) store of an object's vtable pointer,
 * which the instrumentation reports here instead of as a write: it is one
 * (an object made with `new` in a kernel, whose virtual call then loads
 * the pointer, was otherwise uninitialised to initcheck). */
void __tsan_vptr_update(void **vptr, void *value) {
  (void)value;
  cuemu__check_access(vptr, sizeof *vptr, W, PC());
}
void __tsan_vptr_read(void **vptr) {
  cuemu__check_access(vptr, sizeof *vptr, R, PC());
}

/* Plain, unaligned and volatile loads and stores of 1 to 16 bytes. The
 * unaligned forms are the compiler saying it does not know the alignment;
 * only the others are held to the GPU's alignment rule. */
#define ACCESS_FNS(n)                                                          \
  void __tsan_read##n(void *p) { cuemu__check_access(p, n, R, PC()); }         \
  void __tsan_write##n(void *p) { cuemu__check_access(p, n, W, PC()); }        \
  void __tsan_volatile_read##n(void *p) {                                      \
    cuemu__check_access(p, n, R | V, PC());                                    \
  }                                                                            \
  void __tsan_volatile_write##n(void *p) {                                     \
    cuemu__check_access(p, n, W | V, PC());                                    \
  }                                                                            \
  void __tsan_unaligned_read##n(void *p) {                                     \
    cuemu__check_access(p, n, R | CUEMU_ACCESS_RANGE, PC());                   \
  }                                                                            \
  void __tsan_unaligned_write##n(void *p) {                                    \
    cuemu__check_access(p, n, W | CUEMU_ACCESS_RANGE, PC());                   \
  }                                                                            \
  void __tsan_unaligned_volatile_read##n(void *p) {                            \
    cuemu__check_access(p, n, R | V | CUEMU_ACCESS_RANGE, PC());               \
  }                                                                            \
  void __tsan_unaligned_volatile_write##n(void *p) {                           \
    cuemu__check_access(p, n, W | V | CUEMU_ACCESS_RANGE, PC());               \
  }                                                                            \
  void __tsan_read##n##_pc(void *p, void *pc) {                                \
    cuemu__check_access(p, n, R, pc);                                          \
  }                                                                            \
  void __tsan_write##n##_pc(void *p, void *pc) {                               \
    cuemu__check_access(p, n, W, pc);                                          \
  }
ACCESS_FNS(1)
ACCESS_FNS(2)
ACCESS_FNS(4)
ACCESS_FNS(8)
ACCESS_FNS(16)

void __tsan_read_range(void *p, unsigned long size) {
  cuemu__check_access(p, size, R | CUEMU_ACCESS_RANGE, PC());
}
void __tsan_write_range(void *p, unsigned long size) {
  cuemu__check_access(p, size, W | CUEMU_ACCESS_RANGE, PC());
}

/* clang++ may replace memory intrinsics with these. */
void *__tsan_memcpy(void *dst, const void *src, unsigned long n) {
  cuemu__check_access(src, n, R | CUEMU_ACCESS_RANGE, PC());
  cuemu__check_access(dst, n, W | CUEMU_ACCESS_RANGE, PC());
  return memcpy(dst, src, n);
}
void *__tsan_memmove(void *dst, const void *src, unsigned long n) {
  cuemu__check_access(src, n, R | CUEMU_ACCESS_RANGE, PC());
  cuemu__check_access(dst, n, W | CUEMU_ACCESS_RANGE, PC());
  return memmove(dst, src, n);
}
void *__tsan_memset(void *dst, int c, unsigned long n) {
  cuemu__check_access(dst, n, W | CUEMU_ACCESS_RANGE, PC());
  return memset(dst, c, n);
}

/* Checked modules are linked with --wrap=memcpy (and memmove, memset), so
 * that their library calls, which the instrumentation does not see into,
 * are checked too. */
void *__wrap_memcpy(void *dst, const void *src, size_t n) {
  cuemu__check_access(src, n, R | CUEMU_ACCESS_RANGE, PC());
  cuemu__check_access(dst, n, W | CUEMU_ACCESS_RANGE, PC());
  return memcpy(dst, src, n);
}
void *__wrap_memmove(void *dst, const void *src, size_t n) {
  cuemu__check_access(src, n, R | CUEMU_ACCESS_RANGE, PC());
  cuemu__check_access(dst, n, W | CUEMU_ACCESS_RANGE, PC());
  return memmove(dst, src, n);
}
void *__wrap_memset(void *dst, int c, size_t n) {
  cuemu__check_access(dst, n, W | CUEMU_ACCESS_RANGE, PC());
  return memset(dst, c, n);
}

/* ---- Atomics -------------------------------------------------------------
 * The memory orders the instrumentation passes are those of the C++11
 * interface (0 relaxed ... 5 seq_cst), the same numbers as __ATOMIC_*. The
 * operation itself is always done sequentially consistent, which is at
 * least as strong as asked.
 *
 * A release (or acq_rel) operation publishes the thread's earlier accesses
 * as __threadfence() does: a lock released by st.release, a ticket lock
 * advanced by atom.add.release, libcu++'s atomic_ref::store(release). It
 * counts as a fence just before the operation. Sequentially consistent ones
 * do not: CUDA's atomicAdd and friends are relaxed on a GPU, and the shims
 * implement them as seq_cst (libcu++'s seq_cst operations are fence.sc and
 * a relaxed operation, whose fence is seen as such). */

static inline void release_point(int mo) {
  if (mo == __ATOMIC_RELEASE || mo == __ATOMIC_ACQ_REL)
    cuemu__check_fence(PC());
}

#define ATOMIC_FNS(bits, T)                                                    \
  T __tsan_atomic##bits##_load(const volatile T *a, int mo) {                  \
    (void)mo;                                                                  \
    cuemu__check_access((const void *)a, sizeof(T), R | A, PC());              \
    return __atomic_load_n(a, __ATOMIC_SEQ_CST);                               \
  }                                                                            \
  void __tsan_atomic##bits##_store(volatile T *a, T v, int mo) {               \
    release_point(mo);                                                      \
    cuemu__check_access((const void *)a, sizeof(T), W | A, PC());              \
    __atomic_store_n(a, v, __ATOMIC_SEQ_CST);                                  \
  }                                                                            \
  T __tsan_atomic##bits##_exchange(volatile T *a, T v, int mo) {               \
    release_point(mo);                                                      \
    cuemu__check_access((const void *)a, sizeof(T), R | W | A, PC());          \
    return __atomic_exchange_n(a, v, __ATOMIC_SEQ_CST);                        \
  }                                                                            \
  RMW_FN(bits, T, fetch_add, __atomic_fetch_add)                               \
  RMW_FN(bits, T, fetch_sub, __atomic_fetch_sub)                               \
  RMW_FN(bits, T, fetch_and, __atomic_fetch_and)                               \
  RMW_FN(bits, T, fetch_or, __atomic_fetch_or)                                 \
  RMW_FN(bits, T, fetch_xor, __atomic_fetch_xor)                               \
  RMW_FN(bits, T, fetch_nand, __atomic_fetch_nand)                             \
  int __tsan_atomic##bits##_compare_exchange_strong(volatile T *a, T *c, T v,  \
                                                    int mo, int fmo) {         \
    release_point(mo);                                                      \
    cuemu__check_access((const void *)a, sizeof(T), R | W | A | CAS(fmo),      \
                        PC());                                                 \
    return __atomic_compare_exchange_n(a, c, v, 0, __ATOMIC_SEQ_CST,           \
                                       __ATOMIC_SEQ_CST);                      \
  }                                                                            \
  int __tsan_atomic##bits##_compare_exchange_weak(volatile T *a, T *c, T v,    \
                                                  int mo, int fmo) {           \
    release_point(mo);                                                      \
    cuemu__check_access((const void *)a, sizeof(T), R | W | A | CAS(fmo),      \
                        PC());                                                 \
    return __atomic_compare_exchange_n(a, c, v, 1, __ATOMIC_SEQ_CST,           \
                                       __ATOMIC_SEQ_CST);                      \
  }                                                                            \
  T __tsan_atomic##bits##_compare_exchange_val(volatile T *a, T c, T v,        \
                                               int mo, int fmo) {              \
    release_point(mo);                                                      \
    cuemu__check_access((const void *)a, sizeof(T), R | W | A | CAS(fmo),      \
                        PC());                                                 \
    __atomic_compare_exchange_n(a, &c, v, 0, __ATOMIC_SEQ_CST,                 \
                                __ATOMIC_SEQ_CST);                             \
    return c;                                                                  \
  }

#define RMW_FN(bits, T, op, builtin)                                           \
  T __tsan_atomic##bits##_##op(volatile T *a, T v, int mo) {                   \
    release_point(mo);                                                      \
    cuemu__check_access((const void *)a, sizeof(T), R | W | A, PC());          \
    return builtin(a, v, __ATOMIC_SEQ_CST);                                    \
  }

ATOMIC_FNS(8, uint8_t)
ATOMIC_FNS(16, uint16_t)
ATOMIC_FNS(32, uint32_t)
ATOMIC_FNS(64, uint64_t)
/* 16-byte atomics would need libatomic; CUDA kernels have none below
 * sm_90, and a checked module that uses them does not load. */

void __tsan_atomic_thread_fence(int mo) {
  (void)mo;
  cuemu__check_fence(PC());
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
}

void __tsan_atomic_signal_fence(int mo) {
  (void)mo;
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
}
