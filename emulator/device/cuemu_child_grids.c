/*
 * cuemu_child_grids.c: launches from kernel code and the device runtime's
 * last error (see cuemu_child_grids.h and cuemu_device_runtime.h).
 *
 * The scheme is CDP2's: a child grid may start any time after its launch
 * and must complete before its parent grid is complete, and kernel code
 * has no way to wait for it (cudaDeviceSynchronize in kernel code is
 * refused when compiling). So each launch is checked at once, queued with
 * a copy of its arguments, and run after the parent's blocks are done, in
 * launch order, each to completion with everything it launched: launches
 * into one stream stay ordered, and grids of different streams may run in
 * any order on the GPU, launch order included. Tail launches run after
 * all of the parent's other work, in their launch order.
 */
#include "device/cuemu_child_grids.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cuemu/cuemu.h>
#include <cuemu/cuemu_rt_types.h>

#include "base/cuemu_report.h"
#include "core/cuemu_core.h"
#include "device/cuemu_device_model.h"
#include "device/cuemu_device_launch.h"
#include "device/cuemu_functions.h"
#include "device/cuemu_handles.h"
#include "device/cuemu_limits.h"

typedef struct cuemu_child_grid {
  struct cuemu_child_grid *next;
  const cuemu_kernel_desc *kernel;
  cuemu_dim3 grid, block, cluster;
  size_t dynamic_shared;
  void **args;
  void *owner;
  cuemu_child_release_fn release;
} cuemu_child_grid;

typedef struct cuemu_thread_error {
  unsigned long long block;
  unsigned thread;
  int code;
} cuemu_thread_error;

/* Launched grids that have not started yet, in the whole process. */
static atomic_long pending;

/* The graph execution environment of the grids the host thread launches. */
static __thread void *graph_env_now;
static __thread int device_graph_now;

void *cuemu__children_set_graph_env(void *env, int device_graph) {
  void *before = graph_env_now;
  graph_env_now = env;
  device_graph_now = env ? device_graph : 0;
  return before;
}

void cuemu__children_init(cuemu_grid_children *c, int depth,
                          const char *kernel) {
  memset(c, 0, sizeof *c);
  pthread_mutex_init(&c->lock, NULL);
  c->depth = depth;
  c->device = cuemu__device_current();
  c->kernel = kernel;
  c->graph_env = graph_env_now;
  c->device_graph = device_graph_now;
}

static void release(cuemu_child_grid *g) {
  if (g->release)
    g->release(g->owner);
  free(g);
}

/* Runs one launched grid and what it launches. */
static cuemu_status run_one(cuemu_child_grid *g, int depth,
                            const char *parent, const cuemu_config *base) {
  cuemu_grid_children mine;
  cuemu__children_init(&mine, depth, g->kernel->name);
  cuemu_config config = *base;
  config.grid_context = &mine;
  config.cluster = g->cluster; /* the kernel's __cluster_dims__ */
  config.thread_stack = cuemu__device_thread_stack(g->kernel, base);
  cuemu_status st =
      cuemu__core_run(g->kernel, g->grid, g->block, g->dynamic_shared,
                      g->args, 0, &config);
  if (st != CUEMU_SUCCESS)
    st = cuemu__report(st, "%s (in a grid that kernel %s launched from "
                           "kernel code)",
                       cuemu_last_message(), parent);
  return cuemu__children_run(&mine, st, base);
}

/* Runs a list of launches in order; after an error, discards the rest. */
static cuemu_status run_list(cuemu_child_grid *g, cuemu_status st, int depth,
                             const char *parent, const cuemu_config *config) {
  while (g) {
    cuemu_child_grid *next = g->next;
    atomic_fetch_sub(&pending, 1);
    if (st == CUEMU_SUCCESS)
      st = run_one(g, depth, parent, config);
    release(g);
    g = next;
  }
  return st;
}

cuemu_status cuemu__children_run(cuemu_grid_children *c, cuemu_status status,
                                 const cuemu_config *config) {
  cuemu_status st = status;
  /* Grids that a grid launches are queued on its own record, so these
   * lists no longer change. */
  st = run_list(c->first, st, c->depth + 1, c->kernel, config);
  st = run_list(c->tail_first, st, c->depth + 1, c->kernel, config);
  free(c->errors);
  pthread_mutex_destroy(&c->lock);
  return st;
}

static long count_list(const cuemu_child_grid *g) {
  long n = 0;
  for (; g; g = g->next)
    ++n;
  return n;
}

void cuemu__children_take(void *grid_context, cuemu_children_state *state) {
  memset(state, 0, sizeof *state);
  cuemu_grid_children *c = grid_context;
  if (!c)
    return;
  pthread_mutex_lock(&c->lock);
  *state = (cuemu_children_state){c->first,       c->last,
                                  c->tail_first,  c->tail_last,
                                  c->errors,      c->error_count,
                                  c->error_capacity, 0};
  state->queued = count_list(c->first) + count_list(c->tail_first);
  c->first = c->last = c->tail_first = c->tail_last = NULL;
  c->errors = NULL;
  c->error_count = c->error_capacity = 0;
  pthread_mutex_unlock(&c->lock);
  atomic_fetch_sub(&pending, state->queued);
}

