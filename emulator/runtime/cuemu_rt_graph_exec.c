/*
 * cuemu_rt_graph_exec.c: executable graphs: instantiation (with its checks),
 * launch and upload, update from another graph, and per-node parameters
 * (see cuemu_runtime_graph.h).
 */
#include <stdint.h>
#include <stdlib.h>

#include <cuemu/cuemu_device.h>
#include <cuemu/cuemu_runtime.h>

#include "base/cuemu_config.h"
#include "core/cuemu_printf.h"
#include "device/cuemu_device_launch.h"
#include "device/cuemu_device_model.h"
#include "device/cuemu_handles.h"
#include "runtime/cuemu_rt_capture.h"
#include "runtime/cuemu_rt_graph_internal.h"
#include "runtime/cuemu_rt_graph_memory.h"
#include "runtime/cuemu_rt_internal.h"
#include "runtime/cuemu_rt_ipc_event.h"
#include "runtime/cuemu_rt_managed_guard.h"
#include "runtime/cuemu_rt_pinned_guard.h"
#include "runtime/cuemu_rt_stream_queue.h"

#define FLAG_AUTO_FREE 1ull
#define FLAG_UPLOAD 2ull
#define FLAG_DEVICE_LAUNCH 4ull
#define FLAG_NODE_PRIORITY 8ull

#define LIVE_EXEC(e) cuemu__graph_live((e), CUEMU__LIVE_EXEC)

static int unlock_with(int code) {
  cuemu__graph_unlock();
  return code ? cuemu_rt_error(code) : cudaSuccess;
}

/* ---- Instantiation ------------------------------------------------------------ */

/* Finds a node on a cycle of g (Kahn's algorithm leaves it), or NULL. */
static cuemu_rt_graph_node *cycle_node(cuemu_rt_graph *g) {
  size_t n = g->nodes.n, done = 0, nready = 0;
  size_t *pending = calloc(n + 1, sizeof *pending);
  size_t *ready = calloc(n + 1, sizeof *ready);
  cuemu_rt_graph_node *found = NULL;
  if (!pending || !ready)
    goto out;
  for (size_t i = 0; i < n; ++i)
    if ((pending[i] = g->nodes.v[i]->deps.n) == 0)
      ready[nready++] = i;
  while (nready) {
    cuemu_rt_graph_node *node = g->nodes.v[ready[--nready]];
    done++;
    for (size_t j = 0; j < node->outs.n; ++j)
      for (size_t k = 0; k < n; ++k)
        if (g->nodes.v[k] == node->outs.v[j] && --pending[k] == 0)
          ready[nready++] = k;
  }
  for (size_t i = 0; done < n && i < n; ++i)
    if (pending[i]) {
      found = g->nodes.v[i];
      break;
    }
out:
  free(pending);
  free(ready);
  return found;
}

/* Checks a graph and those inside it for instantiation; sets *bad and
 * *result on failure and returns the CUDA code. */
static int check_graph(cuemu_rt_graph *g, cuemu_rt_graph_node **bad,
                       int *result) {
  cuemu_rt_graph_node *cycle = cycle_node(g);
  if (cycle) {
    *bad = cycle;
    *result = CUEMU_RT_INSTANTIATE_INVALID_STRUCTURE;
    return cuemu__graph_fail(cudaErrorInvalidValue,
                             "cudaGraphInstantiate: the graph has a cycle "
                             "through a %s node",
                             cuemu__graph_type_name(cycle->p.type));
  }
  for (size_t i = 0; i < g->nodes.n; ++i) {
    cuemu_rt_graph_node *node = g->nodes.v[i];
    int code = cudaSuccess;
    if (node->p.type == CUEMU_RT_NODE_KERNEL) {
      void *stream = NULL;
      int previous = cuemu__graph_node_device_enter(node, &stream);
      cuemu_launch_request r = cuemu__graph_kernel_request(node, stream);
      cuemu_status st = cuemu__device_check_launch(&r);
      cuemu__device_select(previous);
      if (st != CUEMU_SUCCESS && !cuemu_status_is_sticky(st))
        code = cuemu_rt_error(cuemu_status_cuda_error(st));
    } else if (node->p.type == CUEMU_RT_NODE_MEM_ALLOC &&
               node->memory->instantiated) {
      code = cuemu__graph_fail(cudaErrorNotSupported,
                               "cudaGraphInstantiate: a graph with memory "
                               "allocation nodes has one executable graph "
                               "at a time; destroy the other first");
    } else if (node->p.type == CUEMU_RT_NODE_GRAPH) {
      code = check_graph(node->p.u.child.graph, bad, result);
      if (code)
        return code;
    } else if (node->p.type == CUEMU_RT_NODE_CONDITIONAL &&
               ((cuemu__graph_condition *)(uintptr_t)
                    node->p.u.conditional.handle)
                   ->instantiated) {
      /* CUDA: "Only one instantiation of the graph may exist at any point
       * in time" for a graph with conditional nodes. */
      code = cuemu__graph_fail(cudaErrorNotSupported,
                               "cudaGraphInstantiate: a graph with "
                               "conditional nodes has one executable graph "
                               "at a time; destroy the other first");
    } else if (node->p.type == CUEMU_RT_NODE_CONDITIONAL) {
      for (unsigned b = 0; b < node->p.u.conditional.size; ++b)
        if ((code = check_graph(node->bodies[b], bad, result)) != 0)
          return code;
    }
    if (code) {
      *bad = node;
      *result = CUEMU_RT_INSTANTIATE_ERROR;
      return code;
    }
  }
  return cudaSuccess;
}

