/*
 * cuemu_device_launch.c: the one launch path (see cuemu_device_launch.h).
 */
#include "device/cuemu_device_launch.h"

#include <stdatomic.h>

#include <cuemu/cuemu_runtime.h>

#include "base/cuemu_config.h"
#include "base/cuemu_report.h"
#include "core/cuemu_core.h"
#include "core/cuemu_printf.h"
#include "device/cuemu_child_grids.h"
#include "device/cuemu_cluster_shape.h"
#include "device/cuemu_device_model.h"
#include "device/cuemu_functions.h"
#include "device/cuemu_handles.h"
#include "device/cuemu_limits.h"

/* The sticky error of each device. */
static atomic_int sticky[CUEMU_MAX_DEVICES];

cuemu_status cuemu__device_sticky(void) {
  return (cuemu_status)atomic_load(&sticky[cuemu__device_current()]);
}

void cuemu__device_stick(cuemu_status status) {
  if (!cuemu_status_is_sticky(status))
    return;
  /* The first execution error stays. */
  int none = CUEMU_SUCCESS;
  atomic_compare_exchange_strong(&sticky[cuemu__device_current()], &none,
                                 (int)status);
}

void cuemu__device_unstick(void) {
  atomic_store(&sticky[cuemu__device_current()], CUEMU_SUCCESS);
}

/* Non-zero while the calling thread's C API launches let racecheck's and
 * initcheck's reports go on (cuemu_check_reports_fail(0)). */
static _Thread_local int api_reports_go_on;

int cuemu_check_reports_fail(int fail) {
  int old = !api_reports_go_on;
  api_reports_go_on = !fail;
  return old;
}

/* Non-zero when every dimension of d is at least 1 and at most max's. */
static int dims_within(cuemu_dim3 d, const unsigned max[3]) {
  return d.x && d.y && d.z && d.x <= max[0] && d.y <= max[1] && d.z <= max[2];
}

/* The kernel's arguments, as the C API passes them. */
static cuemu_status check_arguments(const cuemu_launch_request *r) {
  const cuemu_kernel_desc *k = r->kernel;
  if (r->nargs < 0 || r->nargs != k->param_count)
    return cuemu__report(CUEMU_ARGUMENT_COUNT,
                         "kernel %s takes %d argument%s; %d given", k->name,
                         k->param_count, k->param_count == 1 ? "" : "s",
                         r->nargs);
  if (r->nargs > 0 && !r->args)
    return cuemu__report(CUEMU_ARGUMENT_COUNT,
                         "kernel %s takes %d argument%s, but args is NULL",
                         k->name, k->param_count,
                         k->param_count == 1 ? "" : "s");
  for (int i = 0; i < r->nargs; ++i)
    if (!r->args[i])
      return cuemu__report(CUEMU_INVALID_VALUE,
                           "kernel %s: argument %d is a NULL pointer (args "
                           "holds pointers to the values)",
                           k->name, i);
  return CUEMU_SUCCESS;
}

