/*
 * cuemu_rt_config.c: configuration the runtime API accepts, records and
 * answers but that does not change how the emulator runs: the device's and
 * kernels' cache and shared-memory-bank preferences, the persisting L2
 * cache, and stream attributes (access-policy window, synchronization
 * policy, memory sync domain and its map; priority is the stream's own, see
 * cuemu_rt_stream.c). See cuemu_runtime_host.h.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <cuemu/cuemu_runtime.h>
#include <cuemu/cuemu_runtime_host.h>
#include <cuemu/cuemu_runtime_streams.h>

#include "device/cuemu_device_model.h"
#include "device/cuemu_functions.h"
#include "device/cuemu_handles.h"
#include "runtime/cuemu_rt_internal.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int device_cache = cudaFuncCachePreferNone;
static int device_bank = cudaSharedMemBankSizeFourByte;

/* A kernel's recorded preferences. */
typedef struct func_config {
  const void *function;
  int cache, bank;
} func_config;

/* A stream's recorded attributes (a stream that has none is absent). */
typedef struct stream_config {
  void *stream;
  struct cudaAccessPolicyWindow window;
  int sync_policy;
  int sync_domain;
  cudaLaunchMemSyncDomainMap domain_map;
} stream_config;

static func_config *funcs;
static size_t func_count, func_capacity;
static stream_config *streams;
static size_t stream_count, stream_capacity;

/* Shared with the other files of the runtime (cuemu_rt_internal.h). */
int cuemu__rt_reserve_one(void **array, size_t *count, size_t *capacity,
                          size_t size) {
  if (*count < *capacity)
    return 1;
  size_t n = *capacity ? 2 * *capacity : 16;
  void *grown = realloc(*array, n * size);
  if (!grown)
    return 0;
  *array = grown;
  *capacity = n;
  return 1;
}

static int valid_cache(int config) {
  return config >= cudaFuncCachePreferNone &&
         config <= cudaFuncCachePreferEqual;
}

static int valid_bank(int config) {
  return config >= cudaSharedMemBankSizeDefault &&
         config <= cudaSharedMemBankSizeEightByte;
}

int cuemu_rt_device_set_cache_config(int config) {
  if (!valid_cache(config))
    return cuemu_rt_error(cudaErrorInvalidValue);
  int sticky = cuemu__rt_check_sticky();
  if (sticky)
    return sticky;
  pthread_mutex_lock(&lock);
  device_cache = config;
  pthread_mutex_unlock(&lock);
  return cudaSuccess;
}

int cuemu_rt_device_get_cache_config(int *config) {
  if (!config)
    return cuemu_rt_error(cudaErrorInvalidValue);
  pthread_mutex_lock(&lock);
  *config = device_cache;
  pthread_mutex_unlock(&lock);
  return cuemu__rt_check_sticky();
}

int cuemu_rt_device_set_shared_mem_config(int config) {
  if (!valid_bank(config))
    return cuemu_rt_error(cudaErrorInvalidValue);
  int sticky = cuemu__rt_check_sticky();
  if (sticky)
    return sticky;
  /* Devices of compute capability 5.0 and later have 4-byte banks only:
   * the setting is accepted and changes nothing, as on them. */
  return cudaSuccess;
}

int cuemu_rt_device_get_shared_mem_config(int *config) {
  if (!config)
    return cuemu_rt_error(cudaErrorInvalidValue);
  *config = device_bank;
  return cuemu__rt_check_sticky();
}

/* The kernel at `function`, or cudaErrorInvalidDeviceFunction. */
static int check_function(const void *function, int known) {
  if (!function)
    return cudaErrorInvalidDeviceFunction;
  if (!known && !cuemu__function_find(function))
    return cudaErrorInvalidDeviceFunction;
  return 0;
}

/* The record of a kernel (the lock held), made when `make` is set. */
static func_config *func_record(const void *function, int make) {
  for (size_t i = 0; i < func_count; ++i)
    if (funcs[i].function == function)
      return &funcs[i];
  if (!make || !cuemu__rt_reserve_one((void **)&funcs, &func_count,
                                      &func_capacity, sizeof *funcs))
    return NULL;
  func_config *f = &funcs[func_count++];
  f->function = function;
  f->cache = -1;
  f->bank = cudaSharedMemBankSizeDefault;
  return f;
}

/* Records a kernel's cache (`bank` 0) or bank (`bank` 1) preference. */
static int func_set(const void *function, int config, int known, int bank) {
  int code = check_function(function, known);
  if (!code && !(bank ? valid_bank(config) : valid_cache(config)))
    code = cudaErrorInvalidValue;
  if (code)
    return cuemu_rt_error(code);
  pthread_mutex_lock(&lock);
  func_config *f = func_record(function, 1);
  if (f && bank)
    f->bank = config;
  else if (f)
    f->cache = config;
  pthread_mutex_unlock(&lock);
  return f ? cuemu__rt_check_sticky()
           : cuemu_rt_error(cudaErrorMemoryAllocation);
}

