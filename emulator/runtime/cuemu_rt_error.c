/*
 * cuemu_rt_error.c: the last error of each host thread and the sticky
 * execution error of the runtime API, the names and strings of the error
 * codes, and the recording of a launch's status (see cuemu_runtime.h); the
 * CUDA error of a status comes from the status table (cuemu_status.h).
 */
#include <stdatomic.h>

#include <cuemu/cuemu_runtime.h>
#include <cuemu/cuemu_status.h>

#include "runtime/cuemu_rt_internal.h"

static __thread int last_error;
static atomic_int sticky_error;

int cuemu_rt_error(int code) {
  if (code != 0)
    last_error = code;
  return code;
}

int cuemu_rt_sticky(void) { return atomic_load(&sticky_error); }

int cuemu__rt_check_sticky(void) {
  return cuemu_rt_error(atomic_load(&sticky_error));
}

void cuemu__rt_error_reset(void) {
  atomic_store(&sticky_error, 0);
  last_error = 0;
}

int cuemu_rt_get_last_error(void) {
  int code = last_error;
  last_error = atomic_load(&sticky_error);
  return code;
}

int cuemu_rt_peek_last_error(void) { return last_error; }

const char *cuemu_rt_error_name(int code) {
  switch (code) {
#define CUEMU_RT_ERROR_NAME_(name, value, text)                                \
  case value:                                                                  \
    return #name;
    CUEMU_RT_ERROR_MAP(CUEMU_RT_ERROR_NAME_)
#undef CUEMU_RT_ERROR_NAME_
  }
  return "unrecognized error code";
}

const char *cuemu_rt_error_string(int code) {
  switch (code) {
#define CUEMU_RT_ERROR_TEXT_(name, value, text)                                \
  case value:                                                                  \
    return text;
    CUEMU_RT_ERROR_MAP(CUEMU_RT_ERROR_TEXT_)
#undef CUEMU_RT_ERROR_TEXT_
  }
  return "unrecognized error code";
}

int cuemu_rt_record_launch_status(int status) {
  int code = cuemu_status_cuda_error((cuemu_status)status);
  if (code == cudaSuccess)
    return code;
  /* Errors while the kernel ran are sticky (the status table's kind). */
  if (cuemu_status_is_sticky((cuemu_status)status)) {
    /* The first execution error stays. */
    int none = 0;
    atomic_compare_exchange_strong(&sticky_error, &none, code);
  }
  return cuemu_rt_error(code);
}
