/*
 * cuemu_kernel_misuse.c: ending a block for the misuse of a device-side API
 * that the shims detect (see cuemu_device_runtime.h).
 */
#include <cuemu/cuemu_device_runtime.h>

#include "core/cuemu_worker.h"

void cuemu_device_misuse(int status, const char *what, const char *file,
                         int line) {
  cuemu_worker *w = cuemu__worker_self;
  cuemu_uint3 t = cuemu__worker_thread_idx(w);
  cuemu__block_fail(w, (cuemu_status)status,
                    "kernel %s: %s, in thread (%u,%u,%u) of block (%u,%u,%u) "
                    "at %s:%d",
                    w->launch->kernel->name, what, t.x, t.y, t.z,
                    w->block_idx.x, w->block_idx.y, w->block_idx.z, file, line);
}
