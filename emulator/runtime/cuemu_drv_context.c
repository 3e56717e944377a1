/*
 * cuemu_drv_context.c: the driver API's initialisation, devices and
 * contexts (see cuemu_driver_api.h). A context is a device, its flags and
 * a retain count; each host thread has a stack of current contexts, and
 * making a context current selects its device for the thread
 * (device/cuemu_device_model.h), so that the runtime API and the driver
 * API agree on the device.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuemu/cuemu_driver_api.h>
#include <cuemu/cuemu_driver_errors.h>
#include <cuemu/cuemu_host_ids.h>
#include <cuemu/cuemu_runtime.h>
#include <cuemu/cuemu_runtime_peer.h>

#include "base/cuemu_config.h"
#include "device/cuemu_device_model.h"
#include "runtime/cuemu_drv_internal.h"
#include "runtime/cuemu_rt_internal.h"

/* Driver codes by name (cuemu_driver_errors.h defines no enumerators). */
enum {
#define CUEMU_DRV_ENUM_(name, value, text) DRV_##name = value,
  CUEMU_DRIVER_ERROR_MAP(CUEMU_DRV_ENUM_)
#undef CUEMU_DRV_ENUM_
};

/* The most contexts one thread may have pushed. */
#define STACK_DEPTH 32
/* CU_CTX_FLAGS_MASK and CU_CTX_SCHED_MASK of cuda.h. */
#define CTX_FLAGS_MASK 0xffu
#define CTX_SCHED_MASK 0x07u

struct cuemu_drv_context {
  int device;
  unsigned flags;
  int primary;  /* the device's primary context */
  int retained; /* a primary context: its retain count */
  int live;     /* 0 once destroyed (the memory is never reused) */
  int runtime_ref; /* a primary context: the runtime API retains it */
  int attached;    /* cuCtxAttach's usage count beyond its creation's */
  unsigned long long id; /* cuCtxGetId: unique in the process */
};

/* The next context identifier (cuCtxGetId); primary contexts take theirs
 * when cuInit first sets them up. */
static unsigned long long next_id = 1;

static int initialised;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static cuemu_drv_context primary[CUEMU_MAX_DEVICES];

static __thread cuemu_drv_context *stack[STACK_DEPTH];
static __thread int depth;

int cuemu__drv_initialised(void) {
  return __atomic_load_n(&initialised, __ATOMIC_ACQUIRE);
}

static int valid_device(int device) {
  return device >= 0 && device < cuemu__device_count();
}

/* A live context: one of the primaries (active or not: CUDA lets a
 * released primary context stay current) or a created one. */
static int usable(const cuemu_drv_context *c) {
  return c && (c->primary || c->live);
}

cuemu_drv_context *cuemu__drv_current(void) {
  return depth > 0 ? stack[depth - 1] : NULL;
}

/* The allocations made while a created (not primary) context was current,
 * with that context (CU_POINTER_ATTRIBUTE_CONTEXT). An entry is replaced
 * when an allocation at the same address is made again; the others belong
 * to their device's primary context. */
typedef struct owned_allocation {
  const void *base;
  cuemu_drv_context *context;
} owned_allocation;
static owned_allocation *owned;
static size_t owned_count, owned_capacity;

void cuemu__drv_note_allocation(const void *base) {
  cuemu__drv_forget_pointer_attributes(base);
  cuemu_drv_context *c = cuemu__drv_current();
  int created = c && !c->primary;
  pthread_mutex_lock(&lock);
  size_t i;
  for (i = 0; i < owned_count && owned[i].base != base; ++i)
    ;
  if (i < owned_count) {
    if (created)
      owned[i].context = c;
    else
      owned[i] = owned[--owned_count];
  } else if (created) {
    if (owned_count == owned_capacity) {
      size_t cap = owned_capacity ? 2 * owned_capacity : 16;
      owned_allocation *grown = realloc(owned, cap * sizeof *grown);
      if (grown) {
        owned = grown;
        owned_capacity = cap;
      }
    }
    if (owned_count < owned_capacity)
      owned[owned_count++] = (owned_allocation){base, c};
  }
  pthread_mutex_unlock(&lock);
}

