/*
 * cuemu_handles.c: stream and event handles (see cuemu_handles.h): one
 * array of slots with a free list, guarded by one mutex.
 */
#include "device/cuemu_handles.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include "base/cuemu_report.h"
#include "device/cuemu_device_model.h"

#define KIND_BITS 4u
#define KIND_MASK 0xfu
#define SLOT_MASK 0x0fffffffu /* 28 bits of slot above the kind */

typedef struct slot {
  cuemu_handle_state state;
  uint32_t generation; /* odd while live */
  cuemu_handle_kind kind;
  uint32_t next_free;  /* 1-based index of the next free slot, 0: none */
} slot;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static slot *slots; /* slots[i - 1] is slot i */
static uint32_t slot_count, slot_capacity, first_free;

int cuemu__handle_is_default_stream(const void *s) {
  return (uintptr_t)s <= 2; /* 0, cudaStreamLegacy, cudaStreamPerThread */
}

static void *handle_of(uint32_t index, const slot *sl) {
  return (void *)(((uintptr_t)sl->generation << 32) |
                  ((uintptr_t)index << KIND_BITS) | (uintptr_t)sl->kind);
}

/* The live slot of `handle`, or NULL. Called with the lock. */
static slot *find(cuemu_handle_kind kind, const void *handle) {
  uintptr_t h = (uintptr_t)handle;
  if ((h & KIND_MASK) != (uintptr_t)kind)
    return NULL;
  uint32_t index = (uint32_t)((h >> KIND_BITS) & SLOT_MASK);
  uint32_t generation = (uint32_t)(h >> 32);
  if (index == 0 || index > slot_count)
    return NULL;
  slot *sl = &slots[index - 1];
  if (sl->generation != generation || !(generation & 1u) || sl->kind != kind)
    return NULL;
  return sl;
}

cuemu_status cuemu__handle_create(cuemu_handle_kind kind,
                                  const cuemu_handle_state *state,
                                  void **out) {
  pthread_mutex_lock(&lock);
  uint32_t index = first_free;
  if (index) {
    first_free = slots[index - 1].next_free;
  } else {
    if (slot_count == slot_capacity) {
      uint32_t n = slot_capacity ? slot_capacity * 2 : 16;
      slot *grown = n <= SLOT_MASK ? realloc(slots, n * sizeof *grown) : NULL;
      if (!grown) {
        pthread_mutex_unlock(&lock);
        return cuemu__report(CUEMU_OUT_OF_MEMORY,
                             "no memory for another stream or event");
      }
      slots = grown;
      slot_capacity = n;
    }
    index = ++slot_count;
    slots[index - 1].generation = 0;
  }
  slot *sl = &slots[index - 1];
  sl->generation++; /* odd: live */
  sl->kind = kind;
  sl->state = *state;
  sl->state.device = cuemu__device_current();
  sl->next_free = 0;
  *out = handle_of(index, sl);
  pthread_mutex_unlock(&lock);
  return CUEMU_SUCCESS;
}

int cuemu__handle_destroy(cuemu_handle_kind kind, void *handle) {
  pthread_mutex_lock(&lock);
  slot *sl = find(kind, handle);
  if (sl) {
    sl->generation++; /* even: free */
    sl->next_free = first_free;
    first_free = (uint32_t)(sl - slots) + 1;
  }
  pthread_mutex_unlock(&lock);
  return sl != NULL;
}

void cuemu__handle_destroy_device(int device) {
  pthread_mutex_lock(&lock);
  for (uint32_t i = 0; i < slot_count; ++i) {
    slot *sl = &slots[i];
    if ((sl->generation & 1u) && sl->state.device == device) {
      sl->generation++; /* even: free */
      sl->next_free = first_free;
      first_free = i + 1;
    }
  }
  pthread_mutex_unlock(&lock);
}

int cuemu__handle_get(cuemu_handle_kind kind, void *handle,
                      cuemu_handle_state *out) {
  pthread_mutex_lock(&lock);
  slot *sl = find(kind, handle);
  if (sl && out)
    *out = sl->state;
  pthread_mutex_unlock(&lock);
  return sl != NULL;
}

int cuemu__handle_set(cuemu_handle_kind kind, void *handle,
                      const cuemu_handle_state *state) {
  pthread_mutex_lock(&lock);
  slot *sl = find(kind, handle);
  if (sl) {
    int device = sl->state.device;
    sl->state = *state;
    sl->state.device = device;
  }
  pthread_mutex_unlock(&lock);
  return sl != NULL;
}

int cuemu__handle_stream_valid(void *stream) {
  return cuemu__handle_is_default_stream(stream) ||
         cuemu__handle_get(CUEMU_HANDLE_STREAM, stream, NULL);
}

int cuemu__handle_stream_device(void *stream) {
  if (cuemu__handle_is_default_stream(stream))
    return cuemu__device_current();
  cuemu_handle_state state;
  return cuemu__handle_get(CUEMU_HANDLE_STREAM, stream, &state) ? state.device
                                                                 : -1;
}
