/*
 * cuemu_rt_stream_queue.h: streams that run their work asynchronously to
 * the host thread that issues it (docs/streams.md). Each stream with work
 * pending has a queue and an execution thread that runs the queue's items
 * in order; the legacy default stream's items wait for the work issued
 * before them to every blocking stream of the device, and a blocking
 * stream's for the legacy stream's, as CUDA orders them. The host's
 * synchronisation calls wait for the queues, and report a wait that nothing
 * left could ever satisfy instead of hanging.
 *
 * CUEMU_STREAMS=sync (and cuemu-gdb, and kernel code, and the execution
 * threads themselves) runs every operation when it is issued, as libcuemu
 * did before: cuemu__stream_inline() says which applies. Internal to
 * libcuemu; host code, any thread.
 */
#ifndef CUEMU_RT_STREAM_QUEUE_H
#define CUEMU_RT_STREAM_QUEUE_H

struct cuemu_rt_graph_node_params;

/* Non-zero when work the calling thread issues runs when issued:
 * CUEMU_STREAMS=sync, kernel code, or an execution thread running an
 * item. */
int cuemu__stream_inline(void);

/* Appends one node of work (a kernel, a copy, a memset, a host function,
 * stream memory operations) to `stream`'s queue; its parameters are
 * checked and copied as cudaGraphAddNode's. Returns the CUDA code of the
 * call (recorded on failure). Only when !cuemu__stream_inline(). */
int cuemu__stream_defer_node(void *stream,
                             const struct cuemu_rt_graph_node_params *params);

/* A launch into a stream: checked as cuemu__device_launch() would (a
 * failure is the call's CUDA code, recorded), then appended as a kernel
 * node with a copy of its arguments; returns cudaSuccess then.
 * CUEMU__RT_NOT_CAPTURED: run it now (when cuemu__stream_inline(), or for
 * a kernel whose arguments cannot be copied, after the stream's work
 * before it). */
struct cuemu_launch_request;
int cuemu__stream_defer_launch(const struct cuemu_launch_request *r);
/* The same for a launch that cuemu__device_check_launch() has accepted
 * already: it is not checked again (issue 19, the cost of a launch). */
int cuemu__stream_defer_checked_launch(const struct cuemu_launch_request *r);

/* Appends a call of call(arg, stream) (which owns arg), run in the
 * stream's order; its CUDA code is the item's error. */
int cuemu__stream_defer_call(void *stream, int (*call)(void *arg, void *stream),
                             void *arg);

/* As cuemu__stream_defer_call, after the pending record of `key` (any
 * address that names what is ordered), and the call becomes key's pending
 * record: one step, so that calls deferred with one key run one after the
 * other in the order they were issued, from any host thread. */
int cuemu__stream_defer_call_after(void *stream,
                                   int (*call)(void *arg, void *stream),
                                   void *arg, void *key);

/* As cuemu__stream_defer_call_after, and the call is also the pending
 * record of each of `events` (a graph launch's record nodes), noted in
 * the same step: before the call can run, and before another host
 * thread's item is issued. `tickets` (NULL, or one per event) are the
 * records' tickets of interprocess events (cuemu_rt_ipc_event.h), which
 * cuemu__stream_running_ticket gives while the call runs. */
int cuemu__stream_defer_call_recording(void *stream,
                                       int (*call)(void *arg, void *stream),
                                       void *arg, void *key,
                                       void *const *events, size_t nevents,
                                       const unsigned long long *tickets);

/* On an execution thread, the interprocess ticket of the running item's
 * record of `event` (a graph launch's record node); else 0. */
unsigned long long cuemu__stream_running_ticket(void *event);

/* Whether a record of `event` made now is the event's most recent one:
 * on an execution thread, whether no record of it was issued after the
 * item running (a record issued earlier into another stream may end after
 * a later one, and does not replace it: CUDA's event is its most recent
 * record); elsewhere, 1. */