void *cuemu__drv_allocation_context(const void *base, int device) {
  cuemu_drv_context *c = NULL;
  pthread_mutex_lock(&lock);
  for (size_t i = 0; i < owned_count && !c; ++i)
    if (owned[i].base == base)
      c = owned[i].context;
  pthread_mutex_unlock(&lock);
  if (!c && valid_device(device))
    c = &primary[device];
  return c;
}

/* Makes the top of the stack the thread's device. */
static void follow_top(void) {
  cuemu_drv_context *c = cuemu__drv_current();
  if (c)
    cuemu__device_select(c->device);
}

/* Calls that describe devices need cuInit only (which the runtime API
 * does for a program that has used it). */
static int check_init(void) {
  if (!cuemu__drv_initialised() && cuemu__rt_used())
    cuemu_drv_init(0);
  return cuemu__drv_initialised() ? DRV_CUDA_SUCCESS
                                  : DRV_CUDA_ERROR_NOT_INITIALIZED;
}

static int push(cuemu_drv_context *c);

/* The calling thread's current context. A runtime call on a thread
 * without one makes the primary context of its device current (CUDA's
 * runtime holds it); a thread that emptied its stack (cuCtxDestroy,
 * cuCtxPopCurrent, cuCtxSetCurrent(NULL)) has none until its next runtime
 * call, as with CUDA. */
static cuemu_drv_context *current_or_runtime(void) {
  cuemu_drv_context *c = cuemu__drv_current();
  /* A thread that made a runtime call, or any thread once the program
   * uses the runtime: cuemu's own threads (a library's host work on a
   * stream worker, which checks its pointers through the driver) make no
   * runtime call of their own. */
  int called = cuemu__rt_thread_called_take();
  if (c || (!called && !cuemu__rt_used()))
    return c;
  c = &primary[cuemu__device_current()];
  cuemu__drv_runtime_holds_primary(c->device);
  push(c);
  return c;
}

int cuemu_drv_check_context(void) {
  int e = check_init();
  if (e)
    return e;
  cuemu_drv_context *c = current_or_runtime();
  /* A context destroyed while current to this thread stays current. */
  if (c && !usable(c))
    return DRV_CUDA_ERROR_CONTEXT_IS_DESTROYED;
  if (!c)
    return DRV_CUDA_ERROR_INVALID_CONTEXT;
  return DRV_CUDA_SUCCESS;
}

int cuemu__drv_known(int code) {
  switch (code) {
#define CUEMU_DRV_CASE_(name, value, text) case value:
    CUEMU_DRIVER_ERROR_MAP(CUEMU_DRV_CASE_)
#undef CUEMU_DRV_CASE_
    return 1;
  }
  return 0;
}

int cuemu_drv_enter(void) {
  cuemu__rt_driver_enter();
  return cuemu_rt_peek_last_error();
}

int cuemu_drv_result(int runtime_error, int saved) {
  cuemu__rt_error_restore(saved);
  /* The driver and the runtime share their numbers wherever both have a
   * code; the runtime's own argument errors are the driver's
   * CUDA_ERROR_INVALID_VALUE. */
  if (runtime_error == cudaErrorInvalidDeviceFunction)
    return DRV_CUDA_ERROR_INVALID_HANDLE;
  return cuemu__drv_known(runtime_error) ? runtime_error
                                         : DRV_CUDA_ERROR_INVALID_VALUE;
}

void cuemu__drv_runtime_holds_primary(int device) {
  if (!valid_device(device))
    return;
  cuemu_drv_context *c = &primary[device];
  if (__atomic_load_n(&c->runtime_ref, __ATOMIC_ACQUIRE))
    return;
  pthread_mutex_lock(&lock);
  if (!c->runtime_ref) {
    c->retained++;
    c->live = 1;
    __atomic_store_n(&c->runtime_ref, 1, __ATOMIC_RELEASE);
  }
  pthread_mutex_unlock(&lock);
}

