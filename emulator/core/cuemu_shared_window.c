/*
 * cuemu_shared_window.c: the shared state space's own addresses, for the
 * inline PTX of CUB and libcu++ and __cvta_generic_to_shared(), and the
 * dynamic shared-memory size of the running launch (%dynamic_smem_size)
 * and its whole shared-memory size (%total_smem_size, %aggr_smem_size),
 * and __isShared(): whether an address is in the block's shared memory.
 *
 * On a GPU a shared-memory address (as `cvta.to.shared` and
 * __cvta_generic_to_shared() make it) is an offset in the block's shared
 * window, small enough for 32 bits, and libcu++ passes it through a 32-bit
 * register. Here a block's shared memory is ordinary memory of the worker
 * (thread-local static __shared__ variables, a heap buffer for the dynamic
 * part), anywhere in the 64-bit address space. So each worker keeps a small
 * table of windows: a window maps 256 MiB of generic addresses starting at
 * a 128 MiB boundary, and a shared address is the window's number times
 * 256 MiB plus the offset in it. An object starts in the first half of its
 * window, so arithmetic on its shared address (up to 128 MiB past its
 * start, far more than a block's shared memory) stays in the window.
 * A window starts 1 MiB below its 128 MiB boundary (or at 0), so shared
 * address 0 is made only for a null pointer. Shared addresses are below
 * 2^32 whatever the generic ones are (a non-PIE program's heap and main
 * thread's TLS lie below 4 GiB too).
 */
#include <stdint.h>
#include <stdlib.h>

#include <cuemu/cuemu_device.h>

#include "core/cuemu_worker.h"
#include "device/cuemu_device_model.h"
#include "device/cuemu_functions.h"

#define WINDOW_BITS 28u                 /* 256 MiB per window */
#define WINDOW_COUNT 16u                /* 16 windows: 4 GiB */
#define ALIGN_MASK ((1ULL << 27) - 1)   /* windows start at 128 MiB steps */

/* A worker thread's windows. On the heap: libcuemu's thread-local
 * variables live in the static TLS block, which is small in a process
 * that loads libcuemu with dlopen (Python). */
typedef struct shared_state {
  uintptr_t windows[WINDOW_COUNT];
  unsigned window_count;
} shared_state;

static __thread shared_state *state;

/* The calling thread's state; NULL when there is no memory for it. */
static shared_state *self(void) {
  if (!state)
    state = calloc(1, sizeof *state);
  return state;
}

unsigned cuemu_shared_address(const void *generic) {
  shared_state *st = self();
  if (!st)
    cuemu_kernel_assert_fail("no memory for the shared-memory windows",
                             "cuemu_shared_window.c", __LINE__,
                             "cuemu_shared_address");
  uintptr_t *windows = st->windows;
  unsigned window_count = st->window_count;
  uintptr_t p = (uintptr_t)generic;
  uintptr_t base = p & ~(uintptr_t)ALIGN_MASK;
  base = base >= (1ULL << 20) ? base - (1ULL << 20) : 0;
  for (unsigned k = 0; k < window_count; ++k)
    if (p >= windows[k] && p - windows[k] < (1ULL << 27) + (1ULL << 20))
      return (k << WINDOW_BITS) | (unsigned)(p - windows[k]);
  if (window_count == WINDOW_COUNT) {
    cuemu_kernel_assert_fail(
        "more than 16 distinct 128 MiB regions of shared memory converted to "
        "shared addresses (__cvta_generic_to_shared, cvta.to.shared) by one "
        "worker thread",
        "cuemu_shared_window.c", __LINE__, "cuemu_shared_address");
  }
  windows[window_count] = base;
  st->window_count = window_count + 1;
  return (window_count << WINDOW_BITS) | (unsigned)(p - base);
}

void *cuemu_shared_generic(unsigned long long shared) {
  unsigned k = (unsigned)(shared >> WINDOW_BITS);
  const shared_state *st = state;
  if (shared >> 32 || !st || k >= st->window_count)
    cuemu_kernel_assert_fail(
        "a shared-memory address that no __cvta_generic_to_shared() or "
        "cvta.to.shared of this block made",
        "cuemu_shared_window.c", __LINE__, "cuemu_shared_generic");
  return (void *)(st->windows[k] + (shared & ((1ULL << WINDOW_BITS) - 1)));
}

size_t cuemu_dynamic_shared_size(void) {
  cuemu_worker *w = cuemu__worker_self;
  return w && w->in_kernel ? w->launch->dynamic_shared : 0;
}

size_t cuemu_kernel_shared_size(int aggregate) {
  cuemu_worker *w = cuemu__worker_self;
  if (!w || !w->launch)
    return 0;
  const void *function =
      cuemu__function_identity(w->launch->kernel, w->launch->args);
  cuemu_kernel_attributes a;
  cuemu__function_attributes(function, w->launch->kernel, &a);
  /* In allocation units of 128 bytes, as sm_9x allocates. */
  size_t total = (a.static_shared_bytes + w->launch->dynamic_shared + 127) & ~(size_t)127;
  return aggregate ? total + cuemu__device_model()->reserved_shared_per_block : total;
}
