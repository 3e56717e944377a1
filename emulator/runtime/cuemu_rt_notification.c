/*
 * cuemu_rt_notification.c: cudaDeviceRegisterAsyncNotification and
 * cuDeviceRegisterAsyncNotification. CUDA 13's one notification says that
 * the process went over its device memory budget (on a GPU that the
 * system shares out, such as a Tegra's or under Windows' WDDM): the
 * emulated devices' memory is the host's, with no budget, so a callback is
 * kept until it is unregistered and never called.
 */
#include <pthread.h>
#include <stdlib.h>

#include <cuemu/cuemu_runtime.h>

#include "device/cuemu_device_model.h"

enum { OK = 0, INVALID_VALUE = 1, OUT_OF_MEMORY = 2, INVALID_DEVICE = 101 };

typedef struct registration {
  struct registration *next;
  int device;
  void *callback, *data;
} registration;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static registration *registered;

int cuemu_rt_device_register_async_notification(int device, void *callback,
                                                void *data, void **handle) {
  if (device < 0 || device >= cuemu__device_count())
    return INVALID_DEVICE;
  if (!callback || !handle)
    return INVALID_VALUE;
  registration *r = malloc(sizeof *r);
  if (!r)
    return OUT_OF_MEMORY;
  r->device = device;
  r->callback = callback;
  r->data = data;
  pthread_mutex_lock(&lock);
  r->next = registered;
  registered = r;
  pthread_mutex_unlock(&lock);
  *handle = r;
  return OK;
}

int cuemu_rt_device_unregister_async_notification(int device, void *handle) {
  if (device < 0 || device >= cuemu__device_count())
    return INVALID_DEVICE;
  pthread_mutex_lock(&lock);
  registration **at = &registered;
  while (*at && (*at != handle || (*at)->device != device))
    at = &(*at)->next;
  registration *found = *at;
  if (found)
    *at = found->next;
  pthread_mutex_unlock(&lock);
  free(found);
  return found ? OK : INVALID_VALUE;
}