void cuemu__drv_runtime_set_device(int device) {
  if (!cuemu__drv_initialised() || !valid_device(device) || depth == 0 ||
      stack[depth - 1] == &primary[device])
    return;
  cuemu__drv_runtime_holds_primary(device);
  stack[depth - 1] = &primary[device];
  follow_top();
}

void cuemu__drv_init_by_runtime(void) {
  if (!cuemu__drv_initialised())
    (void)cuemu_drv_init(0); /* with no device, the call reports that */
}

int cuemu_drv_init(unsigned flags) {
  if (flags != 0)
    return DRV_CUDA_ERROR_INVALID_VALUE;
  if (cuemu__device_count() < 1)
    return DRV_CUDA_ERROR_NO_DEVICE;
  pthread_mutex_lock(&lock);
  for (int d = 0; d < CUEMU_MAX_DEVICES; ++d) {
    primary[d].device = d;
    primary[d].primary = 1;
    if (!primary[d].id)
      primary[d].id = __atomic_fetch_add(&next_id, 1, __ATOMIC_RELAXED);
  }
  pthread_mutex_unlock(&lock);
  __atomic_store_n(&initialised, 1, __ATOMIC_RELEASE);
  return DRV_CUDA_SUCCESS;
}

int cuemu_drv_driver_get_version(int *version) {
  if (!version)
    return DRV_CUDA_ERROR_INVALID_VALUE;
  *version = CUEMU_DRV_VERSION;
  return DRV_CUDA_SUCCESS;
}

/* The name (which = 0) or the text (which = 1) of a driver code, or NULL
 * for a code CUDA does not have. */
static const char *error_word(int error, int which) {
  switch (error) {
#define CUEMU_DRV_WORD_(name, value, text)                                     \
  case value:                                                                  \
    return which ? text : #name;
    CUEMU_DRIVER_ERROR_MAP(CUEMU_DRV_WORD_)
#undef CUEMU_DRV_WORD_
  }
  return NULL;
}

int cuemu_drv_get_error_name(int error, const char **str) {
  if (!str)
    return DRV_CUDA_ERROR_INVALID_VALUE;
  *str = error_word(error, 0);
  return *str ? DRV_CUDA_SUCCESS : DRV_CUDA_ERROR_INVALID_VALUE;
}

int cuemu_drv_get_error_string(int error, const char **str) {
  if (!str)
    return DRV_CUDA_ERROR_INVALID_VALUE;
  *str = error_word(error, 1);
  return *str ? DRV_CUDA_SUCCESS : DRV_CUDA_ERROR_INVALID_VALUE;
}

/* ---- Devices -------------------------------------------------------------- */

/* The checks of a call about one device: cuInit, an output, the device. */
static int device_call(const void *out, int device) {
  int e = check_init();
  if (e)
    return e;
  if (!out)
    return DRV_CUDA_ERROR_INVALID_VALUE;
  if (!valid_device(device))
    return DRV_CUDA_ERROR_INVALID_DEVICE;
  return DRV_CUDA_SUCCESS;
}

int cuemu_drv_device_get(int *device, int ordinal) {
  int e = device_call(device, ordinal);
  if (e)
    return e;
  *device = ordinal;
  return DRV_CUDA_SUCCESS;
}

int cuemu_drv_device_get_count(int *count) {
  /* With no device visible (CUDA_VISIBLE_DEVICES), cuInit fails and the
   * count is 0. */
  if (count && cuemu__device_count() == 0) {
    *count = 0;
    return DRV_CUDA_ERROR_NO_DEVICE;
  }
  int e = check_init();
  if (e)
    return e;
  if (!count)
    return DRV_CUDA_ERROR_INVALID_VALUE;
  *count = cuemu__device_count();
  return DRV_CUDA_SUCCESS;
}

/* The runtime's answer for a device call, as a driver code. */
static int via_runtime(int code, int saved) {
  return cuemu_drv_result(code, saved);
}

int cuemu_drv_device_register_async_notification(int device, void *callback,
                                                 void *data, void **handle) {
  int e = device_call(callback, device);
  return e ? e
           : cuemu_rt_device_register_async_notification(device, callback,
                                                         data, handle);
}