void cuemu__children_put(void *grid_context, const cuemu_children_state *state) {
  cuemu_grid_children *c = grid_context;
  if (!c)
    return;
  pthread_mutex_lock(&c->lock);
  cuemu_child_grid *drop[2] = {c->first, c->tail_first};
  free(c->errors);
  c->first = state->first;
  c->last = state->last;
  c->tail_first = state->tail_first;
  c->tail_last = state->tail_last;
  c->errors = state->errors;
  c->error_count = state->error_count;
  c->error_capacity = state->error_capacity;
  pthread_mutex_unlock(&c->lock);
  atomic_fetch_add(&pending, state->queued);
  for (int k = 0; k < 2; ++k)
    for (cuemu_child_grid *g = drop[k], *next; g; g = next) {
      next = g->next;
      atomic_fetch_sub(&pending, 1);
      release(g);
    }
}

/* ---- The calling CUDA thread's last error -------------------------------- */

static void thread_key(unsigned long long *block, unsigned *thread) {
  *block = ((unsigned long long)blockIdx.z * gridDim.y + blockIdx.y) *
               gridDim.x +
           blockIdx.x;
  *thread = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x +
            threadIdx.x;
}

static cuemu_grid_children *current(void) {
  return (cuemu_grid_children *)cuemu__core_grid_context();
}

void *cuemu__children_graph_env(void) {
  cuemu_grid_children *c = current();
  return c ? c->graph_env : NULL;
}

const char *cuemu__children_kernel(void) {
  cuemu_grid_children *c = current();
  return c ? c->kernel : NULL;
}

int cuemu_device_record_error(int code) {
  cuemu_grid_children *c = current();
  if (!c || code == 0)
    return code;
  unsigned long long block;
  unsigned thread;
  thread_key(&block, &thread);
  pthread_mutex_lock(&c->lock);
  size_t i;
  for (i = 0; i < c->error_count; ++i)
    if (c->errors[i].block == block && c->errors[i].thread == thread)
      break;
  if (i == c->error_count && c->error_count == c->error_capacity) {
    size_t cap = c->error_capacity ? 2 * c->error_capacity : 16;
    cuemu_thread_error *grown = realloc(c->errors, cap * sizeof *grown);
    if (grown) {
      c->errors = grown;
      c->error_capacity = cap;
    }
  }
  if (i < c->error_capacity) {
    c->errors[i].block = block;
    c->errors[i].thread = thread;
    c->errors[i].code = code;
    if (i == c->error_count)
      c->error_count++;
  }
  pthread_mutex_unlock(&c->lock);
  return code;
}

int cuemu_device_last_error(int take) {
  cuemu_grid_children *c = current();
  if (!c)
    return cudaSuccess;
  unsigned long long block;
  unsigned thread;
  thread_key(&block, &thread);
  int code = cudaSuccess;
  pthread_mutex_lock(&c->lock);
  for (size_t i = 0; i < c->error_count; ++i)
    if (c->errors[i].block == block && c->errors[i].thread == thread) {
      code = c->errors[i].code;
      if (take)
        c->errors[i] = c->errors[--c->error_count];
      break;
    }
  pthread_mutex_unlock(&c->lock);
  return code;
}

/* ---- Launches ------------------------------------------------------------ */

/* The launch's error, recorded as the thread's last error, after releasing
 * what the launch owned. */
static int refuse(int code, void *owner, cuemu_child_release_fn rel) {
  if (rel)
    rel(owner);
  return cuemu_device_record_error(code);
}

