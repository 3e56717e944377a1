/*
 * cuemu_rt_sync.c: what happens where CUDA's host waits for the device
 * (see cuemu__rt_sync_point in cuemu_rt_internal.h): the kernels' printf
 * output waiting in the FIFO is written, and the memory pools give back
 * what they hold beyond their release thresholds.
 */
#include <cuemu/cuemu_runtime_host.h>

#include "core/cuemu_printf.h"
#include "runtime/cuemu_rt_internal.h"
#include "runtime/cuemu_rt_managed_guard.h"

void cuemu__rt_sync_point(void) {
  cuemu__managed_guard_sync();
  cuemu__printf_flush_pending();
  cuemu_rt_mem_pools_release();
}