int cuemu_drv_device_unregister_async_notification(int device, void *handle) {
  int e = device_call(handle, device);
  return e ? e : cuemu_rt_device_unregister_async_notification(device, handle);
}

int cuemu_drv_device_get_name(char *name, int len, int device) {
  int e = device_call(len > 0 ? name : NULL, device);
  if (e)
    return e;
  struct cudaDeviceProp p;
  int saved = cuemu_drv_enter();
  int code = via_runtime(cuemu_rt_get_device_properties(&p, device), saved);
  if (code == DRV_CUDA_SUCCESS)
    snprintf(name, (size_t)len, "%s", p.name);
  return code;
}

int cuemu_drv_device_get_attribute(int *value, int attribute, int device) {
  int e = device_call(value, device);
  if (e)
    return e;
  /* The stream memory operations (cuemu_drv_memop.c), 32- and 64-bit with
   * every wait condition, are the driver's alone: the runtime reserves
   * these numbers. */
  switch (attribute) {
  case 92:  /* CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_MEM_OPS_V1 */
  case 93:  /* CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS_V1 */
  case 94:  /* CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_WAIT_VALUE_NOR_V1 */
  case 122: /* CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS */
  case 123: /* CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_WAIT_VALUE_NOR */
    *value = 1;
    return DRV_CUDA_SUCCESS;
  /* Virtual memory management (cuemu_drv_vmm.c), also the driver's alone:
   * POSIX descriptors only, no compression, no RDMA. */
  case 102: /* CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED */
  case 103: /* CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED */
    *value = 1;
    return DRV_CUDA_SUCCESS;
  case 104: /* CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_WIN32_HANDLE_SUPPORTED */
  case 105: /* CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_WIN32_KMT_HANDLE_SUPPORTED */
  case 107: /* CU_DEVICE_ATTRIBUTE_GENERIC_COMPRESSION_SUPPORTED */
  case 110: /* CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_WITH_CUDA_VMM_SUPPORTED */
    *value = 0;
    return DRV_CUDA_SUCCESS;
  }
  /* CUdevice_attribute and cudaDeviceAttr have the same numbers. */
  int saved = cuemu_drv_enter();
  return via_runtime(cuemu_rt_device_get_attribute(value, attribute, device),
                     saved);
}

int cuemu_drv_device_total_mem(size_t *bytes, int device) {
  int e = device_call(bytes, device);
  if (e)
    return e;
  *bytes = cuemu__device_model_of(device)->total_memory;
  return DRV_CUDA_SUCCESS;
}

int cuemu_drv_device_get_uuid(void *uuid, int device) {
  int e = device_call(uuid, device);
  if (e)
    return e;
  struct cudaDeviceProp p;
  int saved = cuemu_drv_enter();
  int code = via_runtime(cuemu_rt_get_device_properties(&p, device), saved);
  if (code == DRV_CUDA_SUCCESS)
    memcpy(uuid, p.uuid.bytes, 16);
  return code;
}

int cuemu_drv_device_compute_capability(int *major, int *minor, int device) {
  int e = device_call(minor ? major : NULL, device);
  if (e)
    return e;
  *major = cuemu__device_model_of(device)->major;
  *minor = cuemu__device_model_of(device)->minor;
  return DRV_CUDA_SUCCESS;
}

int cuemu_drv_device_can_access_peer(int *can_access, int device, int peer) {
  int e = check_init();
  if (e)
    return e;
  int saved = cuemu_drv_enter();
  return via_runtime(cuemu_rt_device_can_access_peer(can_access, device, peer),
                     saved);
}

int cuemu_drv_device_get_p2p_attribute(int *value, int attribute, int src,
                                       int dst) {
  int e = check_init();
  if (e)
    return e;
  int saved = cuemu_drv_enter();
  return via_runtime(
      cuemu_rt_device_get_p2p_attribute(value, attribute, src, dst), saved);
}

int cuemu_drv_device_get_p2p_atomic_capabilities(unsigned *capabilities,
                                                 const int *operations,
                                                 unsigned count, int src,
                                                 int dst) {
  int e = check_init();
  if (e)
    return e;
  int saved = cuemu_drv_enter();
  return via_runtime(cuemu_rt_device_get_p2p_atomic_capabilities(
                         capabilities, operations, count, src, dst),
                     saved);
}

