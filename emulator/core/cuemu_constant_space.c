/*
 * cuemu_constant_space.c: the two state spaces that are ordinary memory
 * here but that __isConstant and __isGridConstant tell apart on the GPU
 * (see cuemu_address_space.h):
 *
 * - `__constant__` variables, whose address ranges the code cuemu-cc
 *   generates registers at load (CUEMU_CONSTANT_NOTE);
 * - `__grid_constant__` kernel parameters, whose copies lie in each
 *   thread's stack: each kernel thread tells where its copy is
 *   (CUEMU_GRID_CONSTANT_NOTE), and the distance from the top of the
 *   thread's stack is kept per kernel (one frame layout serves every
 *   thread of a kernel, so the table stays small).
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

#include <cuemu/cuemu_address_space.h>

#include "core/cuemu_constant_space.h"
#include "core/cuemu_stack.h"
#include "core/cuemu_worker.h"

/* ---- __constant__ variables ----------------------------------------------- */

typedef struct range {
  uintptr_t lo, hi;
} range;

static pthread_mutex_t constants_lock = PTHREAD_MUTEX_INITIALIZER;
static range *constants;
static size_t nconstants, constants_capacity;

int cuemu_constant_register(const void *p, size_t size) {
  pthread_mutex_lock(&constants_lock);
  if (nconstants == constants_capacity) {
    size_t cap = constants_capacity ? 2 * constants_capacity : 64;
    range *grown = realloc(constants, cap * sizeof *grown);
    if (!grown) {
      pthread_mutex_unlock(&constants_lock);
      return 0;
    }
    constants = grown;
    constants_capacity = cap;
  }
  constants[nconstants].lo = (uintptr_t)p;
  constants[nconstants].hi = (uintptr_t)p + size;
  nconstants++;
  pthread_mutex_unlock(&constants_lock);
  return 1;
}

int cuemu__constant_space_holds(const void *p) {
  uintptr_t a = (uintptr_t)p;
  int found = 0;
  pthread_mutex_lock(&constants_lock);
  for (size_t i = 0; i < nconstants && !found; ++i)
    found = a >= constants[i].lo && a < constants[i].hi;
  pthread_mutex_unlock(&constants_lock);
  return found;
}

/* ---- __grid_constant__ parameters ----------------------------------------- */

#define MAX_GRID_CONSTANTS 256

typedef struct grid_constant {
  const void *kernel;   /* the launch's kernel descriptor */
  size_t depth, size;   /* from the top of the thread's stack down */
} grid_constant;

static pthread_mutex_t grid_lock = PTHREAD_MUTEX_INITIALIZER;
static grid_constant grid_constants[MAX_GRID_CONSTANTS];
static atomic_size_t ngrid;

/* The top of the calling kernel thread's stack. */
static uintptr_t stack_top(cuemu_worker *w) {
  uintptr_t base;
  size_t size;
  cuemu__kernel_stack(w, &base, &size);
  return base + size;
}

static int known(const void *kernel, size_t depth, size_t size) {
  size_t n = atomic_load_explicit(&ngrid, memory_order_acquire);
  for (size_t i = 0; i < n; ++i)
    if (grid_constants[i].kernel == kernel &&
        grid_constants[i].depth == depth && grid_constants[i].size == size)
      return 1;
  return 0;
}

void cuemu_grid_constant_note(const void *p, size_t size) {
  cuemu_worker *w = cuemu__worker_self;
  if (!w || !w->in_kernel)
    return;
  uintptr_t top = stack_top(w);
  if ((uintptr_t)p >= top)
    return;
  size_t depth = top - (uintptr_t)p;
  const void *kernel = w->launch->kernel;
  if (known(kernel, depth, size))
    return;
  pthread_mutex_lock(&grid_lock);
  size_t n = atomic_load(&ngrid);
  if (!known(kernel, depth, size) && n < MAX_GRID_CONSTANTS) {
    grid_constants[n] = (grid_constant){kernel, depth, size};
    atomic_store_explicit(&ngrid, n + 1, memory_order_release);
  }
  pthread_mutex_unlock(&grid_lock);
}

int cuemu__grid_constant_holds(cuemu_worker *w, const void *p) {
  uintptr_t top = stack_top(w), a = (uintptr_t)p;
  if (a >= top)
    return 0;
  size_t depth = top - a;
  const void *kernel = w->launch->kernel;
  size_t n = atomic_load_explicit(&ngrid, memory_order_acquire);
  for (size_t i = 0; i < n; ++i) {
    const grid_constant *g = &grid_constants[i];
    if (g->kernel == kernel && depth <= g->depth && g->depth - depth < g->size)
      return 1;
  }
  return 0;
}