/* The launch shape, against the device and the kernel's launch bounds. */
static cuemu_status check_shape(const cuemu_launch_request *r) {
  const cuemu_device_model *m = cuemu__device_model();
  const cuemu_kernel_desc *k = r->kernel;
  cuemu_dim3 g = r->grid, b = r->block;
  static const char what[] = "each dimension must be at least 1 and at most";
  if (!dims_within(g, m->max_grid_dim))
    return cuemu__report(CUEMU_INVALID_GRID_DIM,
                         "kernel %s: grid (%u,%u,%u) is invalid: %s "
                         "(%u,%u,%u)",
                         k->name, g.x, g.y, g.z, what, m->max_grid_dim[0],
                         m->max_grid_dim[1], m->max_grid_dim[2]);
  /* CUDA's own limits first, then the threads per block, then the
   * emulated device's dimensions (which a smaller thread limit lowers). */
  static const unsigned cuda_block_dim[3] = {
      CUEMU_MAX_BLOCK_DIM_X, CUEMU_MAX_BLOCK_DIM_Y, CUEMU_MAX_BLOCK_DIM_Z};
  unsigned long long threads = (unsigned long long)b.x * b.y * b.z;
  int dims_ok = dims_within(b, cuda_block_dim);
  if (dims_ok && threads > m->max_threads_per_block)
    return cuemu__report(CUEMU_TOO_MANY_THREADS,
                         "kernel %s: block (%u,%u,%u) has %llu threads; at "
                         "most %u are allowed",
                         k->name, b.x, b.y, b.z, threads,
                         m->max_threads_per_block);
  if (!dims_ok || !dims_within(b, m->max_block_dim))
    return cuemu__report(CUEMU_INVALID_BLOCK_DIM,
                         "kernel %s: block (%u,%u,%u) is invalid: %s "
                         "(%u,%u,%u)",
                         k->name, b.x, b.y, b.z, what, m->max_block_dim[0],
                         m->max_block_dim[1], m->max_block_dim[2]);
  /* The bounds of the code the device runs (a further device pass's own). */
  const unsigned bound = cuemu__function_code(k)->max_threads;
  if (bound && threads > bound)
    return cuemu__report(CUEMU_LAUNCH_BOUNDS,
                         "kernel %s: block (%u,%u,%u) has %llu threads, more "
                         "than its __launch_bounds__ (%u)",
                         k->name, b.x, b.y, b.z, threads, bound);
  return CUEMU_SUCCESS;
}

/* Shared memory: the dynamic part against the kernel's limit, the static
 * part against a block's 48 KiB, and static plus dynamic against the
 * device's. */
static cuemu_status check_shared(const cuemu_launch_request *r,
                                 const void *function) {
  const cuemu_device_model *m = cuemu__device_model();
  const cuemu_kernel_desc *k = r->kernel;
  cuemu_kernel_attributes a;
  cuemu__function_attributes(function, k, &a);
  size_t limit = a.max_dynamic_shared_bytes;
  if (r->dynamic_shared > limit)
    return cuemu__report(CUEMU_SHARED_MEMORY_LIMIT,
                         "kernel %s: %zu bytes of dynamic shared memory "
                         "requested; the limit is %zu (raise it up to %zu with "
                         "cudaFuncSetAttribute)",
                         k->name, r->dynamic_shared, limit,
                         m->shared_per_block_optin);
  /* Static shared memory cannot be opted in to: past the 48 KiB of a block
   * (several arrays together, each one under it; one array over it is a
   * compile error already) ptxas refuses the kernel, so no GPU runs it. */
  if (a.static_shared_bytes > m->shared_per_block)
    return cuemu__report(CUEMU_SHARED_MEMORY_LIMIT,
                         "kernel %s: %zu bytes of static shared memory; a "
                         "kernel has at most %zu (nvcc refuses it: \"uses too "
                         "much shared data\")",
                         k->name, a.static_shared_bytes, m->shared_per_block);
  if (a.static_shared_bytes + r->dynamic_shared > m->shared_per_block_optin)
    return cuemu__report(CUEMU_SHARED_MEMORY_LIMIT,
                         "kernel %s: %zu bytes of static and %zu of dynamic "
                         "shared memory; a block has at most %zu",
                         k->name, a.static_shared_bytes, r->dynamic_shared,
                         m->shared_per_block_optin);
  return CUEMU_SUCCESS;
}

/* A thread block cluster: each dimension at least 1 and dividing the
 * grid's, at most the device's blocks per cluster in all (more than the
 * portable 8 only where the kernel allows it), on a device of compute
 * capability 9.0 or later. */