int cuemu_drv_device_get_host_atomic_capabilities(unsigned *capabilities,
                                                  const int *operations,
                                                  unsigned count, int device) {
  int e = check_init();
  if (e)
    return e;
  int saved = cuemu_drv_enter();
  return via_runtime(cuemu_rt_device_get_host_atomic_capabilities(
                         capabilities, operations, count, device),
                     saved);
}

/* ---- Contexts -------------------------------------------------------------- */

static int push(cuemu_drv_context *c) {
  if (depth == STACK_DEPTH)
    return DRV_CUDA_ERROR_OUT_OF_MEMORY;
  stack[depth++] = c;
  follow_top();
  return DRV_CUDA_SUCCESS;
}

/* Pops `c` when it is the calling thread's current context (as
 * cuCtxDestroy does); an entry of it lower in the stack stays, and is a
 * destroyed context once popped to. */
static void unstack(const cuemu_drv_context *c) {
  if (depth > 0 && stack[depth - 1] == c) {
    depth--;
    follow_top();
  }
}

int cuemu_drv_ctx_create(void **ctx, unsigned flags, int device) {
  int e = device_call((flags & ~CTX_FLAGS_MASK) ? NULL : ctx, device);
  if (e)
    return e;
  current_or_runtime(); /* the runtime's binding first: it stays below */
  cuemu_drv_context *c = calloc(1, sizeof *c);
  if (!c)
    return DRV_CUDA_ERROR_OUT_OF_MEMORY;
  c->device = device;
  c->flags = flags;
  c->live = 1;
  c->id = __atomic_fetch_add(&next_id, 1, __ATOMIC_RELAXED);
  e = push(c);
  if (e) {
    free(c);
    return e;
  }
  *ctx = c;
  return DRV_CUDA_SUCCESS;
}

int cuemu_drv_ctx_destroy(void *ctx) {
  int e = check_init();
  if (e)
    return e;
  cuemu_drv_context *c = ctx;
  if (!c || c->primary || !c->live)
    return DRV_CUDA_ERROR_INVALID_CONTEXT;
  current_or_runtime();
  c->live = 0; /* kept, so that a second destroy is an error */
  unstack(c);
  return DRV_CUDA_SUCCESS;
}

int cuemu_drv_ctx_attach(void **ctx, unsigned flags) {
  int e = check_init();
  if (e)
    return e;
  if (!ctx || flags != 0)
    return DRV_CUDA_ERROR_INVALID_VALUE;
  cuemu_drv_context *c = current_or_runtime();
  if (!c)
    return DRV_CUDA_ERROR_INVALID_CONTEXT;
  if (!usable(c))
    return DRV_CUDA_ERROR_CONTEXT_IS_DESTROYED;
  pthread_mutex_lock(&lock);
  c->attached++;
  pthread_mutex_unlock(&lock);
  *ctx = c;
  return DRV_CUDA_SUCCESS;
}

int cuemu_drv_ctx_detach(void *ctx) {
  int e = check_init();
  if (e)
    return e;
  cuemu_drv_context *c = ctx;
  /* The context must be current to the calling thread. */
  if (!c || c != current_or_runtime() || !usable(c))
    return DRV_CUDA_ERROR_INVALID_CONTEXT;
  pthread_mutex_lock(&lock);
  int last = c->attached == 0;
  if (!last)
    c->attached--;
  pthread_mutex_unlock(&lock);
  /* A primary context is the device's: only its count goes down. */
  return last && !c->primary ? cuemu_drv_ctx_destroy(c) : DRV_CUDA_SUCCESS;
}

int cuemu_drv_primary_ctx_retain(void **ctx, int device) {
  int e = device_call(ctx, device);
  if (e)
    return e;
  pthread_mutex_lock(&lock);
  primary[device].retained++;
  primary[device].live = 1;
  pthread_mutex_unlock(&lock);
  *ctx = &primary[device];
  return DRV_CUDA_SUCCESS;
}