int cuemu_device_launch(const cuemu_kernel_desc *kernel, cuemu_uint3 grid,
                        cuemu_uint3 block, size_t dynamic_shared,
                        void *stream, void **args, void *owner,
                        cuemu_child_release_fn rel) {
  cuemu_grid_children *c = current();
  if (!c || !kernel)
    return refuse(cudaErrorInvalidValue, owner, rel);
  const cuemu_kernel_desc *registered = cuemu__function_find(kernel->function);
  if (registered)
    kernel = registered;
  cuemu_launch_request r = {
      .kernel = kernel,
      .grid = {grid.x, grid.y, grid.z},
      .block = {block.x, block.y, block.z},
      .dynamic_shared = dynamic_shared,
      .stream = stream,
      .args = args,
      .origin = CUEMU_LAUNCH_RUNTIME,
  };
  cuemu_dim3 cluster;
  cuemu_status st = cuemu__device_check_child(&r, &cluster);
  if (st != CUEMU_SUCCESS)
    return refuse(cuemu_status_cuda_error(st), owner, rel);
  if (c->device_graph) {
    cuemu__report(CUEMU_NOT_SUPPORTED,
                  "kernel %s launches a grid from kernel code in a graph "
                  "instantiated for device launch, where CUDA does not "
                  "permit dynamic parallelism",
                  c->kernel);
    return refuse(cudaErrorNotSupported, owner, rel);
  }
  /* Schedule perturbation runs the parent twice: the second run's
   * launches are checked and queued as the first run's were, from the same
   * state, and then discarded (cuemu__children_put), so that both runs see
   * the same results (a launch too deep or past the pending-launch limit
   * fails in both). */
  int tail = stream == CUEMU_STREAM_TAIL_LAUNCH;
  /* The per-block default stream (NULL), the two named streams, and
   * streams created in kernel code (cudaStreamCreateWithFlags with
   * cudaStreamNonBlocking). */
  if (stream && !tail && stream != CUEMU_STREAM_FIRE_AND_FORGET &&
      (cuemu__handle_is_default_stream(stream) ||
       !cuemu__handle_stream_valid(stream)))
    return refuse(cudaErrorInvalidResourceHandle, owner, rel);
  if (c->depth + 1 > CUEMU_MAX_LAUNCH_DEPTH)
    return refuse(cudaErrorLaunchMaxDepthExceeded, owner, rel);
  size_t limit = 0;
  cuemu__limit_get(CUEMU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT, &limit);
  if ((size_t)atomic_fetch_add(&pending, 1) >= limit) {
    atomic_fetch_sub(&pending, 1);
    return refuse(cudaErrorLaunchPendingCountExceeded, owner, rel);
  }
  cuemu_child_grid *g = calloc(1, sizeof *g);
  if (!g) {
    atomic_fetch_sub(&pending, 1);
    return refuse(cudaErrorMemoryAllocation, owner, rel);
  }
  g->kernel = kernel;
  g->grid = r.grid;
  g->block = r.block;
  g->cluster = cluster;
  g->dynamic_shared = dynamic_shared;
  g->args = args;
  g->owner = owner;
  g->release = rel;
  pthread_mutex_lock(&c->lock);
  cuemu_child_grid **first = tail ? &c->tail_first : &c->first;
  cuemu_child_grid **last = tail ? &c->tail_last : &c->last;
  if (*last)
    (*last)->next = g;
  else
    *first = g;
  *last = g;
  pthread_mutex_unlock(&c->lock);
  return cudaSuccess;
}

/* ---- cudaGetParameterBuffer and cudaLaunchDevice ------------------------- */

/* What a launch from a parameter buffer owns: the buffer and the argument
 * pointers into it. */
typedef struct buffer_args {
  void *buffer;
  void *args[];
} buffer_args;

static void free_buffer_args(void *owner) {
  buffer_args *b = owner;
  free(b->buffer);
  free(b);
}

void *cuemu_device_parameter_buffer(size_t alignment, size_t size) {
  if (alignment < sizeof(void *))
    alignment = sizeof(void *);
  if (alignment & (alignment - 1))
    return NULL;
  size_t rounded = (size ? size : 1) + alignment - 1;
  rounded -= rounded % alignment;
  void *p = aligned_alloc(alignment, rounded);
  if (p)
    memset(p, 0, rounded);
  return p;
}

int cuemu_device_launch_buffer(const void *function, void *buffer,
                               cuemu_uint3 grid, cuemu_uint3 block,
                               unsigned dynamic_shared, void *stream) {
  const cuemu_kernel_desc *k = function ? cuemu__function_find(function)
                                        : NULL;
  if (!k) {
    free(buffer);
    return cuemu_device_record_error(cudaErrorInvalidDeviceFunction);
  }
  int n = k->param_count;
  buffer_args *b = malloc(sizeof *b + (size_t)(n + 1) * sizeof(void *));
  if (!b || (n > 0 && (!buffer || !k->params))) {
    free(b);
    free(buffer);
    return cuemu_device_record_error(b ? cudaErrorInvalidValue
                                       : cudaErrorMemoryAllocation);
  }
  b->buffer = buffer;
  /* Each parameter at the next offset of its alignment, as in the
   * parameter buffer's documented layout. */
  size_t offset = 0;
  for (int i = 0; i < n; ++i) {
    size_t align = k->params[i].align ? k->params[i].align : 1;
    offset = (offset + align - 1) / align * align;
    b->args[i] = (char *)buffer + offset;
    offset += k->params[i].size;
  }
  b->args[n] = (void *)(uintptr_t)function;
  return cuemu_device_launch(k, grid, block, dynamic_shared, stream, b->args,
                             b, free_buffer_args);
}

void *cuemu_device_args_alloc(size_t size) { return malloc(size ? size : 1); }

void cuemu_device_args_free(void *p) { free(p); }
