/*
 * cuemu_rt_graph_device.c: device graph launch (see
 * cuemu_rt_graph_internal.h and docs/graphs.md): graphs instantiated with
 * cudaGraphInstantiateFlagDeviceLaunch, launched by kernel code into
 * cudaStreamGraphFireAndForget, cudaStreamGraphTailLaunch or
 * cudaStreamGraphFireAndForgetAsSibling.
 *
 * CUDA runs each graph launched from the device in an execution
 * environment of its own, which holds the graph's work and the
 * fire-and-forget launches it makes, and is complete when all of that is.
 * A host launch has a stream environment above the graph's. Here an
 * environment is a record on the stack of the host thread that runs the
 * launch; the grids of its kernel nodes point at it (the graph_env of
 * cuemu_child_grids.h), so a kernel thread finds it. A launch from kernel
 * code is checked at once and queued on an environment:
 *
 * - fire and forget: on the launching graph's environment, as a child; the
 *   children run once the graph's nodes are done, in launch order (CUDA
 *   starts them at once, to run beside the rest of the graph, and promises
 *   no order between them and it);
 * - sibling: on the parent of the launching graph's environment, as a
 *   fire-and-forget launch of that environment would be: it completes
 *   before the parent does, and the launching graph's tail launches do not
 *   wait for it;
 * - tail: on the launching graph's environment; when the environment is
 *   complete (the graph and every child), its tail launches run in launch
 *   order, each in the parent environment, and the tail launches a tail
 *   graph makes run before the rest of the list.
 *
 * Tail launches run in a loop, not by recursion, so that a graph that tail
 * launches itself again and again (cudaGetCurrentGraphExec) does not grow
 * the stack.
 */
#include <stdint.h>
#include <stdlib.h>

#include <cuemu/cuemu_device.h>
#include <cuemu/cuemu_device_runtime.h>
#include <cuemu/cuemu_runtime.h>

#include "base/cuemu_config.h"
#include "base/cuemu_report.h"
#include "core/cuemu_core.h"
#include "device/cuemu_child_grids.h"
#include "runtime/cuemu_rt_graph_internal.h"

#define FLAG_DEVICE_LAUNCH 4ull

/* The named streams of device graph launch (cuda_device_runtime_api.h's
 * values). */
#define STREAM_TAIL ((void *)(uintptr_t)0x0100000000000000ull)
#define STREAM_FIRE_AND_FORGET ((void *)(uintptr_t)0x0200000000000000ull)
#define STREAM_SIBLING ((void *)(uintptr_t)0x0300000000000000ull)

/* CUDA's limits: fire-and-forget launches during one execution of a
 * graph, and tail launches a graph has pending. */
#define MAX_FIRE_AND_FORGET 120
#define MAX_PENDING_TAILS 255

typedef struct device_launch {
  struct device_launch *next;
  cuemu_rt_graph_exec *exec;
} device_launch;

typedef struct launch_list {
  device_launch *first, *last;
} launch_list;

/* What one launch from kernel code gave, for the second run of its grid
 * under schedule perturbation (see cuemu__graph_device_launch). */
typedef struct launch_result {
  const void *grid; /* cuemu__core_grid_context() of the launching grid */
  unsigned block[3], thread[3];
  int code;
  int replayed;
} launch_result;

typedef struct graph_env {
  struct graph_env *parent;
  cuemu_rt_graph_exec *exec; /* NULL for the stream environment */
  int device_graph;          /* exec was instantiated for device launch */
  launch_list children;      /* fire-and-forget launches, in launch order */
  launch_list tails;         /* tail launches, in launch order */
  unsigned fire_and_forget;  /* launched as children so far */
  unsigned tail_count;
  int self_tail;          /* a tail launch of exec itself is pending */
  launch_result *results; /* the launches of its grids' first runs */
  size_t nresults, results_capacity;
} graph_env;

static void list_push(launch_list *l, device_launch *d) {
  d->next = NULL;
  if (l->last)
    l->last->next = d;
  else
    l->first = d;
  l->last = d;
}

static device_launch *list_pop(launch_list *l) {
  device_launch *d = l->first;
  if (d) {
    l->first = d->next;
    if (!l->first)
      l->last = NULL;
  }
  return d;
}

/* ---- Instantiation ------------------------------------------------------ */

/* A memcpy node side: device, managed or pinned host memory (what
 * cudaPointerGetAttributes does not call unregistered), looked up without
 * touching the thread's last error. */