int cuemu_drv_primary_ctx_release(int device) {
  int e = device_call(&device, device);
  if (e)
    return e;
  pthread_mutex_lock(&lock);
  int was = primary[device].retained;
  if (was > 0 && --primary[device].retained == 0)
    primary[device].live = 0;
  pthread_mutex_unlock(&lock);
  return was > 0 ? DRV_CUDA_SUCCESS : DRV_CUDA_ERROR_INVALID_CONTEXT;
}

int cuemu_drv_primary_ctx_reset(int device) {
  int e = device_call(&device, device);
  if (e)
    return e;
  /* As cudaDeviceReset on that device. */
  int saved = cuemu_drv_enter();
  int current = cuemu__device_current();
  cuemu__device_select(device);
  cuemu_rt_device_reset();
  cuemu__device_select(current);
  cuemu__rt_error_restore(saved);
  return DRV_CUDA_SUCCESS;
}

int cuemu_drv_primary_ctx_get_state(int device, unsigned *flags,
                                    int *active) {
  int e = device_call(active ? flags : NULL, device);
  if (e)
    return e;
  pthread_mutex_lock(&lock);
  *flags = primary[device].flags;
  *active = primary[device].retained > 0;
  pthread_mutex_unlock(&lock);
  return DRV_CUDA_SUCCESS;
}

int cuemu_drv_primary_ctx_set_flags(int device, unsigned flags) {
  int e = device_call((flags & ~CTX_FLAGS_MASK) ? NULL : &device, device);
  if (e)
    return e;
  pthread_mutex_lock(&lock);
  primary[device].flags = flags;
  pthread_mutex_unlock(&lock);
  return DRV_CUDA_SUCCESS;
}

int cuemu_drv_ctx_set_current(void *ctx) {
  int e = check_init();
  if (e)
    return e;
  cuemu_drv_context *c = ctx;
  if (c && !usable(c))
    return DRV_CUDA_ERROR_INVALID_CONTEXT;
  /* Replaces the top of the stack; NULL empties that place. */
  current_or_runtime();
  if (depth > 0)
    depth--;
  return c ? push(c) : DRV_CUDA_SUCCESS;
}

int cuemu_drv_ctx_get_current(void **ctx) {
  int e = check_init();
  if (e)
    return e;
  if (!ctx)
    return DRV_CUDA_ERROR_INVALID_VALUE;
  *ctx = current_or_runtime();
  return DRV_CUDA_SUCCESS;
}

int cuemu_drv_ctx_push_current(void *ctx) {
  int e = check_init();
  if (e)
    return e;
  if (!usable(ctx))
    return DRV_CUDA_ERROR_INVALID_CONTEXT;
  current_or_runtime();
  return push(ctx);
}

int cuemu_drv_ctx_pop_current(void **ctx) {
  int e = check_init();
  if (e)
    return e;
  current_or_runtime();
  if (depth == 0)
    return DRV_CUDA_ERROR_INVALID_CONTEXT;
  cuemu_drv_context *c = stack[--depth];
  follow_top();
  if (ctx)
    *ctx = c;
  return DRV_CUDA_SUCCESS;
}

int cuemu_drv_ctx_get_device(int *device) {
  int e = cuemu_drv_check_context();
  if (e)
    return e;
  if (!device)
    return DRV_CUDA_ERROR_INVALID_VALUE;
  *device = cuemu__drv_current()->device;
  return DRV_CUDA_SUCCESS;
}

int cuemu_drv_ctx_get_flags(unsigned *flags) {
  int e = cuemu_drv_check_context();
  if (e)
    return e;
  if (!flags)
    return DRV_CUDA_ERROR_INVALID_VALUE;
  *flags = cuemu__drv_current()->flags;
  return DRV_CUDA_SUCCESS;
}

int cuemu_drv_ctx_set_flags(unsigned flags) {
  int e = cuemu_drv_check_context();
  if (e)
    return e;
  /* cuDevicePrimaryCtxSetFlags's flags; only one scheduling policy. */
  unsigned sched = flags & CTX_SCHED_MASK;
  if ((flags & ~CTX_FLAGS_MASK) || (sched & (sched - 1)))
    return DRV_CUDA_ERROR_INVALID_VALUE;
  cuemu__drv_current()->flags = flags;
  return DRV_CUDA_SUCCESS;
}

