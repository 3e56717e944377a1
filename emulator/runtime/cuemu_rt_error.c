/*
 * cuemu_rt_error.c: the last error of each host thread and the sticky
 * execution error of the runtime API (see cuemu_runtime.h).
 */
#include <stdatomic.h>

#include <cuemu/cuemu_runtime.h>

static __thread int last_error;
static atomic_int sticky_error;

int cuemu_rt_error(int code) {
  if (code != 0)
    last_error = code;
  return code;
}

int cuemu_rt_sticky(void) { return atomic_load(&sticky_error); }
