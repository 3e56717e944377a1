/*
 * cuemu_rt_ipc_event.h: the shared state of interprocess events
 * (cudaEventInterprocess), which orders work across processes as CUDA's
 * IPC events do (docs/driver-api.md, IPC).
 */
#ifndef CUEMU_RT_IPC_EVENT_H
#define CUEMU_RT_IPC_EVENT_H

#include <stdint.h>

/* cudaEventCreate with cudaEventInterprocess: gives the event its shared
 * words, in an anonymous file of its own. 0 or a CUDA code. */
int cuemu__ipc_event_create(void *event);

/* cudaIpcOpenEventHandle's event: an interprocess event without shared
 * words of its own (cuemu_rt_event.c). A CUDA code. */
int cuemu__rt_event_create_opened(void **event);

/* cudaIpcOpenEventHandle: gives `event` the shared words of the exporter's
 * event, which (pid, fd) names and whose words carry `identity`. 0 or a
 * CUDA code (cudaErrorMapBufferObjectFailed when that event is gone). */
int cuemu__ipc_event_open(void *event, uint32_t pid, int32_t fd,
                          uint64_t identity);

/* What a handle of the event names: the exporter's process, its
 * descriptor of the event's file and the file's identity (an opened
 * event's, the handle it was opened from); 0 for an event without shared
 * words. */
int cuemu__ipc_event_name(void *event, uint32_t *pid, int32_t *fd,
                          uint64_t *identity);

/* cudaEventDestroy: forgets the event's shared words. */
void cuemu__ipc_event_destroy(void *event);

/* A record of the event is issued (cudaEventRecord, a graph's launch):
 * its ticket, which becomes the event's most recent record in every
 * process; 0 for an event without shared words. And a record has run
 * (its stamp), with its ticket (0: issued now). */
unsigned long long cuemu__ipc_event_issue(void *event);
void cuemu__ipc_event_complete(void *event, unsigned long long ticket);

/* Whether the event has shared words. */
int cuemu__ipc_event_shared(void *event);

/* cudaEventQuery: 1 while the event's most recent record, issued in any
 * process, has not run. */
int cuemu__ipc_event_pending(void *event);

/* cudaEventSynchronize: waits on the host for the most recent record,
 * issued in any process. 0 or a CUDA code. */
int cuemu__ipc_event_synchronize(void *event);

/* cudaStreamWaitEvent: the stream's later work waits for the most recent
 * record issued so far in any process (queued on an asynchronous stream,
 * else waited for at once). 0 or a CUDA code. */
int cuemu__ipc_event_stream_wait(void *event, void *stream);

#endif /* CUEMU_RT_IPC_EVENT_H */
