/*
 * cuemu_address_space.c: cuemu_address_space(), the state space of a
 * generic address as the running kernel thread sees it: registered
 * __constant__ variables are constant (cuemu_constant_space.c); its own
 * stack is local, but for its copies of __grid_constant__ parameters; the
 * block's dynamic shared buffer and the static __shared__ variables (thread-local objects of the worker, since the shims make
 * __shared__ `static thread_local`) are shared; anything else is global.
 */
#include <link.h>
#include <pthread.h>
#include <stdint.h>

#include <cuemu/cuemu_address_space.h>

#include "core/cuemu_constant_space.h"
#include "core/cuemu_worker.h"

static int inside(const void *p, const void *base, size_t size) {
  uintptr_t a = (uintptr_t)p, b = (uintptr_t)base;
  return base && a >= b && a - b < size;
}

void cuemu__kernel_stack(cuemu_worker *w, uintptr_t *base, size_t *size) {
  const cuemu_stack *s = w->current ? w->current->stack : w->runner_stack;
  if (s) {
    *base = (uintptr_t)s->base;
    *size = s->size;
    return;
  }
  /* The OS thread's stack, found once per thread: pthread_getattr_np()
   * reads /proc/self/maps for the main thread. */
  static __thread uintptr_t os_base;
  static __thread size_t os_size;
  if (!os_size) {
    pthread_attr_t attr;
    void *b = NULL;
    size_t n = 0;
    if (pthread_getattr_np(pthread_self(), &attr) == 0) {
      pthread_attr_getstack(&attr, &b, &n);
      pthread_attr_destroy(&attr);
    }
    os_base = (uintptr_t)b;
    os_size = n;
  }
  *base = os_base;
  *size = os_size;
}

int cuemu__kernel_stack_holds(cuemu_worker *w, const void *p) {
  uintptr_t base;
  size_t size;
  cuemu__kernel_stack(w, &base, &size);
  return inside(p, (const void *)base, size);
}

/* dl_iterate_phdr's callback: stops (returns 1) when the address in
 * *data lies in the calling thread's TLS block of a module. */
static int in_tls_block(struct dl_phdr_info *info, size_t size, void *data) {
  (void)size;
  if (!info->dlpi_tls_data)
    return 0;
  for (int i = 0; i < info->dlpi_phnum; ++i)
    if (info->dlpi_phdr[i].p_type == PT_TLS)
      return inside(data, info->dlpi_tls_data, info->dlpi_phdr[i].p_memsz);
  return 0;
}

int cuemu_address_space(const void *p) {
  if (!p)
    return CUEMU_SPACE_NONE;
  cuemu_worker *w = cuemu__worker_self;
  if (cuemu__constant_space_holds(p))
    return CUEMU_SPACE_CONSTANT;
  if (!w || !w->in_kernel)
    return CUEMU_SPACE_GLOBAL;
  if (cuemu__kernel_stack_holds(w, p))
    return cuemu__grid_constant_holds(w, p) ? CUEMU_SPACE_GRID_CONSTANT
                                            : CUEMU_SPACE_LOCAL;
  return cuemu__block_shared_holds(w, p) ? CUEMU_SPACE_SHARED
                                         : CUEMU_SPACE_GLOBAL;
}

int cuemu__block_shared_holds(cuemu_worker *w, const void *p) {
  /* The buffer kernel code sees (a checked launch's has redzones). */
  return inside(p, cuemu_dynamic_shared, w->launch->dynamic_shared) ||
         dl_iterate_phdr(in_tls_block, (void *)p);
}