static cuemu_status check_cluster(const cuemu_launch_request *r,
                                  const void *function) {
  cuemu_dim3 c, g = r->grid;
  cuemu_status st = cuemu__cluster_shape(r, function, &c);
  if (st != CUEMU_SUCCESS || (!c.x && !c.y && !c.z))
    return st;
  const cuemu_device_model *m = cuemu__device_model();
  const char *name = r->kernel->name;
  if (m->major < 9)
    return cuemu__report(CUEMU_NOT_SUPPORTED,
                         "kernel %s: thread block clusters need compute "
                         "capability 9.0; the device is %d.%d",
                         name, m->major, m->minor);
  unsigned long long size = (unsigned long long)c.x * c.y * c.z;
  unsigned most = cuemu__function_cluster_nonportable(function)
                      ? m->max_cluster_nonportable
                      : m->max_cluster_portable;
  if (!c.x || !c.y || !c.z || g.x % c.x || g.y % c.y || g.z % c.z)
    return cuemu__report(CUEMU_CLUSTER_SIZE,
                         "kernel %s: cluster (%u,%u,%u) does not divide the "
                         "grid (%u,%u,%u)",
                         name, c.x, c.y, c.z, g.x, g.y, g.z);
  if (size > most)
    return cuemu__report(CUEMU_CLUSTER_SIZE,
                         "kernel %s: a cluster of %llu blocks; at most %u "
                         "(cudaFuncAttributeNonPortableClusterSizeAllowed "
                         "allows up to %u)",
                         name, size, most, m->max_cluster_nonportable);
  return CUEMU_SUCCESS;
}

/* The runtime API's sticky error. */
static cuemu_status check_sticky(const cuemu_launch_request *r) {
  cuemu_status st = cuemu__device_sticky();
  if (st != CUEMU_SUCCESS)
    return cuemu__report(st,
                         "kernel %s was not launched: an earlier kernel "
                         "failed (%s), and the device stays unusable until "
                         "cudaDeviceReset()",
                         r->kernel->name, cuemu_status_name(st));
  return CUEMU_SUCCESS;
}

/* The stream: a default stream or a live one (cudaStreamCreate's). */
static cuemu_status check_stream(const cuemu_launch_request *r) {
  if (!cuemu__handle_stream_valid(r->stream))
    return cuemu__report(CUEMU_INVALID_HANDLE,
                         "kernel %s: launched into %p, which is not a valid "
                         "stream (destroyed, never created, or not a stream)",
                         r->kernel->name, r->stream);
  /* A stream belongs to the device current at its creation; a kernel
   * launched from the host goes into a stream of the current device. */
  int device = cuemu__handle_stream_device(r->stream);
  if (!cuemu_thread_in_kernel() && device != cuemu__device_current())
    return cuemu__report(CUEMU_INVALID_HANDLE,
                         "kernel %s: launched into stream %p of device %d "
                         "while device %d is current (cudaSetDevice)",
                         r->kernel->name, r->stream, device,
                         cuemu__device_current());
  return CUEMU_SUCCESS;
}

static unsigned (*_Atomic default_stream_sms)(void);

void cuemu__device_set_default_stream_sms(unsigned (*sms)(void)) {
  default_stream_sms = sms;
}

/* The SMs a launch may use, 0 for the whole device: a graph's kernel
 * node's context's, else a green context's stream's partition, or, for
 * the default stream, the partition of the green context current on the
 * launching thread (a launch that runs when issued, as under
 * CUEMU_STREAMS=sync; a deferred one is a node with its context's SMs). */
static unsigned launch_sms(const cuemu_launch_request *r) {
  if (r->sms)
    return r->sms == CUEMU_LAUNCH_SMS_DEVICE ? 0 : r->sms;
  if (cuemu__handle_is_default_stream(r->stream)) {
    unsigned (*current)(void) = default_stream_sms;
    return current && !cuemu_thread_in_kernel() ? current() : 0;
  }
  cuemu_handle_state state;
  if (!cuemu__handle_get(CUEMU_HANDLE_STREAM, r->stream, &state))
    return 0;
  return state.sms;
}