/* Marks the memory of a graph's allocation nodes as held (or not) by an
 * executable graph. */
static void hold_memory(cuemu_rt_graph *g, int held) {
  for (size_t i = 0; i < g->nodes.n; ++i) {
    cuemu_rt_graph_node *node = g->nodes.v[i];
    if (node->memory)
      cuemu__graph_memory_hold(node->memory, held);
    if (node->p.type == CUEMU_RT_NODE_GRAPH)
      hold_memory(node->p.u.child.graph, held);
    for (unsigned b = 0; node->bodies && b < node->p.u.conditional.size; ++b)
      hold_memory(node->bodies[b], held);
  }
}

/* Marks the handles of g's conditional nodes (in bodies and child graphs
 * too) as instantiated (`exec` non-NULL: its list takes them) or not. An
 * update may give the executable graph other handles; the list keeps
 * those of the graph it was made from. */
static int hold_conditions(cuemu_rt_graph *g, cuemu_rt_graph_exec *exec) {
  for (size_t i = 0; i < g->nodes.n; ++i) {
    cuemu_rt_graph_node *node = g->nodes.v[i];
    if (node->p.type == CUEMU_RT_NODE_GRAPH &&
        hold_conditions(node->p.u.child.graph, exec) != 0)
      return -1;
    if (node->p.type != CUEMU_RT_NODE_CONDITIONAL)
      continue;
    cuemu__graph_condition *c =
        (cuemu__graph_condition *)(uintptr_t)node->p.u.conditional.handle;
    cuemu__graph_condition **v =
        realloc(exec->held, (exec->held_count + 1) * sizeof *v);
    if (!v)
      return -1;
    exec->held = v;
    v[exec->held_count++] = c;
    c->instantiated = 1;
    for (unsigned b = 0; b < node->p.u.conditional.size; ++b)
      if (hold_conditions(node->bodies[b], exec) != 0)
        return -1;
  }
  return 0;
}

static void release_conditions(cuemu_rt_graph_exec *exec) {
  for (size_t i = 0; i < exec->held_count; ++i)
    exec->held[i]->instantiated = 0;
  free(exec->held);
  exec->held = NULL;
  exec->held_count = 0;
}

static int note_upload(cuemu_rt_graph_exec *exec);
static void release_queued(struct cuemu__exec_launches *l);

int cuemu_rt_graph_instantiate(cuemu_rt_graph_exec **exec,
                               cuemu_rt_graph *graph, unsigned long long flags,
                               void *upload_stream,
                               cuemu_rt_graph_node **error_node, int *result) {
  cuemu_rt_graph_node *bad = NULL;
  int res = CUEMU_RT_INSTANTIATE_ERROR, code;
  if (error_node)
    *error_node = NULL;
  cuemu__graph_lock();
  if (!exec || !cuemu__graph_live(graph, CUEMU__LIVE_GRAPH) ||
      (flags & ~(FLAG_AUTO_FREE | FLAG_UPLOAD | FLAG_DEVICE_LAUNCH |
                 FLAG_NODE_PRIORITY)) ||
      ((flags & FLAG_UPLOAD) &&
       !cuemu__handle_stream_valid(upload_stream))) {
    code = cuemu_rt_error(cudaErrorInvalidValue);
  } else if (graph->owner && graph->owner->p.type == CUEMU_RT_NODE_GRAPH &&
             graph->owner->p.u.child.move) {
    code = cuemu__graph_fail(cudaErrorInvalidValue,
                             "cudaGraphInstantiate: the graph was moved into "
                             "a child graph node "
                             "(cudaGraphChildGraphOwnershipMove) and is "
                             "instantiated with its parent only");
  } else if ((flags & FLAG_DEVICE_LAUNCH) && (flags & FLAG_AUTO_FREE)) {
    code = cuemu__graph_fail(cudaErrorInvalidValue,
                             "cudaGraphInstantiate: "
                             "cudaGraphInstantiateFlagDeviceLaunch cannot be "
                             "used with "
                             "cudaGraphInstantiateFlagAutoFreeOnLaunch");
  } else {
    code = check_graph(graph, &bad, &res);
    if (code == cudaSuccess && (flags & FLAG_DEVICE_LAUNCH))
      code = cuemu__graph_check_device(graph, &bad, &res);
  }
  cuemu_rt_graph_exec *e = NULL;
  if (code == cudaSuccess) {
    e = calloc(1, sizeof *e);
    if (e)
      e->graph = cuemu__graph_copy(graph);
    if (!e || !e->graph || cuemu__graph_live_add(e, CUEMU__LIVE_EXEC) != 0) {
      if (e && e->graph)
        cuemu__graph_free(e->graph);
      free(e);
      code = cuemu_rt_error(cudaErrorMemoryAllocation);
    } else {
      e->flags = flags;
      hold_memory(e->graph, 1);
      if (hold_conditions(graph, e) != 0)
        code = cudaErrorMemoryAllocation;
      if (!code && (flags & FLAG_UPLOAD)) { /* the upload maps its memory */
        cuemu__graph_memory_upload(e->graph);
        code = note_upload(e);
      }
      if (code) {
        hold_memory(e->graph, 0);
        release_conditions(e);
        cuemu__graph_live_remove(e);
        cuemu__graph_free(e->graph);
        free(e);
        code = cuemu_rt_error(code);
      } else {
        *exec = e;
        res = CUEMU_RT_INSTANTIATE_SUCCESS;
      }
    }
  }
  cuemu__graph_unlock();
  if (result)
    *result = res;
  if (error_node)
    *error_node = bad;
  return code;
}