int cuemu__stream_record_is_latest(void *event);

/* Appends the record of `event` (its time is taken when it runs), with
 * its interprocess ticket (0 for none; cuemu_rt_ipc_event.h). */
int cuemu__stream_defer_record(void *event, void *stream,
                               unsigned long long ticket);

/* Appends a wait for the work `event` captured at its last record (none
 * when it has none pending: an event never recorded is complete). */
int cuemu__stream_defer_wait_event(void *stream, void *event);
/* cuCtxRecordEvent: a record of `event` in `stream` (the device's private
 * stream) that completes when the work issued so far to every stream of
 * `device` is done. A CUDA code. */
int cuemu__stream_defer_record_device(void *event, void *stream, int device);
/* cuCtxWaitEvent: the work issued to any stream of `device` from now on
 * waits for the event's last record (not on the host); 0, or
 * cudaErrorMemoryAllocation when too many waits are pending (the caller
 * then waits on the host). Sets no error. */
int cuemu__stream_device_wait_event(int device, void *event);

/* Waits until the work issued so far to `stream` is done (for the legacy
 * default stream, that of every blocking stream too); cuemu__stream_drain_all
 * waits for every stream of the calling thread's device. Both return the
 * first error an item of those streams ended with since the last wait
 * (recorded), or 0; nothing when cuemu__stream_inline(). */
int cuemu__stream_drain(void *stream);
int cuemu__stream_drain_all(void);
/* cuemu__stream_drain_all() for the streams of `device`. */
int cuemu__stream_drain_device(int device);
/* cuemu__stream_drain_all() that leaves the errors for the next wait: for
 * a call that must not change what pending work uses (an executable
 * graph's update or destruction). */
void cuemu__stream_wait_all(void);
/* cuemu__stream_wait_all() for every device: before an object that queued
 * work may use goes away (an external semaphore, a mapped buffer). */
void cuemu__stream_wait_every_device(void);
/* cuemu__stream_wait_all() for the streams of `device`. */
void cuemu__stream_wait_device(int device);

/* cudaStreamQuery: 1 when work issued to `stream` is still pending. */
int cuemu__stream_busy(void *stream);

/* For cudaEventQuery (wait 0: 1 when the event's last record is still
 * pending) and cudaEventSynchronize (wait 1: waits for it; returns 0 or
 * an error as cuemu__stream_drain). On an execution thread, wait 1 waits
 * for a record pending on another stream (a graph's event wait node). */
int cuemu__stream_event_wait(void *event, int wait);

/* cudaEventDestroy: the event's pending record is forgotten (the record
 * itself still runs, and does nothing). */
void cuemu__stream_forget_event(void *event);

/* cudaStreamDestroy: the queue's execution thread ends after its last
 * item. */
void cuemu__stream_forget(void *stream);

/* cudaDeviceReset: every queue of `device` ends (after
 * cuemu__stream_drain_all()). */
void cuemu__stream_reset(int device);

/* For a wait that runs on an execution thread (a stream memory
 * operation): marks the item as waiting for memory (1) or running again
 * (0); cuemu__stream_wait_abandoned() is non-zero once the host found that
 * nothing left can satisfy it, and the wait should fail. */
void cuemu__stream_waiting_for_memory(int waiting);
int cuemu__stream_wait_abandoned(void);

/* Non-zero on an execution thread running an item. */
int cuemu__stream_executing(void);

/* Whether the calling thread is cuemu's own (a kernel's, a stream's
 * execution thread, or one named "cuemu-..."), not the program's.
 * Async-signal-safe. */
int cuemu__stream_internal_thread(void);

/* The number of the process's threads that are not libcuemu's own
 * (execution threads and workers, named "cuemu-..."). */
int cuemu__stream_host_threads(void);

/* Names the calling thread (pthread_setname_np) as one of libcuemu's. */
void cuemu__stream_name_thread(const char *name);

#endif /* CUEMU_RT_STREAM_QUEUE_H */
