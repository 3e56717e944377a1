/*
 * cuemu_handles.h: the device's stream and event handles. A handle is a
 * number, never a pointer: (generation << 32) | (slot << 4) | kind, so that
 * a handle of the wrong kind, one never created, and one destroyed (even
 * when its slot has been reused since) are all told apart from a live one.
 * Slots are reused, so creating and destroying handles in a loop does not
 * grow memory. Internal to libcuemu; host code, any thread.
 */
#ifndef CUEMU_HANDLES_H
#define CUEMU_HANDLES_H

#include <cuemu/cuemu_status.h>

typedef enum cuemu_handle_kind {
  CUEMU_HANDLE_STREAM = 0x3,
  CUEMU_HANDLE_EVENT = 0x5
} cuemu_handle_kind;

/* What a handle holds: a stream's flags, priority and SM partition; an
 * event's flags and the time of its last record; and the device it
 * belongs to, the calling thread's current device at its creation (set by
 * cuemu__handle_create, kept by cuemu__handle_set). */
typedef struct cuemu_handle_state {
  unsigned flags;
  int priority;
  int recorded;
  long long ns;
  int device;
  unsigned sms; /* a stream of a green context: the SMs its launches may
                   use (cuemu_drv_green.c); 0: the whole device */
} cuemu_handle_state;

/* The default streams: 0, cudaStreamLegacy and cudaStreamPerThread. */
int cuemu__handle_is_default_stream(const void *stream);

/* Creates a handle holding *state. Returns OUT_OF_MEMORY. */
cuemu_status cuemu__handle_create(cuemu_handle_kind kind,
                                  const cuemu_handle_state *state,
                                  void **out);

/* Destroys a live handle; 0 when it is not one. */
int cuemu__handle_destroy(cuemu_handle_kind kind, void *handle);

/* Copies a live handle's state into *out (when not NULL); 0 when it is not
 * a live handle of that kind. */
int cuemu__handle_get(cuemu_handle_kind kind, void *handle,
                      cuemu_handle_state *out);

/* Replaces a live handle's state; 0 when it is not one. */
int cuemu__handle_set(cuemu_handle_kind kind, void *handle,
                      const cuemu_handle_state *state);

/* Non-zero for a default stream or a live created one. */
int cuemu__handle_stream_valid(void *stream);

/* Destroys every live stream and event of `device` (cudaDeviceReset). */
void cuemu__handle_destroy_device(int device);

/* The device of a live stream (a default stream: the calling thread's
 * current device), or -1 when it is none. */
int cuemu__handle_stream_device(void *stream);

#endif /* CUEMU_HANDLES_H */