/* ---- Queued launches -------------------------------------------------------
 * A launch queued on a stream runs the executable graph as it was when the
 * launch was issued, without the host waiting for it: the queued launches
 * of exec->graph share it (a count), and an update or a destruction while
 * any is pending leaves that graph to them (retired: the last one frees
 * it), the update working on a copy. */
typedef struct cuemu__exec_launches {
  cuemu_rt_graph_exec *exec; /* whose graph it is, unless retired */
  cuemu_rt_graph *graph;
  unsigned pending;
  int retired;
} exec_launches;

/* The origins of g's copy `to` as in g (cuemu__graph_copy makes them g's
 * ids): the executable graph's nodes keep naming the nodes they copy. */
static void keep_origins(cuemu_rt_graph *to, const cuemu_rt_graph *g) {
  for (size_t i = 0; i < g->nodes.n; ++i) {
    cuemu_rt_graph_node *a = to->nodes.v[i];
    const cuemu_rt_graph_node *b = g->nodes.v[i];
    a->origin = b->origin;
    a->origin2 = b->origin2;
    if (b->p.type == CUEMU_RT_NODE_GRAPH)
      keep_origins(a->p.u.child.graph, b->p.u.child.graph);
    for (unsigned k = 0; b->bodies && b->p.type == CUEMU_RT_NODE_CONDITIONAL &&
                         k < b->p.u.conditional.size;
         ++k)
      keep_origins(a->bodies[k], b->bodies[k]);
  }
}

/* Before exec's graph changes or goes (the lock held): when queued
 * launches use it, it becomes theirs, and exec gets a copy (with `copy`);
 * a CUDA code. */
static int detach_queued(cuemu_rt_graph_exec *exec, int copy) {
  exec_launches *q = exec->queued;
  if (!q)
    return cudaSuccess;
  cuemu_rt_graph *mine = NULL;
  if (copy) {
    mine = cuemu__graph_copy(exec->graph);
    if (!mine)
      return cudaErrorMemoryAllocation;
    keep_origins(mine, exec->graph);
  }
  q->retired = 1;
  exec->queued = NULL;
  exec->graph = mine;
  return cudaSuccess;
}

int cuemu_rt_graph_exec_destroy(cuemu_rt_graph_exec *exec) {
  /* Its key orders no launch any more (queue_launch). */
  cuemu__stream_forget_event(exec);
  cuemu__graph_lock();
  if (!LIVE_EXEC(exec))
    return unlock_with(cudaErrorInvalidValue);
  cuemu__graph_live_remove(exec);
  hold_memory(exec->graph, 0);
  release_conditions(exec);
  if (exec->uploaded) /* the graph the device launched */
    release_queued(exec->uploaded);
  /* Queued launches still run, as CUDA lets them; the last frees the
   * graph. */
  if (exec->queued)
    detach_queued(exec, 0);
  else
    cuemu__graph_free(exec->graph);
  free(exec);
  return unlock_with(cudaSuccess);
}

int cuemu_rt_graph_exec_get_flags(cuemu_rt_graph_exec *exec,
                                  unsigned long long *flags) {
  cuemu__graph_lock();
  if (!flags || !LIVE_EXEC(exec))
    return unlock_with(cudaErrorInvalidValue);
  *flags = exec->flags;
  return unlock_with(cudaSuccess);
}

/* ---- Launch ---------------------------------------------------------------- */

