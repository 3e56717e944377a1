/*
 * cuemu_sync.h: block barriers (__syncthreads and its _count, _and and _or
 * forms), __trap() and __brkpt().
 *
 * Each call passes its call site, taken with __builtin_FILE/__builtin_LINE
 * in default arguments, so that the scheduler can tell barriers apart and
 * name them in reports.
 */
#ifndef CUEMU_SYNC_H
#define CUEMU_SYNC_H

#include <cuemu/cuemu_device.h>

/* On x86-64, __syncthreads() calls cuemu_block_sync (cuemu_device.h) from
 * an asm statement that names every register but rbp and rsp as clobbered:
 * the compiler keeps in the kernel's frame only what is live across the
 * barrier, and the switch to the next thread saves nothing else. The call
 * writes below the stack pointer, so the function must not keep data in the
 * red zone there: the call of cuemu_block_barrier() that the asm could jump
 * to (it never does) makes the function a non-leaf one, which has no red
 * zone (and keeps the thread's switch frame next to the kernel's own). */
#if defined(__x86_64__) && !defined(CUEMU_NO_BLOCK_SYNC) &&                 \
    (defined(__clang__) ? __clang_major__ >= 11 : __GNUC__ >= 11)
/* (asm goto with outputs needs g++ 11 or clang 11.) */
#if defined(__AVX512F__)
#define CUEMU_SYNC_CLOBBERS_AVX512                                             \
  , "xmm16", "xmm17", "xmm18", "xmm19", "xmm20", "xmm21", "xmm22", "xmm23",   \
      "xmm24", "xmm25", "xmm26", "xmm27", "xmm28", "xmm29", "xmm30", "xmm31", \
      "k0", "k1", "k2", "k3", "k4", "k5", "k6", "k7"
#else
#define CUEMU_SYNC_CLOBBERS_AVX512
#endif
/* Memory: the barrier must order the kernel's accesses as a call would
 * (everything but read-only objects may change while other threads run).
 * A "memory" clobber says more to g++: it reloads blockIdx and gridDim
 * after it, which are const (cuemu_builtin_vars.h), so a barrier that most
 * threads never reach has a condition that is no longer invariant in the
 * thunk's loop over threads, which is then not unswitched (the barrier-free
 * threads ran 2.5-3.6x slower). Compiler fences before and after the call
 * order memory as a call does and leave read-only objects alone. clang
 * keeps them across a "memory" clobber, which it is given. */
#if defined(__clang__)
#define CUEMU_SYNC_CLOBBERS_MEMORY , "memory"
#define CUEMU_SYNC_FENCE() ((void)0)
#else
#define CUEMU_SYNC_CLOBBERS_MEMORY
#define CUEMU_SYNC_FENCE() __atomic_signal_fence(__ATOMIC_SEQ_CST)
#endif
#define CUEMU_SYNC_ASM_CALL 1
#endif

#ifdef CUEMU_HOST_DECLS
/* The host pass's lean prelude: declarations only (cuemu_host_decls.h), so
 * that a host function's call of a barrier, __trap() or __brkpt() is
 * refused at the user's line, as nvcc refuses it ("calling a __device__
 * function from a __host__ function is not allowed"). */
#include "cuemu_sync_decls.h"
#else

#ifdef CUEMU_SYNC_ASM_CALL
inline void __syncthreads(const char *cuemu_file = __builtin_FILE(),
                          int cuemu_line = __builtin_LINE()) {
  CUEMU_SYNC_FENCE();
  __asm__ volatile goto("call *cuemu_block_sync@GOTPCREL(%%rip)"
               : "+D"(cuemu_file), "+S"(cuemu_line)
               :
               : "rax", "rbx", "rcx", "rdx", "r8", "r9", "r10", "r11", "r12",
                 "r13", "r14", "r15", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4",
                 "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", "xmm11",
                 "xmm12", "xmm13", "xmm14", "xmm15", "st", "st(1)", "st(2)",
                 "st(3)", "st(4)", "st(5)", "st(6)", "st(7)", "mm0", "mm1",
                 "mm2", "mm3", "mm4", "mm5", "mm6", "mm7",
                 "cc" CUEMU_SYNC_CLOBBERS_MEMORY CUEMU_SYNC_CLOBBERS_AVX512
               : cuemu_not_leaf);
  CUEMU_SYNC_FENCE();
  return;
cuemu_not_leaf:
  cuemu_block_barrier(CUEMU_BARRIER_PLAIN, 0, __FILE__, __LINE__);
}
#else
inline void __syncthreads(const char *cuemu_file = __builtin_FILE(),
                          int cuemu_line = __builtin_LINE()) {
  cuemu_block_barrier(CUEMU_BARRIER_PLAIN, 0, cuemu_file, cuemu_line);
}
#endif

inline int __syncthreads_count(int predicate,
                               const char *cuemu_file = __builtin_FILE(),
                               int cuemu_line = __builtin_LINE()) {
  return cuemu_block_barrier(CUEMU_BARRIER_COUNT, predicate, cuemu_file,
                             cuemu_line);
}

inline int __syncthreads_and(int predicate,
                             const char *cuemu_file = __builtin_FILE(),
                             int cuemu_line = __builtin_LINE()) {
  return cuemu_block_barrier(CUEMU_BARRIER_AND, predicate, cuemu_file,
                             cuemu_line);
}

inline int __syncthreads_or(int predicate,
                            const char *cuemu_file = __builtin_FILE(),
                            int cuemu_line = __builtin_LINE()) {
  return cuemu_block_barrier(CUEMU_BARRIER_OR, predicate, cuemu_file,
                             cuemu_line);
}

[[noreturn]] inline void __trap(const char *cuemu_file = __builtin_FILE(),
                                int cuemu_line = __builtin_LINE()) {
  cuemu_kernel_trap(cuemu_file, cuemu_line);
}

/* __brkpt() is PTX's brkpt: with no debugger attached, the launch ends as
 * with __trap(). */
[[noreturn]] inline void __brkpt(const char *cuemu_file = __builtin_FILE(),
                                 int cuemu_line = __builtin_LINE()) {
  cuemu_kernel_breakpoint(cuemu_file, cuemu_line);
}

#endif /* CUEMU_HOST_DECLS */

#endif /* CUEMU_SYNC_H */