static cuemu_status validate(const cuemu_launch_request *r,
                             const void *function) {
  if (cuemu_thread_in_kernel())
    return cuemu__report(CUEMU_NOT_SUPPORTED,
                         "kernel %s: launching a kernel from kernel code "
                         "(dynamic parallelism) is not supported",
                         r->kernel->name);
  cuemu_status st = r->origin == CUEMU_LAUNCH_RUNTIME ? check_sticky(r)
                                                      : check_arguments(r);
  if (st == CUEMU_SUCCESS)
    st = check_stream(r);
  const char *images = NULL;
  if (st == CUEMU_SUCCESS && !cuemu__function_has_image(r->kernel, &images)) {
    const cuemu_device_model *m = cuemu__device_model();
    st = cuemu__report(CUEMU_KERNEL_IMAGE,
                       "kernel %s: no kernel image for the emulated device "
                       "(compute capability %d.%d) among its build's %s "
                       "(-arch, -gencode, -code; CUEMU_DEVICE sets the "
                       "device)",
                       r->kernel->name, m->major, m->minor, images);
    /* A GPU of that capability refuses the launch too, with the same
     * error; but here the device is a setting, so the first such refusal
     * of a process is also printed (unless CUEMU_QUIET), with the
     * setting's name: the program's own message ("no kernel image is
     * available for execution on the device") does not tell it. */
    static atomic_flag told = ATOMIC_FLAG_INIT;
    st = cuemu__report_print_first(st, &told);
  }
  if (st == CUEMU_SUCCESS)
    st = check_shape(r);
  if (st == CUEMU_SUCCESS)
    st = check_shared(r, function);
  if (st == CUEMU_SUCCESS)
    st = check_cluster(r, function);
  if (st == CUEMU_SUCCESS && r->cooperative) {
    unsigned threads = r->block.x * r->block.y * r->block.z;
    unsigned long long blocks =
        (unsigned long long)r->grid.x * r->grid.y * r->grid.z;
    cuemu_kernel_attributes a;
    cuemu__function_attributes(function, r->kernel, &a);
    unsigned sms = launch_sms(r);
    unsigned long long resident =
        (unsigned long long)cuemu__device_blocks_per_sm(
            threads, a.static_shared_bytes + r->dynamic_shared) *
        (sms ? sms : cuemu__device_model()->sms);
    /* A GPU with that many SMs refuses the launch too; but here the SM
     * count is a setting (8 by default, where a real sm_90 GPU has 114 or
     * more), and a program that sizes its grid from its data rather than
     * from occupancy (an FDTD step of 91 blocks) is refused only here: the
     * first such refusal of a process is printed, as the kernel image's. */
    static atomic_flag told_sms = ATOMIC_FLAG_INIT;
    if (blocks > resident)
      st = cuemu__report_print_first(
          cuemu__report(CUEMU_COOPERATIVE_TOO_LARGE,
                        "kernel %s: a cooperative launch of %llu blocks of "
                        "%u threads; at most %llu can be resident at once "
                        "(CUEMU_DEVICE=sms=N sets the emulated SM count)",
                        r->kernel->name, blocks, threads, resident),
          &told_sms);
  }
  return st;
}

cuemu_status cuemu__device_check_child(const cuemu_launch_request *r,
                                       cuemu_dim3 *cluster) {
  const void *function = cuemu__function_identity(r->kernel, r->args);
  *cluster = (cuemu_dim3){0, 0, 0};
  cuemu_status st = check_shape(r);
  /* A kernel with __cluster_dims__ launched from kernel code runs in
   * clusters of that shape, under the rules of a host launch. */
  if (st == CUEMU_SUCCESS)
    st = check_cluster(r, function);
  if (st == CUEMU_SUCCESS)
    st = cuemu__cluster_shape(r, function, cluster);
  if (st == CUEMU_SUCCESS)
    st = check_shared(r, function);
  return st;
}

