/*
 * cuemu_device_launch.h: the one launch path of libcuemu.
 *
 * Every front end (kernel<<<>>> in whole programs, cudaLaunchKernel and
 * cudaLaunchCooperativeKernel, the C API's cuemu_kernel_launch(), and so
 * Python and the parity runner) fills a launch request and hands it to
 * cuemu__device_launch(), which validates it against the emulated device
 * (the sticky error, the stream, the arguments, the launch shape, the
 * kernel's __launch_bounds__, shared memory, the cooperative cap, the
 * run-time settings) and runs it on the scheduler (core/cuemu_core.h).
 * Front ends keep no tables and do no validation of their own.
 *
 * The sticky error: an execution error (a fault, an assert, a deadlock, ...)
 * of a launch of the runtime API is kept, as CUDA keeps it for the context,
 * and every later runtime launch (and device call, emulator/runtime/)
 * fails with it until cudaDeviceReset. Internal to libcuemu; host code.
 */
#ifndef CUEMU_DEVICE_LAUNCH_H
#define CUEMU_DEVICE_LAUNCH_H

#include <stddef.h>

#include <cuemu/cuemu.h>
#include <cuemu/cuemu_device.h>

#include "base/cuemu_config.h"

/* Who asked for a launch. */
typedef enum cuemu_launch_origin {
  /* The CUDA runtime API of a whole program (<<<>>>, cudaLaunchKernel): the
   * sticky error applies, `stream` is a cudaStream_t. */
  CUEMU_LAUNCH_RUNTIME = 0,
  /* The C API (cuemu_kernel_launch): no sticky error, and `nargs` is
   * checked against the kernel's parameters. */
  CUEMU_LAUNCH_API = 1
} cuemu_launch_origin;

typedef struct cuemu_launch_request {
  const cuemu_kernel_desc *kernel;
  cuemu_dim3 grid, block;
  size_t dynamic_shared;
  void *stream;
  void **args;       /* what the kernel's thunk expects */
  int nargs;         /* CUEMU_LAUNCH_API: the number of pointers in args */
  int cooperative;   /* all blocks resident at once (grid.sync()) */
  cuemu_dim3 cluster; /* blocks per cluster (cudaLaunchAttributeClusterDimension);
                         zero: the kernel's __cluster_dims__, or none */
  cuemu_launch_origin origin;
  unsigned sms;      /* a graph's kernel node: the SMs of the context it was
                        made in (CUEMU_LAUNCH_SMS_DEVICE: the whole device);
                        0: the stream's (a green context's partition, or
                        the whole device) */
} cuemu_launch_request;

/* cuemu_launch_request's sms for the whole device. */
#define CUEMU_LAUNCH_SMS_DEVICE (~0u)

/* Sets what gives the SMs of a launch into the calling thread's default
 * stream (sms 0): the partition of the green context current on the
 * thread, 0 for the whole device. The driver's green contexts set it when
 * the first is made; until then such launches use the whole device. */
void cuemu__device_set_default_stream_sms(unsigned (*sms)(void));

/* Validates a launch without running it: the status cuemu__device_launch()
 * would refuse it with, or CUEMU_SUCCESS. */
cuemu_status cuemu__device_check_launch(const cuemu_launch_request *request);

/* Validates a launch from kernel code: its shape, its clusters and shared
 * memory, the checks that do not depend on the host's state. Sets
 * *cluster to the launch's cluster shape (the kernel's __cluster_dims__;
 * zero for none). */
cuemu_status cuemu__device_check_child(const cuemu_launch_request *request,
                                       cuemu_dim3 *cluster);

/* Validates and runs a launch; returns its status, with a message naming
 * the kernel (and, for a failure while running, the block, the thread and
 * the source line). */
cuemu_status cuemu__device_launch(const cuemu_launch_request *request);

/* The stack of each thread of a launch of `code` under `config` (whose
 * stack_size and unoptimized_stack_size are CUEMU_STACK_SIZE's or the
 * defaults): grown for a kernel whose own frame is large, and by
 * cudaLimitStackSize (cuemu__limit_thread_stack). Host code. */
size_t cuemu__device_thread_stack(const cuemu_kernel_desc *code,
                                  const cuemu_config *config);

/* The sticky error of the runtime API (a status) on the calling thread's
 * current device, or CUEMU_SUCCESS. */
cuemu_status cuemu__device_sticky(void);

/* Records a failed launch's status as the sticky error when it is an
 * execution error and none is recorded yet. */
void cuemu__device_stick(cuemu_status status);

/* Clears the current device's sticky error (cudaDeviceReset). */
void cuemu__device_unstick(void);

#endif /* CUEMU_DEVICE_LAUNCH_H */