static int device_accessible(const void *p) {
  cuemu_rt_allocation a;
  return p && cuemu_rt_memory_find(p, &a) && a.state == CUEMU_RT_MEMORY_LIVE;
}

/* Checks the nodes of g and of the graphs inside it; counts in *work the
 * kernel, memcpy and memset nodes; *device is the device of the first
 * node seen (-1 before), which every other must share. */
static int check_nodes(cuemu_rt_graph *g, cuemu_rt_graph_node **bad,
                       int *result, size_t *work, int *device) {
  for (size_t i = 0; i < g->nodes.n; ++i) {
    cuemu_rt_graph_node *node = g->nodes.v[i];
    const char *why = NULL;
    if (*device < 0)
      *device = node->device;
    if (node->device != *device) {
      *bad = node;
      *result = CUEMU_RT_INSTANTIATE_MULTIPLE_DEVICES;
      return cuemu__graph_fail(cudaErrorInvalidValue,
                               "cudaGraphInstantiateFlagDeviceLaunch: the "
                               "graph cannot be launched from the device: "
                               "its nodes are on devices %d and %d (a %s "
                               "node), and must be on one",
                               *device, node->device,
                               cuemu__graph_type_name(node->p.type));
    }
    switch (node->p.type) {
    case CUEMU_RT_NODE_KERNEL: {
      /* Dynamic parallelism is not permitted in a device graph: known for
       * a kernel whose own body launches grids (cuemu-cc marks it); one
       * that launches through a device function it calls is refused at
       * that launch instead (cuemu_device_launch.c). */
      const cuemu_rt_graph_kernel *k = &node->p.u.kernel;
      if (cuemu_kernel_launches_grids(k->desc && k->desc->function
                                          ? k->desc->function
                                          : k->function))
        why = "its kernel launches grids (dynamic parallelism)";
      ++*work;
      break;
    }
    case CUEMU_RT_NODE_MEMSET:
      ++*work;
      break;
    case CUEMU_RT_NODE_MEMCPY: {
      const cuemu_rt_graph_memcpy *m = &node->p.u.memcpy;
      if (m->src_array || m->dst_array)
        why = "a memcpy node copies a CUDA array";
      else if (!device_accessible(m->src) || !device_accessible(m->dst))
        why = "a memcpy node copies pageable host memory (only device "
              "memory and pinned, mapped host memory may be copied)";
      ++*work;
      break;
    }
    case CUEMU_RT_NODE_GRAPH: {
      int code =
          check_nodes(node->p.u.child.graph, bad, result, work, device);
      if (code)
        return code;
      break;
    }
    default:
      why = "it has a node that is not a kernel, memcpy, memset or child "
            "graph node";
    }
    if (why) {
      *bad = node;
      *result = CUEMU_RT_INSTANTIATE_NOT_SUPPORTED;
      return cuemu__graph_fail(cudaErrorInvalidValue,
                               "cudaGraphInstantiateFlagDeviceLaunch: the "
                               "graph cannot be launched from the device: "
                               "%s (%s node)",
                               why, cuemu__graph_type_name(node->p.type));
    }
  }
  return cudaSuccess;
}

int cuemu__graph_check_device(cuemu_rt_graph *g, cuemu_rt_graph_node **bad,
                              int *result) {
  size_t work = 0;
  int device = -1;
  int code = check_nodes(g, bad, result, &work, &device);
  if (code == cudaSuccess && work == 0) {
    *result = CUEMU_RT_INSTANTIATE_ERROR;
    code = cuemu__graph_fail(cudaErrorInvalidValue,
                             "cudaGraphInstantiateFlagDeviceLaunch: a device "
                             "graph must have a kernel, memcpy or memset "
                             "node");
  }
  return code;
}

/* ---- Running ------------------------------------------------------------ */

static void run_with_tails(device_launch *d, graph_env *parent, void *stream,
                           int *code);

/* Runs graph g of exec in a new environment under `parent`: its nodes, then
 * its children; gives back its tail launches in *tails. */
static int run_env(cuemu_rt_graph_exec *exec, cuemu_rt_graph *g,
                   graph_env *parent, void *stream, unsigned long long n,
                   launch_list *tails) {
  graph_env env = {.parent = parent, .exec = exec};
  env.device_graph = exec && (exec->flags & FLAG_DEVICE_LAUNCH);
  void *before = cuemu__children_set_graph_env(&env, env.device_graph);
  int code = cuemu__graph_run(g, stream, n);
  cuemu__children_set_graph_env(before, 0);
  /* Graphs launched as children may launch siblings into this list. */
  for (;;) {
    cuemu__graph_lock();
    device_launch *d = list_pop(&env.children);
    cuemu__graph_unlock();
    if (!d)
      break;
    run_with_tails(d, &env, stream, &code);
  }
  *tails = env.tails;
  free(env.results);
  return code;
}

