/*
 * cuemu_grid_context.c: what the device layer keeps per grid, reached from
 * the kernel threads of that grid (see cuemu_core.h).
 */
#include "core/cuemu_core.h"

#include "core/cuemu_worker.h"

void *cuemu__core_grid_context(void) {
  cuemu_worker *w = cuemu__worker_self;
  return w && w->launch ? w->launch->grid_context : NULL;
}

int cuemu__core_replaying(void) {
  cuemu_worker *w = cuemu__worker_self;
  return w && w->launch && w->launch->replaying;
}