/* Sets the conditional handles that ask for it to their default values. */
static void reset_conditions(cuemu_rt_graph *g) {
  for (size_t i = 0; i < g->nodes.n; ++i) {
    cuemu_rt_graph_node *node = g->nodes.v[i];
    if (node->p.type == CUEMU_RT_NODE_GRAPH)
      reset_conditions(node->p.u.child.graph);
    if (node->p.type != CUEMU_RT_NODE_CONDITIONAL)
      continue;
    cuemu__graph_condition *c =
        (cuemu__graph_condition *)(uintptr_t)node->p.u.conditional.handle;
    if (c->flags & 1u)
      __atomic_store_n(&c->value, c->default_value, __ATOMIC_RELAXED);
    for (unsigned b = 0; b < node->p.u.conditional.size; ++b)
      reset_conditions(node->bodies[b]);
  }
}

/* The events a launch of g records, added to events[*n] (growing it at
 * *cap); 0 without memory. */
static int graph_records(const cuemu_rt_graph *g, void ***events, size_t *n,
                         size_t *cap) {
  for (size_t i = 0; i < g->nodes.n; ++i) {
    const cuemu_rt_graph_node *node = g->nodes.v[i];
    if (node->p.type == CUEMU_RT_NODE_EVENT_RECORD &&
        cuemu__rt_reserve_one((void **)events, n, cap, sizeof **events))
      (*events)[(*n)++] = node->p.u.event.event;
    else if (node->p.type == CUEMU_RT_NODE_EVENT_RECORD)
      return 0;
    if (node->p.type == CUEMU_RT_NODE_GRAPH &&
        !graph_records(node->p.u.child.graph, events, n, cap))
      return 0;
    for (unsigned b = 0; node->bodies &&
                         node->p.type == CUEMU_RT_NODE_CONDITIONAL &&
                         b < node->p.u.conditional.size;
         ++b)
      if (!graph_records(node->bodies[b], events, n, cap))
        return 0;
  }
  return 1;
}

/* Runs launch number `n` of executable graph g (of `exec`, or NULL when
 * that is gone) into `stream`; `auto_free` first frees the allocations the
 * previous launch left allocated. */
static int run_launch(cuemu_rt_graph_exec *exec, cuemu_rt_graph *g,
                      void *stream, unsigned long long n, int auto_free) {
  if (auto_free)
    cuemu__graph_memory_free_on_launch(g);
  reset_conditions(g);
  cuemu__capture_bypass++;
  int code = cuemu__graph_run_host_launch(exec, g, stream, n);
  cuemu__capture_bypass--;
  if (code) /* its allocations as the run left them */
    cuemu__graph_memory_launch_failed(g, n);
  cuemu__graph_memory_launch_done(g);
  return code;
}

typedef struct queued_launch {
  exec_launches *launches;
  unsigned long long n;
  int auto_free;
} queued_launch;

/* Counts `n` uses of exec's graph by a queued launch (the lock held);
 * NULL without memory. */
static exec_launches *count_queued(cuemu_rt_graph_exec *exec, unsigned n) {
  if (!exec->queued) {
    exec->queued = calloc(1, sizeof *exec->queued);
    if (!exec->queued)
      return NULL;
    exec->queued->exec = exec;
    exec->queued->graph = exec->graph;
  }
  exec->queued->pending += n;
  return exec->queued;
}

/* Ends one use of count_queued() (the lock held): after the last, a
 * retired graph is freed. */
static void release_queued(exec_launches *l) {
  if (--l->pending == 0) {
    if (l->retired)
      cuemu__graph_free(l->graph);
    else
      l->exec->queued = NULL;
    free(l);
  }
}

void cuemu__graph_exec_release(exec_launches *use) { release_queued(use); }

/* An upload of device graph exec (the lock held): the graph as it is now
 * is the one the device launches from now on. The upload is a use of it,
 * so that an update (which gives exec a copy, detach_queued) leaves the
 * device the graph it had until the next upload, as CUDA's device graphs
 * take an update only when uploaded again. A CUDA code. */
static int note_upload(cuemu_rt_graph_exec *exec) {
  exec_launches *before = exec->uploaded;
  if (!(exec->flags & FLAG_DEVICE_LAUNCH) || (before && !before->retired))
    return cudaSuccess; /* the device has this graph already */
  exec_launches *now = count_queued(exec, 1);
  if (!now)
    return cudaErrorMemoryAllocation;
  if (before)
    release_queued(before);
  exec->uploaded = now;
  return cudaSuccess;
}

exec_launches *cuemu__graph_exec_hold_uploaded(cuemu_rt_graph_exec *exec,
                                               cuemu_rt_graph **graph) {
  exec_launches *u = exec->uploaded;
  if (u) {
    u->pending++;
    *graph = u->graph;
  }
  return u;
}

/* racecheck of pinned memory (cuemu_rt_pinned_guard.h): the pinned host
 * memory of a queued launch's copies and memsets (its enabled nodes', its
 * child graphs' too) is guarded from the launch's issue (`issue`) as a
 * queued cudaMemcpyAsync's is; when the launch has run, the guards of the
 * nodes that did not run (a node disabled since, a conditional's body, an
 * error) go (!issue). */
