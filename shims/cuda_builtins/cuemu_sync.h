/*
 * cuemu_sync.h: block barriers (__syncthreads and its _count, _and and _or
 * forms) and __trap().
 *
 * Each call passes its call site, taken with __builtin_FILE/__builtin_LINE
 * in default arguments, so that the scheduler can tell barriers apart and
 * name them in reports.
 */
#ifndef CUEMU_SYNC_H
#define CUEMU_SYNC_H

#include <cuemu/cuemu_device.h>

inline void __syncthreads(const char *cuemu_file = __builtin_FILE(),
                          int cuemu_line = __builtin_LINE()) {
  cuemu_block_barrier(CUEMU_BARRIER_PLAIN, 0, cuemu_file, cuemu_line);
}

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

#endif /* CUEMU_SYNC_H */
