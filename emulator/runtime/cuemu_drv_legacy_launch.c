/*
 * cuemu_drv_legacy_launch.c: the driver API's launch calls of before CUDA
 * 4.0, deprecated but still declared by CUDA 13's cuda.h (see
 * cuemu_driver_api.h): a function keeps a block shape
 * (cuFuncSetBlockShape), a dynamic shared memory size (cuFuncSetSharedSize)
 * and a parameter buffer (cuParamSetSize, cuParamSeti/f/v), and
 * cuLaunch/cuLaunchGrid/cuLaunchGridAsync launch it with them, as
 * cuLaunchKernel does with CU_LAUNCH_PARAM_BUFFER_POINTER.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <cuemu/cuemu_driver_api.h>
#include <cuemu/cuemu_driver_errors.h>

#include "runtime/cuemu_drv_internal.h"

enum {
#define CUEMU_DRV_ENUM_(name, value, text) DRV_##name = value,
  CUEMU_DRIVER_ERROR_MAP(CUEMU_DRV_ENUM_)
#undef CUEMU_DRV_ENUM_
};

/* The parameter space of the legacy calls (CUDA's 4 KiB). */
#define PARAM_BYTES 4096
/* CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK: asked to check a handle. */
#define FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK 0

/* One function's legacy launch state. */
typedef struct legacy_state {
  struct legacy_state *next;
  void *function;
  int block[3]; /* 0 until cuFuncSetBlockShape */
  unsigned shared_bytes;
  unsigned param_size;
  unsigned char params[PARAM_BYTES];
} legacy_state;

static legacy_state *states;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

/* The checks of every legacy call (a current context and a live function)
 * and the function's state, made on first use; a driver code. */
static int state_of(void *function, legacy_state **out) {
  int e = cuemu_drv_check_context();
  if (e)
    return e;
  int max_threads = 0;
  if (!function ||
      cuemu__drv_func_get_attribute(&max_threads,
                                    FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
                                    cuemu__drv_function(function)))
    return DRV_CUDA_ERROR_INVALID_HANDLE;
  pthread_mutex_lock(&lock);
  legacy_state *s = states;
  while (s && s->function != function)
    s = s->next;
  if (!s && (s = calloc(1, sizeof *s)) != NULL) {
    s->function = function;
    s->next = states;
    states = s;
  }
  pthread_mutex_unlock(&lock);
  if (!s)
    return DRV_CUDA_ERROR_OUT_OF_MEMORY;
  *out = s;
  return DRV_CUDA_SUCCESS;
}

int cuemu_drv_func_set_block_shape(void *function, int x, int y, int z) {
  legacy_state *s;
  int e = state_of(function, &s);
  if (e)
    return e;
  if (x < 1 || y < 1 || z < 1)
    return DRV_CUDA_ERROR_INVALID_VALUE;
  pthread_mutex_lock(&lock);
  s->block[0] = x;
  s->block[1] = y;
  s->block[2] = z;
  pthread_mutex_unlock(&lock);
  return DRV_CUDA_SUCCESS;
}

int cuemu_drv_func_set_shared_size(void *function, unsigned bytes) {
  legacy_state *s;
  int e = state_of(function, &s);
  if (e)
    return e;
  pthread_mutex_lock(&lock);
  s->shared_bytes = bytes;
  pthread_mutex_unlock(&lock);
  return DRV_CUDA_SUCCESS;
}

int cuemu_drv_param_set_size(void *function, unsigned bytes) {
  legacy_state *s;
  int e = state_of(function, &s);
  if (e)
    return e;
  if (bytes > PARAM_BYTES)
    return DRV_CUDA_ERROR_INVALID_VALUE;
  pthread_mutex_lock(&lock);
  s->param_size = bytes;
  pthread_mutex_unlock(&lock);
  return DRV_CUDA_SUCCESS;
}

int cuemu_drv_param_set(void *function, int offset, const void *value,
                        unsigned bytes) {
  legacy_state *s;
  int e = state_of(function, &s);
  if (e)
    return e;
  if (offset < 0 || !value || bytes > PARAM_BYTES ||
      (unsigned)offset > PARAM_BYTES - bytes)
    return DRV_CUDA_ERROR_INVALID_VALUE;
  pthread_mutex_lock(&lock);
  memcpy(s->params + offset, value, bytes);
  pthread_mutex_unlock(&lock);
  return DRV_CUDA_SUCCESS;
}

int cuemu_drv_launch_grid(void *function, int grid_width, int grid_height,
                          void *stream) {
  legacy_state *s;
  int e = state_of(function, &s);
  if (e)
    return e;
  if (grid_width < 1 || grid_height < 1)
    return DRV_CUDA_ERROR_INVALID_VALUE;
  /* A copy, so that another thread's cuParamSet* does not change this
   * launch; the launch copies the arguments it keeps. */
  unsigned char params[PARAM_BYTES];
  int block[3];
  unsigned shared_bytes;
  size_t size;
  pthread_mutex_lock(&lock);
  memcpy(params, s->params, s->param_size);
  memcpy(block, s->block, sizeof block);
  shared_bytes = s->shared_bytes;
  size = s->param_size;
  pthread_mutex_unlock(&lock);
  if (!block[0])
    return DRV_CUDA_ERROR_INVALID_VALUE; /* no cuFuncSetBlockShape */
  /* cuLaunchKernel's CU_LAUNCH_PARAM_BUFFER_POINTER, _SIZE, _END. */
  void *extra[] = {(void *)0x01, params, (void *)0x02, &size, (void *)0x00};
  return cuemu_drv_launch_kernel(function, (unsigned)grid_width,
                                 (unsigned)grid_height, 1, (unsigned)block[0],
                                 (unsigned)block[1], (unsigned)block[2],
                                 shared_bytes, stream, NULL, extra, 0);
}