int cuemu__drv_context_device(const void *ctx, int *device) {
  const cuemu_drv_context *c = ctx;
  if (!usable(c))
    return DRV_CUDA_ERROR_INVALID_CONTEXT;
  *device = c->device;
  return DRV_CUDA_SUCCESS;
}

void *cuemu__drv_primary_context(int device) {
  return valid_device(device) ? &primary[device] : NULL;
}

int cuemu_drv_ctx_get_api_version(void *ctx, unsigned *version) {
  int e = check_init();
  if (e)
    return e;
  if (!version)
    return DRV_CUDA_ERROR_INVALID_VALUE;
  cuemu_drv_context *c = ctx ? ctx : cuemu__drv_current();
  if (!usable(c))
    return DRV_CUDA_ERROR_INVALID_CONTEXT;
  /* The API version of contexts since CUDA 3.2. */
  *version = 3020;
  return DRV_CUDA_SUCCESS;
}

int cuemu_drv_ctx_get_id(void *ctx, unsigned long long *id) {
  int e = check_init();
  if (e)
    return e;
  cuemu_drv_context *c = ctx ? ctx : current_or_runtime();
  if (!usable(c))
    return DRV_CUDA_ERROR_INVALID_CONTEXT;
  if (!id)
    return DRV_CUDA_ERROR_INVALID_VALUE;
  *id = c->id;
  return DRV_CUDA_SUCCESS;
}

int cuemu_drv_ctx_synchronize(void) {
  int e = cuemu_drv_check_context();
  if (e)
    return e;
  int saved = cuemu_drv_enter();
  return via_runtime(cuemu_rt_device_synchronize(), saved);
}

int cuemu_drv_ctx_enable_peer_access(void *peer, unsigned flags) {
  int e = cuemu_drv_check_context();
  if (e)
    return e;
  cuemu_drv_context *p = peer;
  if (!usable(p))
    return DRV_CUDA_ERROR_INVALID_CONTEXT;
  int saved = cuemu_drv_enter();
  return via_runtime(cuemu_rt_device_enable_peer_access(p->device, flags),
                     saved);
}

int cuemu_drv_ctx_disable_peer_access(void *peer) {
  int e = cuemu_drv_check_context();
  if (e)
    return e;
  cuemu_drv_context *p = peer;
  if (!usable(p))
    return DRV_CUDA_ERROR_INVALID_CONTEXT;
  int saved = cuemu_drv_enter();
  return via_runtime(cuemu_rt_device_disable_peer_access(p->device), saved);
}

/* Both peer copies: in `stream`'s order when `async`. */
static int memcpy_peer(unsigned long long dst, void *dst_ctx,
                       unsigned long long src, void *src_ctx, size_t count,
                       int async, void *stream) {
  int e = cuemu_drv_check_context();
  if (e)
    return e;
  cuemu_drv_context *d = dst_ctx, *s = src_ctx;
  if (!usable(d) || !usable(s))
    return DRV_CUDA_ERROR_INVALID_CONTEXT;
  int saved = cuemu_drv_enter();
  void *to = (void *)(uintptr_t)dst;
  const void *from = (const void *)(uintptr_t)src;
  return via_runtime(
      async ? cuemu_rt_memcpy_peer_async(to, d->device, from, s->device, count,
                                         stream)
            : cuemu_rt_memcpy_peer(to, d->device, from, s->device, count),
      saved);
}

int cuemu_drv_memcpy_peer(unsigned long long dst, void *dst_ctx,
                          unsigned long long src, void *src_ctx,
                          size_t count) {
  return memcpy_peer(dst, dst_ctx, src, src_ctx, count, 0, NULL);
}

int cuemu_drv_memcpy_peer_async(unsigned long long dst, void *dst_ctx,
                                unsigned long long src, void *src_ctx,
                                size_t count, void *stream) {
  return memcpy_peer(dst, dst_ctx, src, src_ctx, count, 1, stream);
}