/* Runs (or, after an error, discards) one launch from the device: the
 * graph as it was last uploaded, in an environment under `parent`; gives back
 * its tail launches. */
static void run_one(device_launch *d, graph_env *parent, void *stream,
                    int *code, launch_list *tails) {
  tails->first = tails->last = NULL;
  cuemu_rt_graph *g = NULL;
  struct cuemu__exec_launches *use = NULL;
  unsigned long long n = 0;
  cuemu__graph_lock();
  int live = cuemu__graph_live(d->exec, CUEMU__LIVE_EXEC);
  if (live && *code == cudaSuccess && !cuemu_rt_sticky()) {
    use = cuemu__graph_exec_hold_uploaded(d->exec, &g);
    n = d->exec->launches++;
  }
  cuemu__graph_unlock();
  if (use) {
    int c = run_env(d->exec, g, parent, stream, n, tails);
    if (*code == cudaSuccess)
      *code = c;
  } else if (live && *code == cudaSuccess && !cuemu_rt_sticky()) {
    *code = cuemu_rt_error(cudaErrorInvalidValue); /* never uploaded */
  }
  cuemu__graph_lock();
  if (use)
    cuemu__graph_exec_release(use);
  /* The host may have destroyed the executable graph while it ran. */
  if (live && cuemu__graph_live(d->exec, CUEMU__LIVE_EXEC))
    d->exec->device_pending--;
  cuemu__graph_unlock();
  free(d);
}

/* Runs launch `d` and then the tail launches it leaves, each in `parent`,
 * a tail graph's own tail launches first. */
static void run_with_tails(device_launch *d, graph_env *parent, void *stream,
                           int *code) {
  launch_list todo = {NULL, NULL};
  list_push(&todo, d);
  while ((d = list_pop(&todo)) != NULL) {
    launch_list tails;
    run_one(d, parent, stream, code, &tails);
    if (tails.last) {
      tails.last->next = todo.first;
      if (!todo.first)
        todo.last = tails.last;
      todo.first = tails.first;
    }
  }
}

int cuemu__graph_run_host_launch(cuemu_rt_graph_exec *exec, cuemu_rt_graph *g,
                                 void *stream, unsigned long long launch) {
  graph_env stream_env = {0};
  cuemu__graph_lock();
  if (exec)
    exec->device_pending++; /* it runs: not to be launched from the device */
  cuemu__graph_unlock();
  launch_list tails;
  int code = run_env(exec, g, &stream_env, stream, launch, &tails);
  cuemu__graph_lock();
  if (exec && cuemu__graph_live(exec, CUEMU__LIVE_EXEC))
    exec->device_pending--;
  cuemu__graph_unlock();
  free(stream_env.results); /* kernels run in graph environments only */
  /* The tail launches of the host's graph, then the siblings launched into
   * the stream environment (which may come from either). */
  device_launch *d;
  while ((d = list_pop(&tails)) != NULL)
    run_with_tails(d, &stream_env, stream, &code);
  for (;;) {
    cuemu__graph_lock();
    d = list_pop(&stream_env.children);
    cuemu__graph_unlock();
    if (!d)
      break;
    run_with_tails(d, &stream_env, stream, &code);
  }
  return code;
}

/* ---- Launches from kernel code ------------------------------------------ */

/* The launch's error: recorded for cuemu_last_message() (of the worker
 * that runs the thread) and as the calling CUDA thread's last error. */
static int refuse(int code, const char *why) {
  const char *kernel = cuemu__children_kernel();
  cuemu__report(CUEMU_INVALID_VALUE,
                "cudaGraphLaunch in kernel %s (block (%u,%u,%u), thread "
                "(%u,%u,%u)): %s",
                kernel ? kernel : "?", blockIdx.x, blockIdx.y, blockIdx.z,
                threadIdx.x, threadIdx.y, threadIdx.z, why);
  return cuemu_device_record_error(code);
}

/* Notes a launch's result in the first run of its grid (the lock held);
 * without memory, the second run's launch succeeds. */
