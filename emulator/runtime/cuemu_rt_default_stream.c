/*
 * cuemu_rt_default_stream.c: the switch that makes stream 0 the calling
 * host thread's default stream (see cuemu_rt_default_stream.h and
 * docs/streams.md). It is process-wide: nvcc's option picks the API's
 * per-thread entry points for each translation unit, and a program mixes
 * both only rarely.
 */
#include <stdint.h>

#include <cuemu/cuemu_runtime_streams.h>

#include "runtime/cuemu_rt_default_stream.h"

static int per_thread;

void cuemu_rt_default_stream_per_thread(void) {
  __atomic_store_n(&per_thread, 1, __ATOMIC_RELAXED);
}

void *cuemu__stream_resolve(void *stream) {
  if (stream == NULL && __atomic_load_n(&per_thread, __ATOMIC_RELAXED))
    return (void *)(uintptr_t)2; /* cudaStreamPerThread */
  return stream;
}