static void guard_transfers(const cuemu_rt_graph *g, int issue) {
  for (size_t i = 0; i < g->nodes.n; ++i) {
    const cuemu_rt_graph_node *node = g->nodes.v[i];
    switch (node->p.type) {
    case CUEMU_RT_NODE_MEMCPY:
    case CUEMU_RT_NODE_MEMSET:
      if (!issue)
        cuemu__pinned_guard_cancel(&node->p);
      else if (node->enabled)
        (void)cuemu__pinned_guard_issue(&node->p, &node->p);
      break;
    case CUEMU_RT_NODE_GRAPH:
      guard_transfers(node->p.u.child.graph, issue);
      break;
    default:
      break;
    }
  }
}

static int run_queued(void *arg, void *stream) {
  queued_launch q = *(queued_launch *)arg;
  free(arg);
  cuemu__graph_lock();
  cuemu_rt_graph_exec *exec = q.launches->retired ? NULL : q.launches->exec;
  cuemu__graph_unlock();
  int code = run_launch(exec, q.launches->graph, stream, q.n, q.auto_free);
  guard_transfers(q.launches->graph, 0);
  cuemu__graph_lock();
  release_queued(q.launches);
  cuemu__graph_unlock();
  return code;
}

/* Orders the launches of one executable graph: CUDA runs each after the
 * previous launch of the same graph, whatever its stream. Each launch is
 * queued after the pending "record" of a key of the executable graph (its
 * address) and becomes that record, in one step under the queue's lock,
 * for launches from several host threads too. */
static int queue_launch(cuemu_rt_graph_exec *exec, void *stream,
                        queued_launch *q) {
  /* The launch is the pending record of the events it records, noted in
   * the same step (before it can run). */
  void **events = NULL;
  size_t n = 0, cap = 0;
  if (!graph_records(q->launches->graph, &events, &n, &cap)) {
    free(events);
    return cuemu_rt_error(cudaErrorMemoryAllocation);
  }
  /* Its records of interprocess events are issued now, for the processes
   * that wait on them (their nodes, run on the stream, take these
   * tickets). */
  unsigned long long *tickets = n ? malloc(n * sizeof *tickets) : NULL;
  if (n && !tickets) {
    free(events);
    return cuemu_rt_error(cudaErrorMemoryAllocation);
  }
  for (size_t i = 0; i < n; ++i)
    tickets[i] = cuemu__ipc_event_issue(events[i]);
  int code = cuemu__stream_defer_call_recording(stream, run_queued, q, exec,
                                                events, n, tickets);
  free(tickets);
  free(events);
  return code;
}

/* The name of a graph's first kernel node (its own, not a child
 * graph's), or NULL. */
static const char *first_kernel(const cuemu_rt_graph *g) {
  for (size_t i = 0; i < g->nodes.n; ++i)
    if (g->nodes.v[i]->p.type == CUEMU_RT_NODE_KERNEL &&
        g->nodes.v[i]->p.u.kernel.desc)
      return g->nodes.v[i]->p.u.kernel.desc->name;
  return NULL;
}

/* A launch into an asynchronous stream runs in the stream's order, after
 * the executable graph's previous launch (cuemu_rt_stream_queue.h); the
 * rules of graph memory are checked in issue order when it is issued. */