/* The stack of each thread of a launch of `code`, before cudaLimitStackSize:
 * CUEMU_STACK_SIZE where it is set, else the default (larger for a kernel
 * compiled at -O0), grown for a kernel whose frames (its local arrays and
 * those of the device functions it calls, as a GPU's local memory, which the
 * driver sizes from ptxas's cumulative stack) would leave less than half of
 * the default for the C library's frames: the frames plus that half, in
 * whole 64 KiB, so that kernels of similar frames share the workers' pools
 * of stacks. The frames are those of the kernel's function and of its
 * thunk, which may inline it (cuemu_kernel_thunks.h), each with its callees
 * (cuemu__frame_size_deep). */
static size_t launch_stack_size(const cuemu_kernel_desc *code,
                                const cuemu_config *config) {
  int unoptimized = cuemu__function_unoptimized(code->function);
  size_t base = unoptimized ? config->unoptimized_stack_size
                            : config->stack_size;
  if (config->stack_size_set)
    return base;
  size_t frame = cuemu__function_frame((const void *)code->thunk) +
                 cuemu__function_frame(code->function);
  size_t need = frame + base / 2;
  if (need <= base)
    return base;
  const size_t step = 64u * 1024u;
  return (need + step - 1) / step * step;
}

size_t cuemu__device_thread_stack(const cuemu_kernel_desc *code,
                                  const cuemu_config *config) {
  return cuemu__limit_thread_stack(launch_stack_size(code, config));
}

cuemu_status cuemu__device_check_launch(const cuemu_launch_request *r) {
  if (!r || !r->kernel)
    return cuemu__report(CUEMU_INVALID_VALUE, "kernel must not be NULL");
  cuemu_status st = validate(r, cuemu__function_identity(r->kernel, r->args));
  cuemu_config config;
  if (st == CUEMU_SUCCESS)
    st = cuemu__config_launch(&config);
  return st;
}

cuemu_status cuemu__device_launch(const cuemu_launch_request *r) {
  if (!r || !r->kernel)
    return cuemu__report(CUEMU_INVALID_VALUE, "kernel must not be NULL");
  cuemu_status st = validate(r, cuemu__function_identity(r->kernel, r->args));
  cuemu_config config;
  if (st == CUEMU_SUCCESS)
    st = cuemu__config_launch(&config);
  if (st == CUEMU_SUCCESS)
    st = cuemu__limit_get(CUEMU_LIMIT_PRINTF_FIFO_SIZE, &config.printf_fifo);
  if (st == CUEMU_SUCCESS)
    config.thread_stack =
        cuemu__device_thread_stack(cuemu__function_code(r->kernel), &config);
  if (st == CUEMU_SUCCESS)
    st = cuemu__cluster_shape(r, cuemu__function_identity(r->kernel, r->args),
                              &config.cluster);
  config.sms = launch_sms(r);
  config.reports_fail =
      r->origin != CUEMU_LAUNCH_RUNTIME && !api_reports_go_on;
  config.whole_program = r->origin == CUEMU_LAUNCH_RUNTIME;
  /* CUDA prints the previous kernels' printf output when a kernel is
   * launched (where the host issues it: a stream's execution thread does
   * not print, cuemu__printf_flush_at_launch); the C API, which has no
   * synchronisation, when it ends. */
  cuemu__printf_flush_at_launch();
  if (st == CUEMU_SUCCESS) {
    /* The grids that kernel code launches run when the blocks are done. */
    cuemu_grid_children children;
    cuemu__children_init(&children, 0, r->kernel->name);
    config.grid_context = &children;
    st = cuemu__core_run(cuemu__function_code(r->kernel), r->grid, r->block,
                         r->dynamic_shared,
                         r->args, r->cooperative, &config);
    st = cuemu__children_run(&children, st, &config);
  }
  if (r->origin != CUEMU_LAUNCH_RUNTIME)
    cuemu__printf_flush_pending();
  if (r->origin == CUEMU_LAUNCH_RUNTIME)
    cuemu__device_stick(st);
  return st;
}
