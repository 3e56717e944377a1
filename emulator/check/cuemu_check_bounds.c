/*
 * cuemu_check_bounds.c: memcheck of indexing into arrays whose bound the
 * compiler knows: a thread's local arrays, static __shared__ arrays (also
 * an index that would land in the next array) and arrays inside structs.
 * A build with memcheck is also compiled with -fsanitize=bounds, which
 * calls __ubsan_handle_out_of_bounds before an index past such an array is
 * used; no UBSan runtime is linked: libcuemu defines the handler here, with
 * the layout of its arguments that gcc and clang share.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check/cuemu_check.h"

/* What the compiler passes (compiler-rt's ubsan_handlers.h layout). */
typedef struct ub_location {
  const char *file;
  uint32_t line, column;
} ub_location;

typedef struct ub_type {
  uint16_t kind; /* 0: integer, 1: float, 0xffff: unknown */
  uint16_t info; /* integers: log2(bit width) << 1 | signed */
  char name[];
} ub_type;

typedef struct ub_out_of_bounds {
  ub_location where;
  const ub_type *array;
  const ub_type *index;
} ub_out_of_bounds;

/* The index's value: integers up to 64 bits come inline, wider ones by
 * address. */
static long long index_value(const ub_type *t, uintptr_t v) {
  if (t->kind != 0)
    return (long long)v;
  unsigned bits = 1u << (t->info >> 1);
  if (bits > 64)
    return *(const long long *)v; /* the low half, little-endian */
  if ((t->info & 1) && bits < 64 && (v >> (bits - 1) & 1))
    v |= ~(uintptr_t)0 << bits;
  return (long long)v;
}

static void out_of_bounds(ub_out_of_bounds *d, uintptr_t index) {
  long long i = index_value(d->index, index);
  cuemu_worker *w = cuemu__worker_self;
  if (w && w->in_kernel && (cuemu__check_launch_mask(w->launch) & CUEMU_CHECK_MEM)) {
    cuemu_uint3 t = cuemu__worker_thread_idx(w);
    cuemu__block_fail(w, CUEMU_CHECK_REPORT,
                      "kernel %s: memcheck: out-of-bounds index %lld of an "
                      "array of type %s (a local, __shared__, __device__ "
                      "or struct array) by block (%u,%u,%u) thread "
                      "(%u,%u,%u) at %s:%u",
                      w->launch->kernel->name, i, d->array->name,
                      w->block_idx.x, w->block_idx.y, w->block_idx.z, t.x,
                      t.y, t.z, d->where.file, d->where.line);
  }
  /* Host code of a checked program, or a launch with memcheck turned off
   * by CUEMU_CHECK: said once per place (marked, as UBSan's runtime does,
   * in the column of the compiler's record), and the program goes on. A
   * kernel's index was said to be host code's before. */
  if (__atomic_exchange_n(&d->where.column, ~0u, __ATOMIC_RELAXED) == ~0u)
    return;
  if (w && w->in_kernel)
    fprintf(stderr,
            "cuemu: kernel %s: memcheck: out-of-bounds index %lld of an "
            "array of type %s at %s:%u (memcheck is off for this launch "
            "(CUEMU_CHECK): said once, and the kernel goes on)\n",
            w->launch->kernel->name, i, d->array->name, d->where.file,
            d->where.line);
  else
    fprintf(stderr,
            "cuemu: memcheck: out-of-bounds index %lld of an array of type "
            "%s at %s:%u (host code)\n",
            i, d->array->name, d->where.file, d->where.line);
}

void __ubsan_handle_out_of_bounds(void *data, void *index);
void __ubsan_handle_out_of_bounds_abort(void *data, void *index);

void __ubsan_handle_out_of_bounds(void *data, void *index) {
  out_of_bounds(data, (uintptr_t)index);
}

void __ubsan_handle_out_of_bounds_abort(void *data, void *index) {
  out_of_bounds(data, (uintptr_t)index);
}
