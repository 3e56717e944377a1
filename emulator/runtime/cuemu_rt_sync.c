/*
 * cuemu_rt_sync.c: what happens where CUDA's host waits for the device
 * (see cuemu__rt_sync_point in cuemu_rt_internal.h): the kernels' printf
 * output waiting in the FIFO is written, the memory pools give back
 * what they hold beyond their release thresholds, and the pinned memory
 * of the copies that have run is the host's again for racecheck
 * (cuemu_rt_pinned_guard.c).
 */
#include <cuemu/cuemu_runtime_host.h>

#include "core/cuemu_printf.h"
#include "runtime/cuemu_rt_internal.h"
#include "runtime/cuemu_rt_managed_guard.h"
#include "runtime/cuemu_rt_pinned_guard.h"
#include "runtime/cuemu_rt_stream_queue.h"

void cuemu__rt_sync_point(void) {
  cuemu__managed_guard_sync();
  /* Not for a copy that a stream's execution thread runs. */
  if (!cuemu__stream_executing())
    cuemu__pinned_guard_sync();
  cuemu__printf_flush_pending();
  cuemu_rt_mem_pools_release();
}