int cuemu_rt_func_set_cache_config(const void *function, int config,
                                   int known) {
  return func_set(function, config, known, 0);
}

int cuemu_rt_func_set_shared_mem_config(const void *function, int config,
                                        int known) {
  return func_set(function, config, known, 1);
}

int cuemu_rt_func_get_cache_config(const void *function) {
  pthread_mutex_lock(&lock);
  func_config *f = func_record(function, 0);
  int config = f && f->cache >= 0 ? f->cache : device_cache;
  pthread_mutex_unlock(&lock);
  return config;
}

int cuemu_rt_ctx_reset_persisting_l2_cache(void) {
  /* Nothing persists in an emulated L2: every line is already normal. */
  return cuemu__rt_check_sticky();
}

/* ---- Stream attributes ---------------------------------------------------- */

/* The record of a stream (the lock held), made when `make` is set. */
static stream_config *stream_record(void *stream, int make) {
  for (size_t i = 0; i < stream_count; ++i)
    if (streams[i].stream == stream)
      return &streams[i];
  if (!make || !cuemu__rt_reserve_one((void **)&streams, &stream_count,
                                      &stream_capacity, sizeof *streams))
    return NULL;
  stream_config *s = &streams[stream_count++];
  memset(s, 0, sizeof *s);
  s->stream = stream;
  s->sync_policy = cudaSyncPolicyAuto;
  s->sync_domain = cudaLaunchMemSyncDomainDefault;
  s->domain_map.default_ = 0;
  s->domain_map.remote = 1;
  return s;
}

int cuemu__rt_check_access_policy(const struct cudaAccessPolicyWindow *w) {
  const cuemu_device_model *m = cuemu__device_model();
  if (w->num_bytes > m->access_policy_max_window)
    return cudaErrorInvalidValue;
  if (!(w->hitRatio >= 0.0f && w->hitRatio <= 1.0f))
    return cudaErrorInvalidValue;
  if (w->hitProp < cudaAccessPropertyNormal ||
      w->hitProp > cudaAccessPropertyPersisting)
    return cudaErrorInvalidValue;
  /* A miss can be normal or streaming, never persisting. */
  if (w->missProp != cudaAccessPropertyNormal &&
      w->missProp != cudaAccessPropertyStreaming)
    return cudaErrorInvalidValue;
  return 0;
}

int cuemu__rt_check_sync_policy(int policy) {
  return policy >= cudaSyncPolicyAuto && policy <= cudaSyncPolicyBlockingSync
             ? 0
             : cudaErrorInvalidValue;
}

int cuemu__rt_check_sync_domain(int domain) {
  return domain == cudaLaunchMemSyncDomainDefault ||
                 domain == cudaLaunchMemSyncDomainRemote
             ? 0
             : cudaErrorInvalidValue;
}

int cuemu__rt_check_domain_map(cudaLaunchMemSyncDomainMap map) {
  unsigned domains = cuemu__device_model()->sync_domains;
  return map.default_ < domains && map.remote < domains
             ? 0
             : cudaErrorInvalidValue;
}

int cuemu_rt_stream_set_attribute(void *stream, int attr,
                                  const cudaLaunchAttributeValue *value) {
  if (!value)
    return cuemu_rt_error(cudaErrorInvalidValue);
  /* No wait for the stream's work: no queued work reads the stream's
   * attributes, so the call is in its stream's order as issued. */
  int code = cuemu__rt_stream_valid(stream);
  if (code)
    return code;
  switch (attr) {
  case cudaLaunchAttributeAccessPolicyWindow:
    code = cuemu__rt_check_access_policy(&value->accessPolicyWindow);
    break;
  case cudaLaunchAttributeSynchronizationPolicy:
    code = cuemu__rt_check_sync_policy(value->syncPolicy);
    break;
  case cudaLaunchAttributeMemSyncDomain:
    code = cuemu__rt_check_sync_domain(value->memSyncDomain);
    break;
  case cudaLaunchAttributeMemSyncDomainMap:
    code = cuemu__rt_check_domain_map(value->memSyncDomainMap);
    break;
  case cudaLaunchAttributePriority: {
    /* The stream's priority, clamped to the range as at creation. */
    cuemu_handle_state state;
    if (!cuemu__handle_get(CUEMU_HANDLE_STREAM, stream, &state))
      return cuemu_rt_error(cudaErrorInvalidResourceHandle);
    int p = value->priority;
    if (p > CUEMU_RT_STREAM_LEAST_PRIORITY)
      p = CUEMU_RT_STREAM_LEAST_PRIORITY;
    if (p < CUEMU_RT_STREAM_GREATEST_PRIORITY)
      p = CUEMU_RT_STREAM_GREATEST_PRIORITY;
    state.priority = p;
    cuemu__handle_set(CUEMU_HANDLE_STREAM, stream, &state);
    return cuemu__rt_check_sticky();
  }
  default:
    /* Launch attributes that a stream does not take. */
    code = cudaErrorInvalidValue;
    break;
  }
  if (code)
    return cuemu_rt_error(code);
  pthread_mutex_lock(&lock);
  stream_config *s = stream_record(stream, 1);
  if (s) {
    if (attr == cudaLaunchAttributeAccessPolicyWindow)
      s->window = value->accessPolicyWindow;
    else if (attr == cudaLaunchAttributeSynchronizationPolicy)
      s->sync_policy = value->syncPolicy;
    else if (attr == cudaLaunchAttributeMemSyncDomain)
      s->sync_domain = value->memSyncDomain;
    else
      s->domain_map = value->memSyncDomainMap;
  }
  pthread_mutex_unlock(&lock);
  return s ? cuemu__rt_check_sticky()
           : cuemu_rt_error(cudaErrorMemoryAllocation);
}