int cuemu_rt_graph_launch(cuemu_rt_graph_exec *exec, void *stream) {
  if (cuemu_thread_in_kernel())
    return cuemu__graph_device_launch(exec, stream);
  cuemu__graph_lock();
  int live = LIVE_EXEC(exec);
  cuemu__graph_unlock();
  if (!live)
    return cuemu_rt_error(cudaErrorInvalidValue);
  int code = cuemu__rt_capture_graph(stream, exec->graph);
  if (code != CUEMU__RT_NOT_CAPTURED)
    return code;
  if ((code = cuemu__rt_check_sticky()) != 0 ||
      (code = cuemu__rt_stream_valid(stream)) != 0)
    return code;
  /* A malformed CUEMU_GRAPH_ORDER fails the launch here, on the calling
   * thread: read only where the graph runs (a stream's execution thread),
   * it skipped the graph's nodes while this call, and a later
   * cudaEventSynchronize, returned success. The run reads it again, for a
   * value changed in between. */
  unsigned long long seed;
  if (cuemu__config_graph_order(&seed) < 0)
    return cuemu__graph_fail(cudaErrorInvalidValue,
                             "cudaGraphLaunch: CUEMU_GRAPH_ORDER: expected "
                             "forward, reverse or random:SEED");
  int inline_run = cuemu__stream_inline();
  if (inline_run && (code = cuemu__rt_check_stream(stream)) != 0)
    return code;
  /* A launch's start: CUDA prints the output of the kernels that have
   * ended (the graph's kernels, run by a stream's execution thread, do
   * not print it there). */
  cuemu__printf_flush_at_launch();
  /* Allocations of the previous launch no free has been issued for. */
  int auto_free = (exec->flags & FLAG_AUTO_FREE) != 0;
  code = cuemu__graph_memory_issue_launch(exec->graph, auto_free,
                                          exec->launches);
  if (code)
    return cuemu__graph_fail(code, "cudaGraphLaunch: a memory allocation of "
                                   "the graph's previous launch is not "
                                   "freed (free it, or instantiate with "
                                   "cudaGraphInstantiateFlagAutoFreeOnLaunch)");
  /* A host launch uploads a device graph (docs/graphs.md); without memory
   * for that, the device keeps the graph of the previous upload. */
  cuemu__graph_lock();
  (void)note_upload(exec);
  cuemu__graph_unlock();
  /* Its kernels may touch managed memory; the host thread, on a device
   * without concurrent managed access, not until it synchronises
   * (cuemu_rt_managed_guard.c). */
  const char *kernel = first_kernel(exec->graph);
  if (kernel)
    cuemu__managed_guard_before_launch();
  if (inline_run) {
    code = run_launch(exec, exec->graph, stream, exec->launches++, auto_free);
    if (kernel)
      cuemu__managed_guard_launched(stream, kernel);
    return code;
  }
  queued_launch *q = malloc(sizeof *q);
  /* Two uses: the launch's, and this call's until its records are
   * noted. */
  cuemu__graph_lock();
  exec_launches *l = q ? count_queued(exec, 2) : NULL;
  cuemu__graph_unlock();
  if (!l) {
    free(q);
    cuemu__graph_memory_launch_done(exec->graph); /* not queued after all */
    return cuemu_rt_error(cudaErrorMemoryAllocation);
  }
  *q = (queued_launch){l, exec->launches++, auto_free};
  guard_transfers(l->graph, 1);
  code = queue_launch(exec, stream, q);
  if (code) {
    guard_transfers(l->graph, 0);
    free(q);
    cuemu__graph_memory_launch_done(l->graph);
  }
  cuemu__graph_lock();
  if (code)
    l->pending--; /* the launch's use */
  release_queued(l);
  cuemu__graph_unlock();
  if (!code && kernel)
    cuemu__managed_guard_launched(stream, kernel);
  return code;
}

int cuemu_rt_graph_upload(cuemu_rt_graph_exec *exec, void *stream) {
  cuemu__graph_lock();
  int live = LIVE_EXEC(exec);
  cuemu__graph_unlock();
  if (!live)
    return cuemu_rt_error(cudaErrorInvalidValue);
  /* Nothing to copy: the graph runs from host memory. The executable
   * graph as it is now may be launched from the device. */
  int code = cuemu__rt_check_sticky();
  if (!code)
    code = cuemu__rt_check_stream(stream);
  if (!code) {
    cuemu__graph_lock();
    if (LIVE_EXEC(exec)) {
      if ((code = note_upload(exec)) != 0)
        code = cuemu_rt_error(code);
      cuemu__graph_memory_upload(exec->graph); /* mapped now */
    }
    cuemu__graph_unlock();
  }
  return code;
}

/* ---- Update ---------------------------------------------------------------- */

typedef struct update_error {
  int result;
  cuemu_rt_graph_node *node, *from;
} update_error;

static size_t index_in(const cuemu_rt_graph *g, const cuemu_rt_graph_node *n) {
  for (size_t i = 0; i < g->nodes.n; ++i)
    if (g->nodes.v[i] == n)
      return i;
  return (size_t)-1;
}

static int fail_update(update_error *err, int result, cuemu_rt_graph_node *node,
                       cuemu_rt_graph_node *from) {
  err->result = result;
  err->node = node;
  err->from = from;
  return 0;
}

/* Non-zero when graph `to` can replace the parameters of `from` (same
 * nodes in the same order, same edges, changes CUDA allows). */
