/*
 * cuemu_rt_pool_deps.h: what the pools' reuse policy
 * cudaMemPoolReuseFollowEventDependencies needs to know: which stream has
 * waited (cudaStreamWaitEvent) for an event recorded on which other
 * stream, after which stream-ordered free. Frees are numbered in the order
 * they are issued; an event remembers the number of the latest free at its
 * record. Streams are passed as cuemu__pool_deps_stream gives them.
 * Internal to libcuemu; host code, any thread.
 */
#ifndef CUEMU_RT_POOL_DEPS_H
#define CUEMU_RT_POOL_DEPS_H

/* The identity of a stream for the pools: cudaStreamLegacy is stream 0,
 * and cudaStreamPerThread is a stream of each host thread of its own. */
void *cuemu__pool_deps_stream(void *stream);

/* The number of a new stream-ordered free (1, 2, ...). */
unsigned long long cuemu__pool_deps_free(void);

/* cudaEventRecord(event, stream) and cudaStreamWaitEvent(stream, event)
 * were issued. */
void cuemu__pool_deps_record(void *event, void *stream);
void cuemu__pool_deps_wait(void *stream, void *event);

/* Non-zero when `stream` has waited for an event recorded on `freed_on`
 * after the free numbered `seq` (a stream always follows itself). */
int cuemu__pool_deps_follows(void *stream, void *freed_on,
                             unsigned long long seq);

/* Forgets a destroyed event or stream. */
void cuemu__pool_deps_forget(void *handle);

/* Forgets everything (cudaDeviceReset). */
void cuemu__pool_deps_reset(void);

#endif /* CUEMU_RT_POOL_DEPS_H */
