/*
 * cuemu_limits.c: the device's settable limits (see cuemu_limits.h), with
 * CUDA's defaults on sm_90.
 */
#include "device/cuemu_limits.h"

#include <pthread.h>
#include <unistd.h>

#include "base/cuemu_report.h"
#include "core/cuemu_device_heap.h"
#include "core/cuemu_printf.h"
#include "device/cuemu_device_model.h"

static const size_t defaults[CUEMU_LIMIT_COUNT_] = {
    1024,              /* cudaLimitStackSize: 1 KiB per thread */
    1024 * 1024,       /* cudaLimitPrintfFifoSize: 1 MiB */
    8 * 1024 * 1024,   /* cudaLimitMallocHeapSize: 8 MiB */
    2,                 /* cudaLimitDevRuntimeSyncDepth */
    2048,              /* cudaLimitDevRuntimePendingLaunchCount */
    32,                /* cudaLimitMaxL2FetchGranularity: bytes */
    0,                 /* cudaLimitPersistingL2CacheSize */
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static size_t values[CUEMU_LIMIT_COUNT_];
static int changed[CUEMU_LIMIT_COUNT_];

static size_t value_of(int limit) {
  return changed[limit] ? values[limit] : defaults[limit];
}

cuemu_status cuemu__limit_get(int limit, size_t *value) {
  if (limit < 0 || limit >= CUEMU_LIMIT_COUNT_ || !value)
    return cuemu__report(CUEMU_INVALID_VALUE,
                         "cudaLimit %d is not a limit of this device "
                         "(cudaErrorUnsupportedLimit)",
                         limit);
  pthread_mutex_lock(&lock);
  *value = value_of(limit);
  pthread_mutex_unlock(&lock);
  return CUEMU_SUCCESS;
}

cuemu_status cuemu__limit_set(int limit, size_t value) {
  if (limit < 0 || limit >= CUEMU_LIMIT_COUNT_)
    return cuemu__report(CUEMU_INVALID_VALUE,
                         "cudaLimit %d is not a limit of this device "
                         "(cudaErrorUnsupportedLimit)",
                         limit);
  cuemu_status st = CUEMU_SUCCESS;
  pthread_mutex_lock(&lock);
  if (limit == CUEMU_LIMIT_PRINTF_FIFO_SIZE && cuemu__printf_used())
    st = CUEMU_INVALID_VALUE;
  /* As on a GPU, every thread the device can hold at once gets the stack:
   * a size whose total exceeds the device's memory cannot be had. */
  const cuemu_device_model *m = cuemu__device_model();
  if (limit == CUEMU_LIMIT_STACK_SIZE &&
      value > m->total_memory / ((size_t)m->threads_per_sm * m->sms))
    st = CUEMU_OUT_OF_MEMORY;
  /* As on the GPU, the device heap keeps its size once a kernel used it. */
  if (limit == CUEMU_LIMIT_MALLOC_HEAP_SIZE && cuemu__device_heap_used())
    st = CUEMU_INVALID_VALUE;
  if (limit == CUEMU_LIMIT_PERSISTING_L2_CACHE_SIZE &&
      value > m->persisting_l2_max)
    st = CUEMU_INVALID_VALUE;
  if (st == CUEMU_SUCCESS) {
    /* As the GPU: the stack size in 16-byte units, the L2 granularity one
     * of 0, 32, 64 and 128 (rounded up). */
    if (limit == CUEMU_LIMIT_STACK_SIZE)
      value = (value + 15) / 16 * 16;
    if (limit == CUEMU_LIMIT_MAX_L2_FETCH_GRANULARITY)
      value = value == 0 ? 0 : value <= 32 ? 32 : value <= 64 ? 64 : 128;
    values[limit] = value;
    changed[limit] = 1;
  }
  pthread_mutex_unlock(&lock);
  if (st == CUEMU_OUT_OF_MEMORY)
    return cuemu__report(st, "cudaDeviceSetLimit: a stack of %zu bytes for "
                             "each of the device's %zu resident threads "
                             "exceeds its memory",
                         value, (size_t)m->threads_per_sm * m->sms);
  if (st != CUEMU_SUCCESS && limit == CUEMU_LIMIT_PERSISTING_L2_CACHE_SIZE)
    return cuemu__report(st, "cudaDeviceSetLimit: %zu bytes of persisting "
                             "L2 cache; the device allows %zu",
                         value, m->persisting_l2_max);
  if (st != CUEMU_SUCCESS)
    return cuemu__report(st, "cudaDeviceSetLimit: the %s size cannot change "
                             "after a kernel used %s",
                         limit == CUEMU_LIMIT_MALLOC_HEAP_SIZE ? "malloc heap"
                                                               : "printf FIFO",
                         limit == CUEMU_LIMIT_MALLOC_HEAP_SIZE ? "malloc"
                                                               : "printf");
  return CUEMU_SUCCESS;
}

size_t cuemu__limit_thread_stack(size_t base) {
  size_t limit;
  cuemu__limit_get(CUEMU_LIMIT_STACK_SIZE, &limit);
  if (limit <= defaults[CUEMU_LIMIT_STACK_SIZE])
    return base;
  size_t page = (size_t)sysconf(_SC_PAGESIZE);
  size_t more = limit - defaults[CUEMU_LIMIT_STACK_SIZE];
  return (base + more + page - 1) / page * page;
}

void cuemu__limit_reset(void) {
  pthread_mutex_lock(&lock);
  for (int i = 0; i < CUEMU_LIMIT_COUNT_; ++i)
    changed[i] = 0;
  pthread_mutex_unlock(&lock);
  cuemu__printf_flush_pending();
  cuemu__printf_forget();
}