int cuemu_rt_stream_get_attribute(void *stream, int attr,
                                  cudaLaunchAttributeValue *value) {
  if (!value)
    return cuemu_rt_error(cudaErrorInvalidValue);
  /* No wait for the stream's work: no queued work reads the stream's
   * attributes, so the call is in its stream's order as issued. */
  int code = cuemu__rt_stream_valid(stream);
  if (code)
    return code;
  if (attr == cudaLaunchAttributePriority) {
    memset(value, 0, sizeof *value);
    cuemu_handle_state state = {0, 0, 0, 0, 0, 0};
    cuemu__handle_get(CUEMU_HANDLE_STREAM, stream, &state);
    value->priority = state.priority;
    return cuemu__rt_check_sticky();
  }
  if (attr != cudaLaunchAttributeAccessPolicyWindow &&
      attr != cudaLaunchAttributeSynchronizationPolicy &&
      attr != cudaLaunchAttributeMemSyncDomain &&
      attr != cudaLaunchAttributeMemSyncDomainMap)
    return cuemu_rt_error(cudaErrorInvalidValue);
  pthread_mutex_lock(&lock);
  stream_config *found = stream_record(stream, 0);
  stream_config s;
  if (found) {
    s = *found;
  } else {
    memset(&s, 0, sizeof s);
    s.sync_policy = cudaSyncPolicyAuto;
    s.domain_map.remote = 1;
  }
  pthread_mutex_unlock(&lock);
  memset(value, 0, sizeof *value);
  if (attr == cudaLaunchAttributeAccessPolicyWindow)
    value->accessPolicyWindow = s.window;
  else if (attr == cudaLaunchAttributeSynchronizationPolicy)
    value->syncPolicy = (enum cudaSynchronizationPolicy)s.sync_policy;
  else if (attr == cudaLaunchAttributeMemSyncDomain)
    value->memSyncDomain = (cudaLaunchMemSyncDomain)s.sync_domain;
  else
    value->memSyncDomainMap = s.domain_map;
  return cuemu__rt_check_sticky();
}

int cuemu_rt_stream_copy_attributes(void *dst, void *src) {
  int code = cuemu__rt_stream_valid(dst);
  if (!code)
    code = cuemu__rt_stream_valid(src);
  if (code)
    return code;
  pthread_mutex_lock(&lock);
  stream_config *from = stream_record(src, 0);
  stream_config copy;
  if (from)
    copy = *from;
  stream_config *to = from ? stream_record(dst, 1) : stream_record(dst, 0);
  if (to && from) {
    copy.stream = dst;
    *to = copy;
  } else if (to) {
    *to = streams[--stream_count];
  }
  pthread_mutex_unlock(&lock);
  cuemu_handle_state s, d;
  if (cuemu__handle_get(CUEMU_HANDLE_STREAM, src, &s) &&
      cuemu__handle_get(CUEMU_HANDLE_STREAM, dst, &d)) {
    d.priority = s.priority;
    cuemu__handle_set(CUEMU_HANDLE_STREAM, dst, &d);
  }
  return cuemu__rt_check_sticky();
}

void cuemu__rt_stream_config_forget(void *stream) {
  pthread_mutex_lock(&lock);
  stream_config *s = stream_record(stream, 0);
  if (s)
    *s = streams[--stream_count];
  pthread_mutex_unlock(&lock);
}

void cuemu__rt_config_reset(void) {
  pthread_mutex_lock(&lock);
  device_cache = cudaFuncCachePreferNone;
  func_count = 0;
  stream_count = 0;
  pthread_mutex_unlock(&lock);
}
