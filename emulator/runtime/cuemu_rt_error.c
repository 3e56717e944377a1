/*
 * cuemu_rt_error.c: the last error of each host thread and the sticky
 * execution error of the runtime API, the names and strings of the error
 * codes, and the recording of a launch's status (see cuemu_runtime.h); the
 * CUDA error of a status comes from the status table (cuemu_status.h).
 */
#include <cuemu/cuemu_device_runtime.h>
#include <cuemu/cuemu_runtime.h>
#include <cuemu/cuemu_status.h>

#include "base/cuemu_error_log.h"
#include "base/cuemu_report.h"
#include "check/cuemu_check.h"
#include "device/cuemu_device_launch.h"
#include "device/cuemu_device_model.h"
#include "device/cuemu_handles.h"
#include "runtime/cuemu_drv_internal.h"
#include "runtime/cuemu_rt_internal.h"
#include "runtime/cuemu_rt_stream_queue.h"

static __thread int last_error;
/* Set while a call of the driver API runs on the runtime's functions
 * (cuemu__rt_driver_enter() to cuemu__rt_error_restore()). */
static __thread int in_driver;

int cuemu_rt_error(int code) {
  /* cudaErrorNotReady (cudaEventQuery, cudaStreamQuery and
   * cudaEventElapsedTime while work is pending) is "not actually an
   * error" in CUDA's words, and CUDA's runtime does not leave it as the
   * last error: Parboil's timers query an event at every switch of timer
   * and then check their copies with cudaGetLastError(), which on a GPU
   * reports nothing even after a kernel of seconds. */
  if (code == cudaErrorNotReady)
    return code;
  /* In kernel code, the device runtime's last error is per CUDA thread. */
  if (code != 0 && cuemu_thread_in_kernel())
    return cuemu_device_record_error(code);
  if (code != 0) {
    last_error = code;
    /* The driver API's errors are not reported (docs/checkers.md). */
    if (!in_driver)
      cuemu__check_api_error(code);
  }
  return code;
}

int cuemu_rt_sticky(void) {
  /* With no device visible (CUDA_VISIBLE_DEVICES), every call that works
   * with the device fails as CUDA's runtime initialisation does. */
  if (cuemu__device_count() == 0)
    return cudaErrorNoDevice;
  return cuemu_status_cuda_error(cuemu__device_sticky());
}

/* Set by the first call of the runtime API that works with the device,
 * from a thread without a driver context: not one the driver API makes
 * on its behalf (between cuemu__rt_driver_enter() and
 * cuemu__rt_error_restore(), or after it in the same driver call, as the
 * driver's bookkeeping of a new stream does), and not one in a thread
 * that has a context current, which CUDA's runtime uses as it is. Once
 * set, a thread without a context works in the primary one (as CUDA's
 * runtime makes it current in the threads that call it). */
static int runtime_used;
/* Set by such a call on this thread, taken by the driver API. */
static __thread int thread_called;

int cuemu__rt_used(void) {
  return __atomic_load_n(&runtime_used, __ATOMIC_RELAXED);
}

int cuemu__rt_thread_called_take(void) {
  int called = thread_called;
  thread_called = 0;
  return called;
}

void cuemu__rt_driver_enter(void) { in_driver = 1; }

int cuemu__rt_check_sticky(void) {
  if (!in_driver && !cuemu__drv_current()) {
    if (!__atomic_load_n(&runtime_used, __ATOMIC_RELAXED))
      __atomic_store_n(&runtime_used, 1, __ATOMIC_RELAXED);
    thread_called = 1;
    cuemu__drv_runtime_holds_primary(cuemu__device_current());
  }
  return cuemu_rt_error(cuemu_rt_sticky());
}

int cuemu__rt_stream_valid(void *stream) {
  return cuemu__handle_stream_valid(stream)
             ? cudaSuccess
             : cuemu_rt_error(cudaErrorInvalidResourceHandle);
}

int cuemu__rt_check_stream(void *stream) {
  int code = cuemu__rt_stream_valid(stream);
  return code ? code : cuemu__stream_drain(stream);
}

void cuemu__rt_error_reset(void) {
  cuemu__device_unstick();
  last_error = 0;
}

void cuemu__rt_error_restore(int code) {
  last_error = code;
  in_driver = 0;
}

int cuemu_rt_get_last_error(void) {
  if (cuemu_thread_in_kernel())
    return cuemu_device_last_error(1);
  int code = last_error;
  last_error = cuemu_rt_sticky();
  return code;
}

int cuemu_rt_peek_last_error(void) {
  return cuemu_thread_in_kernel() ? cuemu_device_last_error(0) : last_error;
}

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
  /* The launch path has already made an execution error sticky
   * (device/cuemu_device_launch.c), and logged its message
   * (cuemu__report_print); here it becomes the last error, and the
   * message of a launch refused (its configuration) is logged. */
  if (status != CUEMU_SUCCESS && !cuemu_status_is_sticky((cuemu_status)status))
    cuemu__error_log_add(cuemu_last_message());
  return cuemu_rt_error(cuemu_status_cuda_error((cuemu_status)status));
}

int cuemu_rt_library_fault(int status, const char *message) {
  cuemu_status kind = (cuemu_status)status;
  if (!cuemu_status_is_sticky(kind))
    kind = CUEMU_KERNEL_FAULT;
  cuemu__report(kind, "%s", message);
  cuemu__report_print(message);
  cuemu__device_stick(kind);
  return cuemu_status_cuda_error(kind);
}
