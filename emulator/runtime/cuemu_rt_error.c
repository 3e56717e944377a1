/*
 * cuemu_rt_error.c: the last error of each host thread and the sticky
 * execution error of the runtime API, the names and strings of the error
 * codes, and the CUDA code of a launch's status (see cuemu_runtime.h).
 */
#include <cuemu/cuemu_runtime.h>
#include <cuemu/cuemu_status.h>

#include "device/cuemu_device_launch.h"
#include "device/cuemu_handles.h"
#include "runtime/cuemu_rt_internal.h"

static __thread int last_error;

int cuemu_rt_error(int code) {
  if (code != 0)
    last_error = code;
  return code;
}

int cuemu_rt_sticky(void) {
  cuemu_status st = cuemu__device_sticky();
  return st == CUEMU_SUCCESS ? cudaSuccess : cuemu_rt_error_of_status(st);
}

int cuemu__rt_check_sticky(void) { return cuemu_rt_error(cuemu_rt_sticky()); }

int cuemu__rt_check_stream(void *stream) {
  return cuemu__handle_stream_valid(stream)
             ? cudaSuccess
             : cuemu_rt_error(cudaErrorInvalidResourceHandle);
}

void cuemu__rt_error_reset(void) {
  cuemu__device_unstick();
  last_error = 0;
}

int cuemu_rt_get_last_error(void) {
  int code = last_error;
  last_error = cuemu_rt_sticky();
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

int cuemu_rt_error_of_status(int status) {
  switch (status) {
  case CUEMU_SUCCESS:
    return cudaSuccess;
  case CUEMU_INVALID_GRID_DIM:
  case CUEMU_INVALID_BLOCK_DIM:
  case CUEMU_TOO_MANY_THREADS:
    return cudaErrorInvalidConfiguration;
  case CUEMU_SHARED_MEMORY_LIMIT:
  case CUEMU_INVALID_VALUE:
  case CUEMU_ARGUMENT_COUNT:
    return cudaErrorInvalidValue;
  case CUEMU_OUT_OF_MEMORY:
    return cudaErrorMemoryAllocation;
  case CUEMU_KERNEL_FAULT:
    return cudaErrorIllegalAddress;
  case CUEMU_ASSERT:
    return cudaErrorAssert;
  case CUEMU_DEADLOCK:
    return cudaErrorLaunchTimeout;
  case CUEMU_NOT_SUPPORTED:
    return cudaErrorNotSupported;
  case CUEMU_LAUNCH_OUT_OF_RESOURCES:
    return cudaErrorLaunchOutOfResources;
  case CUEMU_COOPERATIVE_TOO_LARGE:
    return cudaErrorCooperativeLaunchTooLarge;
  case CUEMU_STACK_OVERFLOW:
    return cudaErrorHardwareStackError;
  case CUEMU_INVALID_HANDLE:
    return cudaErrorInvalidResourceHandle;
  case CUEMU_TRAP:
  case CUEMU_WARP_MISUSE:
  case CUEMU_DIVERGENT_BARRIER:
  case CUEMU_GRID_SYNC:
    return cudaErrorLaunchFailure;
  default:
    return cudaErrorLaunchFailure;
  }
}

int cuemu_rt_status_is_execution_error(int status) {
  /* Errors while the kernel ran (not in its configuration). */
  return (status >= CUEMU_DIVERGENT_BARRIER && status <= CUEMU_TRAP) ||
         status == CUEMU_GRID_SYNC || status == CUEMU_CHECK_REPORT;
}

int cuemu_rt_record_launch_status(int status) {
  /* The launch path has already made an execution error sticky
   * (device/cuemu_device_launch.c); here it becomes the last error. */
  return cuemu_rt_error(cuemu_rt_error_of_status(status));
}