static void note_result(graph_env *env, int code) {
  if (env->nresults == env->results_capacity) {
    size_t cap = env->results_capacity ? 2 * env->results_capacity : 16;
    launch_result *grown = realloc(env->results, cap * sizeof *grown);
    if (!grown)
      return;
    env->results = grown;
    env->results_capacity = cap;
  }
  env->results[env->nresults++] =
      (launch_result){cuemu__core_grid_context(),
                      {blockIdx.x, blockIdx.y, blockIdx.z},
                      {threadIdx.x, threadIdx.y, threadIdx.z},
                      code,
                      0};
}

/* The second run's launch: the result of the calling thread's first
 * launch in the first run that no launch of the second run took yet. */
static int replay_result(graph_env *env) {
  const void *grid = cuemu__core_grid_context();
  int code = cudaSuccess;
  cuemu__graph_lock();
  for (size_t i = 0; i < env->nresults; ++i) {
    launch_result *r = &env->results[i];
    if (!r->replayed && r->grid == grid && r->block[0] == blockIdx.x &&
        r->block[1] == blockIdx.y && r->block[2] == blockIdx.z &&
        r->thread[0] == threadIdx.x && r->thread[1] == threadIdx.y &&
        r->thread[2] == threadIdx.z) {
      r->replayed = 1;
      code = r->code;
      break;
    }
  }
  cuemu__graph_unlock();
  return cuemu_device_record_error(code);
}

int cuemu__graph_device_launch(cuemu_rt_graph_exec *exec, void *stream) {
  graph_env *env = cuemu__children_graph_env();
  if (stream != STREAM_TAIL && stream != STREAM_FIRE_AND_FORGET &&
      stream != STREAM_SIBLING)
    return refuse(cudaErrorInvalidValue,
                  "a graph is launched from the device only into "
                  "cudaStreamGraphFireAndForget, cudaStreamGraphTailLaunch "
                  "or cudaStreamGraphFireAndForgetAsSibling");
  if (!env)
    return refuse(cudaErrorInvalidValue,
                  "a graph is launched from the device only by a kernel "
                  "that runs in a graph");
  /* Schedule perturbation runs a grid twice: the first run's launches are
   * the ones that run, and each launch of the second run gives what the
   * same thread's launch in the first run gave. */
  if (cuemu__core_replaying())
    return replay_result(env);
  const char *why = NULL;
  int code = cudaErrorInvalidValue;
  device_launch *d = NULL;
  cuemu__graph_lock();
  int self = exec == env->exec;
  graph_env *into = stream == STREAM_SIBLING ? env->parent : env;
  if (!cuemu__graph_live(exec, CUEMU__LIVE_EXEC))
    why = "the executable graph is not valid";
  else if (!(exec->flags & FLAG_DEVICE_LAUNCH))
    why = "the graph was not instantiated with "
          "cudaGraphInstantiateFlagDeviceLaunch";
  else if (!exec->uploaded)
    why = "the executable graph was never uploaded (cudaGraphUpload, "
          "cudaGraphInstantiateFlagUpload, or a launch from the host)";
  else if (stream == STREAM_TAIL && self && env->self_tail)
    why = "the graph already has a tail launch of itself pending";
  else if (exec->device_pending && !(stream == STREAM_TAIL && self))
    why = "a previous launch of the graph is still queued or running";
  else if (stream == STREAM_TAIL && env->tail_count >= MAX_PENDING_TAILS) {
    code = cudaErrorLaunchPendingCountExceeded;
    why = "the graph has 255 tail launches pending";
  } else if (stream != STREAM_TAIL &&
             into->fire_and_forget >= MAX_FIRE_AND_FORGET) {
    code = cudaErrorLaunchPendingCountExceeded;
    why = "a graph makes at most 120 fire-and-forget launches in one "
          "execution";
  } else if ((d = calloc(1, sizeof *d)) == NULL) {
    code = cudaErrorMemoryAllocation;
    why = "out of memory";
  } else {
    d->exec = exec;
    exec->device_pending++;
    if (stream == STREAM_TAIL) {
      env->tail_count++;
      env->self_tail |= self;
      list_push(&env->tails, d);
    } else {
      into->fire_and_forget++;
      list_push(&into->children, d);
    }
  }
  if (cuemu__config_check_schedules())
    note_result(env, why ? code : cudaSuccess);
  cuemu__graph_unlock();
  return why ? refuse(code, why) : cudaSuccess;
}

/* cudaGetCurrentGraphExec: the device graph the calling kernel runs in. */
cuemu_rt_graph_exec *cuemu_rt_graph_current_exec(void) {
  graph_env *env = cuemu__children_graph_env();
  return env && env->device_graph ? env->exec : NULL;
}