static int same_shape(const cuemu_rt_graph *from, cuemu_rt_graph *to,
                      update_error *err) {
  if (from->nodes.n != to->nodes.n)
    return fail_update(err, CUEMU_RT_UPDATE_TOPOLOGY_CHANGED, NULL, NULL);
  for (size_t i = 0; i < to->nodes.n; ++i) {
    const cuemu_rt_graph_node *a = from->nodes.v[i];
    cuemu_rt_graph_node *b = to->nodes.v[i];
    if (a->p.type != b->p.type)
      return fail_update(err, CUEMU_RT_UPDATE_NODE_TYPE_CHANGED, b, NULL);
    if (a->deps.n != b->deps.n)
      return fail_update(err, CUEMU_RT_UPDATE_TOPOLOGY_CHANGED, b,
                         b->deps.n ? b->deps.v[0] : NULL);
    for (size_t j = 0; j < b->deps.n; ++j) {
      size_t k = index_in(to, b->deps.v[j]);
      if (!cuemu__node_list_has(&a->deps, from->nodes.v[k]))
        return fail_update(err, CUEMU_RT_UPDATE_TOPOLOGY_CHANGED, b,
                           b->deps.v[j]);
      /* The edge's data (its ports and type) is part of the edge: a
       * programmatic edge is not the full dependency it was. */
      if (cuemu__graph_edge_data(b, b->deps.v[j]) !=
          cuemu__graph_edge_data(a, from->nodes.v[k]))
        return fail_update(err, CUEMU_RT_UPDATE_TOPOLOGY_CHANGED, b,
                           b->deps.v[j]);
    }
    const cuemu_rt_graph_node_params *p = &a->p, *q = &b->p;
    int changed = 0;
    switch (p->type) {
    case CUEMU_RT_NODE_KERNEL:
      /* Nor may its context's SMs (CUDA: "the owning context of the
       * function cannot change"). */
      changed = p->u.kernel.cooperative != q->u.kernel.cooperative ||
                a->sms != b->sms;
      break;
    case CUEMU_RT_NODE_MEMCPY:
      /* Nor may a side change between an array and memory. */
      changed = (p->u.memcpy.height > 1) != (q->u.memcpy.height > 1) ||
                (p->u.memcpy.depth > 1) != (q->u.memcpy.depth > 1) ||
                !p->u.memcpy.src_array != !q->u.memcpy.src_array ||
                !p->u.memcpy.dst_array != !q->u.memcpy.dst_array;
      break;
    case CUEMU_RT_NODE_MEMSET:
      changed = (p->u.memset.height > 1) != (q->u.memset.height > 1) ||
                p->u.memset.element_size != q->u.memset.element_size;
      break;
    case CUEMU_RT_NODE_GRAPH:
      if (!same_shape(p->u.child.graph, q->u.child.graph, err))
        return 0;
      break;
    case CUEMU_RT_NODE_CONDITIONAL:
      /* The handles pair up as the nodes do: a graph built again has
       * handles of its own, whose flags and default values the update
       * takes (take_params). */
      if (p->u.conditional.type != q->u.conditional.type ||
          p->u.conditional.size != q->u.conditional.size)
        return fail_update(err, CUEMU_RT_UPDATE_PARAMETERS_CHANGED, b, NULL);
      for (unsigned k = 0; k < p->u.conditional.size; ++k)
        if (!same_shape(a->bodies[k], b->bodies[k], err))
          return 0;
      break;
    case CUEMU_RT_NODE_MEM_ALLOC:
    case CUEMU_RT_NODE_MEM_FREE:
      /* Memory nodes cannot change. */
      changed = p->type == CUEMU_RT_NODE_MEM_ALLOC
                    ? p->u.alloc.bytesize != q->u.alloc.bytesize
                    : p->u.free.dptr != q->u.free.dptr;
      if (changed)
        return fail_update(err, CUEMU_RT_UPDATE_NOT_SUPPORTED, b, NULL);
      break;
    default:
      break;
    }
    if (changed)
      return fail_update(err, CUEMU_RT_UPDATE_PARAMETERS_CHANGED, b, NULL);
  }
  return 1;
}

/* Takes the parameters of `to` into `from` (same_shape said yes). */
static int take_params(cuemu_rt_graph *from, cuemu_rt_graph *to) {
  for (size_t i = 0; i < to->nodes.n; ++i) {
    cuemu_rt_graph_node *a = from->nodes.v[i], *b = to->nodes.v[i];
    int code = cudaSuccess;
    a->origin2 = b->id;
    switch (b->p.type) {
    case CUEMU_RT_NODE_GRAPH:
      code = take_params(a->p.u.child.graph, b->p.u.child.graph);
      break;
    case CUEMU_RT_NODE_CONDITIONAL:
      /* The node now reads the new graph's handle, which the updated
       * kernels set (handles live as long as the process). */
      a->p.u.conditional.handle = b->p.u.conditional.handle;
      for (unsigned k = 0; !code && k < b->p.u.conditional.size; ++k)
        code = take_params(a->bodies[k], b->bodies[k]);
      break;
    case CUEMU_RT_NODE_MEM_ALLOC:
    case CUEMU_RT_NODE_MEM_FREE:
      break;
    case CUEMU_RT_NODE_KERNEL:
      code = cuemu__graph_node_assign(a, &b->p);
      if (!code)
        code = cuemu__graph_attrs_copy(a, b);
      break;
    default:
      code = cuemu__graph_node_assign(a, &b->p);
    }
    if (code)
      return code;
  }
  return cudaSuccess;
}

int cuemu_rt_graph_exec_update(cuemu_rt_graph_exec *exec,
                               cuemu_rt_graph *graph, int *result,
                               cuemu_rt_graph_node **error_node,
                               cuemu_rt_graph_node **error_from) {
  update_error err = {CUEMU_RT_UPDATE_SUCCESS, NULL, NULL};
  cuemu__graph_lock();
  int code = cudaSuccess;
  if (!LIVE_EXEC(exec) || !cuemu__graph_live(graph, CUEMU__LIVE_GRAPH)) {
    code = cudaErrorInvalidValue;
    err.result = CUEMU_RT_UPDATE_ERROR;
  } else if (!same_shape(exec->graph, graph, &err)) {
    code = cudaErrorGraphExecUpdateFailure;
  } else if ((code = detach_queued(exec, 1)) != 0 || /* queued launches keep theirs */
             (code = take_params(exec->graph, graph)) != 0) {
    err.result = CUEMU_RT_UPDATE_ERROR;
  }
  cuemu__graph_unlock();
  if (result)
    *result = err.result;
  if (error_node)
    *error_node = err.node;
  if (error_from)
    *error_from = err.from;
  return code ? cuemu_rt_error(code) : cudaSuccess;
}

/* ---- Per-node parameters --------------------------------------------------- */

/* The executable graph's copy of `node` (searched in child graphs and
 * bodies too), or NULL. */
static cuemu_rt_graph_node *copy_of(cuemu_rt_graph *g,
                                    const cuemu_rt_graph_node *node) {
  for (size_t i = 0; i < g->nodes.n; ++i) {
    cuemu_rt_graph_node *c = g->nodes.v[i];
    if (c->origin == node->id || c->origin2 == node->id)
      return c;
    cuemu_rt_graph_node *found = NULL;
    if (c->p.type == CUEMU_RT_NODE_GRAPH)
      found = copy_of(c->p.u.child.graph, node);
    for (unsigned b = 0; !found && c->bodies && b < c->p.u.conditional.size;
         ++b)
      found = copy_of(c->bodies[b], node);
    if (found)
      return found;
  }
  return NULL;
}

/* The copy of `node` in exec, with the lock held; NULL (and the lock
 * released) when there is none. With `change`, queued launches keep the
 * graph they were issued with (detach_queued). */
static cuemu_rt_graph_node *lock_copy(cuemu_rt_graph_exec *exec,
                                      cuemu_rt_graph_node *node, int change) {
  cuemu__graph_lock();
  cuemu_rt_graph_node *c = NULL;
  if (LIVE_EXEC(exec) && cuemu__graph_live(node, CUEMU__LIVE_NODE) &&
      (!change || detach_queued(exec, 1) == cudaSuccess))
    c = copy_of(exec->graph, node);
  if (!c)
    cuemu__graph_unlock();
  return c;
}

int cuemu_rt_graph_exec_node_set_params(
    cuemu_rt_graph_exec *exec, cuemu_rt_graph_node *node,
    const cuemu_rt_graph_node_params *params) {
  cuemu_rt_graph_node *c = params ? lock_copy(exec, node, 1) : NULL;
  if (!c)
    return cuemu_rt_error(cudaErrorInvalidValue);
  int code = cudaSuccess;
  update_error err;
  if (params->type != c->p.type || params->type == CUEMU_RT_NODE_MEM_ALLOC ||
      params->type == CUEMU_RT_NODE_MEM_FREE ||
      params->type == CUEMU_RT_NODE_CONDITIONAL)
    code = cudaErrorInvalidValue;
  else if (params->type == CUEMU_RT_NODE_GRAPH &&
           (!cuemu__graph_live(params->u.child.graph, CUEMU__LIVE_GRAPH) ||
            !same_shape(c->p.u.child.graph, params->u.child.graph, &err)))
    code = cuemu__graph_fail(cudaErrorInvalidValue,
                             "cudaGraphExecChildGraphNodeSetParams: the new "
                             "child graph's topology differs");
  else if (params->type == CUEMU_RT_NODE_GRAPH)
    code = take_params(c->p.u.child.graph, params->u.child.graph);
  else {
    cuemu_rt_graph_node_params p = *params;
    cuemu__graph_keep_attrs(c, &p);
    code = cuemu__graph_node_assign(c, &p);
  }
  cuemu__graph_unlock();
  return code ? cuemu_rt_error(code) : cudaSuccess;
}

/* Only kernel, memcpy and memset nodes can be disabled. */
static int can_disable(const cuemu_rt_graph_node *c) {
  return c->p.type == CUEMU_RT_NODE_KERNEL ||
         c->p.type == CUEMU_RT_NODE_MEMCPY || c->p.type == CUEMU_RT_NODE_MEMSET;
}

int cuemu_rt_graph_exec_node_set_enabled(cuemu_rt_graph_exec *exec,
                                         cuemu_rt_graph_node *node,
                                         unsigned enabled) {
  cuemu_rt_graph_node *c = lock_copy(exec, node, 1);
  if (!c)
    return cuemu_rt_error(cudaErrorInvalidValue);
  int ok = can_disable(c);
  if (ok)
    c->enabled = enabled != 0;
  return unlock_with(ok ? cudaSuccess : cudaErrorInvalidValue);
}

int cuemu_rt_graph_exec_node_get_enabled(cuemu_rt_graph_exec *exec,
                                         cuemu_rt_graph_node *node,
                                         unsigned *enabled) {
  cuemu_rt_graph_node *c = enabled ? lock_copy(exec, node, 0) : NULL;
  if (!c)
    return cuemu_rt_error(cudaErrorInvalidValue);
  int ok = can_disable(c);
  if (ok)
    *enabled = (unsigned)c->enabled;
  return unlock_with(ok ? cudaSuccess : cudaErrorInvalidValue);
}
