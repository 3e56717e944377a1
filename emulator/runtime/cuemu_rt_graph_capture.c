/*
 * cuemu_rt_graph_capture.c: stream capture (cudaStreamBeginCapture and the
 * rest, cuemu_runtime_graph.h) and the hooks by which stream operations are
 * recorded instead of run (cuemu_rt_capture.h).
 *
 * A capture sequence has a graph, an origin stream, a mode and the host
 * thread that began it. Each stream taking part holds its current
 * dependencies: the nodes its next operation will follow. An event
 * recorded in a capturing stream remembers that stream's dependencies, so
 * that a stream waiting on it joins the capture after them (a fork), and a
 * stream already in it adds them (a join). The capture ends only when every
 * stream that joined it has been joined back into the origin stream.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

#include <cuemu/cuemu_runtime.h>
#include <cuemu/cuemu_runtime_streams.h>

#include "device/cuemu_device_model.h"
#include "device/cuemu_handles.h"
#include "runtime/cuemu_drv_internal.h"
#include "runtime/cuemu_rt_capture.h"
#include "runtime/cuemu_rt_graph_internal.h"
#include "runtime/cuemu_rt_graph_memory.h"
#include "runtime/cuemu_rt_default_stream.h"
#include "runtime/cuemu_rt_internal.h"
#include "runtime/cuemu_rt_stream_queue.h"

/* A stream as captures tell streams apart: the handle, with stream 0
 * resolved (cudaStreamPerThread under per-thread default streams), and for
 * cudaStreamPerThread the host thread and device whose stream it names. */
typedef struct stream_id {
  void *handle;
  const void *thread;
  int device;
} stream_id;

typedef struct capture {
  unsigned long long id;
  cuemu_rt_graph *graph;
  stream_id origin;
  int mode;
  pthread_t thread;
  int invalidated;
  int to_graph; /* cudaStreamBeginCaptureToGraph: the graph is the caller's */
} capture;

/* A stream taking part in a capture. */
typedef struct member {
  stream_id id;
  void *stream; /* its handle, stream 0 resolved */
  capture *cap;
  cuemu__node_list deps;
  /* The data of the edges from some of deps to the next node
   * (cudaStreamBeginCaptureToGraph, cudaStreamUpdateCaptureDependencies
   * with edge data): a dependency without a record here has a plain edge. */
  cuemu__graph_edge *edges;
  size_t nedges;
} member;

/* An event last recorded in a capturing stream. */
typedef struct mark {
  void *event;
  capture *cap;
  cuemu__node_list deps;
} mark;

static capture **captures;
static size_t ncaptures;
static member *members;
static size_t nmembers;
static mark *marks;
static size_t nmarks;
static atomic_size_t active; /* ncaptures, read without the lock */
static unsigned long long next_id;
static __thread int thread_mode = CUEMU_RT_CAPTURE_GLOBAL;
static __thread char thread_key; /* its address names the host thread */

static stream_id id_of(void *stream) {
  stream = cuemu__stream_resolve(stream);
  stream_id id = {stream, NULL, -1};
  if ((uintptr_t)stream == 2) { /* cudaStreamPerThread */
    id.thread = &thread_key;
    id.device = cuemu__device_current();
  }
  return id;
}

static int same_stream(stream_id a, stream_id b) {
  return a.handle == b.handle && a.thread == b.thread && a.device == b.device;
}

static int is_legacy(void *stream) {
  stream = cuemu__stream_resolve(stream);
  return stream == NULL || stream == (void *)0x1;
}

/* Non-zero for a stream that synchronizes with the legacy default stream
 * (created without cudaStreamNonBlocking). */
static int is_blocking(void *stream) {
  cuemu_handle_state st = {0, 0, 0, 0, 0, 0};
  cuemu__handle_get(CUEMU_HANDLE_STREAM, stream, &st);
  return !(st.flags & 1u);
}

/* The device of a member's stream. */
static int member_device(const member *m) {
  return m->id.thread ? m->id.device : cuemu__handle_stream_device(m->stream);
}

static member *member_of(void *stream) {
  stream_id id = id_of(stream);
  for (size_t i = 0; i < nmembers; ++i)
    if (same_stream(members[i].id, id))
      return &members[i];
  return NULL;
}

static mark *mark_of(const void *event) {
  for (size_t i = 0; i < nmarks; ++i)
    if (marks[i].event == event)
      return &marks[i];
  return NULL;
}

static void drop_mark(mark *m) {
  cuemu__node_list_free(&m->deps);
  *m = marks[--nmarks];
}

static int copy_list(cuemu__node_list *to, const cuemu__node_list *from) {
  to->n = 0;
  for (size_t i = 0; i < from->n; ++i)
    if (cuemu__node_list_push(to, from->v[i]) != 0)
      return -1;
  return 0;
}

static member *add_member(void *stream, capture *cap) {
  member *m = realloc(members, (nmembers + 1) * sizeof *m);
  if (!m)
    return NULL;
  members = m;
  m = &members[nmembers++];
  m->id = id_of(stream);
  m->stream = m->id.handle;
  m->cap = cap;
  m->deps = (cuemu__node_list){0};
  m->edges = NULL;
  m->nedges = 0;
  return m;
}

/* Ends a capture: its streams leave it, its marks go. */
static void end(capture *cap) {
  for (size_t i = nmembers; i-- > 0;)
    if (members[i].cap == cap) {
      cuemu__node_list_free(&members[i].deps);
      free(members[i].edges);
      members[i] = members[--nmembers];
    }
  for (size_t i = nmarks; i-- > 0;)
    if (marks[i].cap == cap)
      drop_mark(&marks[i]);
  for (size_t i = 0; i < ncaptures; ++i)
    if (captures[i] == cap) {
      captures[i] = captures[--ncaptures];
      break;
    }
  atomic_store(&active, ncaptures);
  free(cap);
}

/* Invalidates the captures that a use of the legacy default stream (of
 * the current device) would join implicitly: those of the device's
 * blocking streams; non-zero when there was one. */
static int legacy_conflict(int invalidate) {
  int found = 0, device = cuemu__device_current();
  for (size_t i = 0; i < nmembers; ++i)
    if (is_blocking(members[i].stream) && member_device(&members[i]) == device) {
      found = 1;
      if (invalidate)
        members[i].cap->invalidated = 1;
    }
  return found;
}

/* The member for an operation on `stream`, with the lock held; else NULL,
 * the lock released and *code set: CUEMU__RT_NOT_CAPTURED, or an error
 * (the legacy stream while a blocking stream captures; an invalidated
 * capture). */
static member *enter(void *stream, int *code) {
  *code = CUEMU__RT_NOT_CAPTURED;
  if (atomic_load(&active) == 0)
    return NULL;
  cuemu__graph_lock();
  member *m = member_of(stream);
  if (!m && is_legacy(stream) && legacy_conflict(1))
    *code = cuemu_rt_error(cudaErrorStreamCaptureImplicit);
  else if (m && m->cap->invalidated)
    *code = cuemu_rt_error(cudaErrorStreamCaptureInvalidated);
  if (m && *code == CUEMU__RT_NOT_CAPTURED)
    return m;
  cuemu__graph_unlock();
  return NULL;
}

/* A kernel launched with programmatic stream serialization
 * (cudaLaunchKernelEx) is captured, as CUDA captures it, with programmatic
 * edges (the programmatic port, the programmatic type) from the kernel
 * nodes it follows; other edges stay plain. */
static int programmatic_edges(cuemu_rt_graph_node *node,
                              const cuemu_rt_graph_kernel *k) {
  int programmatic = 0;
  for (unsigned i = 0; i < k->nattrs; ++i)
    if (k->attrs[i].id == cudaLaunchAttributeProgrammaticStreamSerialization &&
        k->attrs[i].val.programmaticStreamSerializationAllowed)
      programmatic = 1;
  for (size_t i = 0; programmatic && i < node->deps.n; ++i)
    if (node->deps.v[i]->p.type == CUEMU_RT_NODE_KERNEL) {
      int code = cuemu__graph_edge_record(node, node->deps.v[i], 0x010001u);
      if (code)
        return code;
    }
  return cudaSuccess;
}

/* Gives the edges into `node`, just captured after the member's
 * dependencies, the data the member holds for them (CUDA's rules checked
 * now that the downstream node is known), and forgets that data: the
 * next node follows `node` by a plain edge. A CUDA code. */
static int apply_edges(member *m, cuemu_rt_graph_node *node) {
  int code = cudaSuccess;
  for (size_t i = 0; !code && i < m->nedges; ++i) {
    cuemu_rt_graph_node *from = m->edges[i].from;
    if (!cuemu__node_list_has(&node->deps, from))
      continue; /* no longer a dependency */
    code = cuemu__graph_edge_valid(from, node, m->edges[i].data);
    if (!code)
      code = cuemu__graph_edge_record(node, from, m->edges[i].data);
  }
  m->nedges = 0;
  return code;
}

/* Records a node after the member's dependencies, which it then replaces;
 * a failure invalidates the capture. Releases the lock. */
static int record(member *m, const cuemu_rt_graph_node_params *params) {
  cuemu_rt_graph_node *node;
  int code =
      cuemu__graph_add(&node, m->cap->graph, m->deps.v, m->deps.n, params);
  if (code == cudaSuccess && params->type == CUEMU_RT_NODE_KERNEL)
    code = programmatic_edges(node, &params->u.kernel);
  if (code == cudaSuccess)
    code = apply_edges(m, node);
  if (code == cudaSuccess) {
    m->deps.n = 0;
    cuemu__node_list_push(&m->deps, node); /* room for one is there */
  } else {
    m->cap->invalidated = 1;
  }
  cuemu__graph_unlock();
  return code;
}

/* Drops the dependencies that are ancestors of others in the list: the
 * next node follows them anyway, and the graph gets no redundant edge. */
static void prune(cuemu__node_list *deps) {
  size_t j = 0;
  for (size_t i = 0; i < deps->n; ++i) {
    int redundant = 0;
    for (size_t k = 0; !redundant && k < deps->n; ++k)
      redundant = k != i && cuemu__graph_reaches(deps->v[i], deps->v[k]);
    if (!redundant)
      deps->v[j++] = deps->v[i];
  }
  deps->n = j;
}

int cuemu__capture_building(const cuemu_rt_graph *graph) {
  for (size_t i = 0; i < ncaptures; ++i)
    if (captures[i]->graph == graph)
      return 1;
  return 0;
}

/* Starts a capture of `stream` into `graph` (a new one when NULL) after
 * deps; a CUDA code. Called with the lock. */
static int start(void *stream, int mode, cuemu_rt_graph *graph,
                 cuemu_rt_graph_node *const *deps, size_t ndeps) {
  capture *cap = calloc(1, sizeof *cap);
  capture **list = realloc(captures, (ncaptures + 1) * sizeof *list);
  if (list)
    captures = list;
  cuemu_rt_graph *g = graph ? graph : cuemu__graph_new();
  member *m = cap && list && g ? add_member(stream, cap) : NULL;
  for (size_t i = 0; m && i < ndeps; ++i)
    if (cuemu__node_list_push(&m->deps, deps[i]) != 0) {
      cuemu__node_list_free(&m->deps);
      nmembers--;
      m = NULL;
    }
  if (!m) {
    if (g && !graph)
      cuemu__graph_free(g);
    free(cap);
    return cudaErrorMemoryAllocation;
  }
  cap->id = ++next_id;
  cap->graph = g;
  cap->to_graph = graph != NULL;
  cap->origin = id_of(stream);
  cap->mode = mode;
  cap->thread = pthread_self();
  captures[ncaptures++] = cap;
  atomic_store(&active, ncaptures);
  return cudaSuccess;
}

/* ---- The API ----------------------------------------------------------------- */

int cuemu_rt_stream_begin_capture(void *stream, int mode,
                                  cuemu_rt_graph *graph,
                                  cuemu_rt_graph_node *const *deps,
                                  size_t ndeps) {
  int code = cuemu__rt_check_sticky();
  if (code || (code = cuemu__rt_check_stream(stream)) != 0)
    return code;
  if (mode < CUEMU_RT_CAPTURE_GLOBAL || mode > CUEMU_RT_CAPTURE_RELAXED)
    return cuemu_rt_error(cudaErrorInvalidValue);
  if (is_legacy(stream))
    return cuemu__graph_fail(cudaErrorStreamCaptureUnsupported,
                             "cudaStreamBeginCapture: the legacy default "
                             "stream cannot be captured; use a created "
                             "stream");
  if (ndeps && !deps)
    return cuemu_rt_error(cudaErrorInvalidValue);
  cuemu__graph_lock();
  if (member_of(stream)) {
    cuemu__graph_unlock();
    return cuemu__graph_fail(cudaErrorIllegalState,
                             "cudaStreamBeginCapture: the stream is already "
                             "capturing");
  }
  code = graph && !cuemu__graph_live(graph, CUEMU__LIVE_GRAPH)
             ? cudaErrorInvalidValue
             : cudaSuccess;
  for (size_t i = 0; !code && i < ndeps; ++i)
    if (!cuemu__graph_live(deps[i], CUEMU__LIVE_NODE) ||
        deps[i]->graph != graph)
      code = cudaErrorInvalidValue;
  if (!code)
    code = start(stream, mode, graph, deps, ndeps);
  cuemu__graph_unlock();
  return code ? cuemu_rt_error(code) : cudaSuccess;
}

/* Non-zero when every stream of the capture is joined into the origin:
 * each of its dependencies is an ancestor of one of the origin's. */
static int joined(const capture *cap, const member *origin) {
  for (size_t i = 0; i < nmembers; ++i) {
    const member *m = &members[i];
    if (m->cap != cap || m == origin)
      continue;
    for (size_t j = 0; j < m->deps.n; ++j) {
      int reached = 0;
      for (size_t k = 0; !reached && k < origin->deps.n; ++k)
        reached = cuemu__graph_reaches(m->deps.v[j], origin->deps.v[k]);
      if (!reached)
        return 0;
    }
  }
  return 1;
}

int cuemu_rt_stream_end_capture(void *stream, cuemu_rt_graph **graph) {
  cuemu__graph_lock();
  member *m = member_of(stream);
  int code = cudaSuccess;
  const char *why = NULL;
  /* A capture into the caller's graph (cudaStreamBeginCaptureToGraph) may
   * be ended without asking for the graph back, as CUDA's conditional-node
   * examples do; any other capture must hand its graph to someone. */
  int origin = m && same_stream(m->cap->origin, id_of(stream));
  if (!graph && !(origin && m->cap->to_graph)) {
    cuemu__graph_unlock();
    return cuemu_rt_error(cudaErrorInvalidValue);
  }
  if (!m) {
    code = cudaErrorIllegalState;
    why = "the stream is not capturing";
  } else if (!origin) {
    code = cudaErrorStreamCaptureUnmatched;
    why = "the capture was begun on another stream (end it there)";
  } else if (m->cap->mode != CUEMU_RT_CAPTURE_RELAXED &&
             !pthread_equal(m->cap->thread, pthread_self())) {
    code = cudaErrorStreamCaptureWrongThread;
    why = "the capture was begun by another host thread";
  } else if (m->cap->invalidated) {
    code = cudaErrorStreamCaptureInvalidated;
    why = "the capture was invalidated by an earlier error";
  } else if (!joined(m->cap, m)) {
    code = cudaErrorStreamCaptureUnjoined;
    why = "a stream that joined the capture was not joined back into the "
          "origin stream (record an event in it and wait on it in the "
          "origin stream)";
  }
  if (code == cudaErrorStreamCaptureInvalidated ||
      code == cudaErrorStreamCaptureUnjoined || code == cudaSuccess) {
    capture *cap = m->cap;
    if (graph)
      *graph = code ? NULL : cap->graph;
    if (code && !cap->to_graph)
      cuemu__graph_free(cap->graph);
    end(cap);
  }
  cuemu__graph_unlock();
  if (code)
    return cuemu__graph_fail(code, "cudaStreamEndCapture: %s", why);
  return cudaSuccess;
}

int cuemu_rt_stream_is_capturing(void *stream, int *status) {
  return cuemu_rt_stream_get_capture_info(stream, status, NULL, NULL, NULL,
                                          NULL);
}

int cuemu_rt_stream_get_capture_info(void *stream, int *status,
                                     unsigned long long *id,
                                     cuemu_rt_graph **graph,
                                     cuemu_rt_graph_node *const **deps,
                                     size_t *ndeps) {
  if (!status)
    return cuemu_rt_error(cudaErrorInvalidValue);
  /* A query: it does not wait for the stream's work, as CUDA's does not. */
  int code = cuemu__rt_stream_valid(stream);
  if (code)
    return code;
  cuemu__graph_lock();
  member *m = member_of(stream);
  if (!m && is_legacy(stream) && legacy_conflict(0)) {
    cuemu__graph_unlock();
    return cuemu_rt_error(cudaErrorStreamCaptureImplicit);
  }
  *status = !m                  ? CUEMU_RT_CAPTURE_NONE
            : m->cap->invalidated ? CUEMU_RT_CAPTURE_INVALIDATED
                                  : CUEMU_RT_CAPTURE_ACTIVE;
  if (m) {
    if (id)
      *id = m->cap->id;
    if (graph)
      *graph = m->cap->graph;
    if (deps)
      *deps = m->deps.v;
    if (ndeps)
      *ndeps = m->deps.n;
  }
  cuemu__graph_unlock();
  return cudaSuccess;
}

int cuemu_rt_stream_update_capture_dependencies(
    void *stream, cuemu_rt_graph_node *const *deps, size_t ndeps,
    unsigned flags) {
  if (flags > 1u || (ndeps && !deps))
    return cuemu_rt_error(cudaErrorInvalidValue);
  cuemu__graph_lock();
  member *m = member_of(stream);
  int code = m ? cudaSuccess : cudaErrorIllegalState;
  for (size_t i = 0; !code && i < ndeps; ++i)
    if (!cuemu__graph_live(deps[i], CUEMU__LIVE_NODE) ||
        deps[i]->graph != m->cap->graph)
      code = cudaErrorInvalidValue;
  if (!code && flags == 1u) {
    m->deps.n = 0;
    m->nedges = 0;
  }
  for (size_t i = 0; !code && i < ndeps; ++i)
    if (!cuemu__node_list_has(&m->deps, deps[i]) &&
        cuemu__node_list_push(&m->deps, deps[i]) != 0)
      code = cudaErrorMemoryAllocation;
  cuemu__graph_unlock();
  return code ? cuemu_rt_error(code) : cudaSuccess;
}

int cuemu_rt_stream_capture_edges_set(void *stream,
                                      cuemu_rt_graph_node *const *deps,
                                      const unsigned *data, size_t n) {
  if (n && (!deps || !data))
    return cuemu_rt_error(cudaErrorInvalidValue);
  cuemu__graph_lock();
  member *m = member_of(stream);
  int code = m ? cudaSuccess : cudaErrorIllegalState;
  /* Each must be a dependency, its data valid for an edge to a kernel
   * node (the downstream node's type is checked when it is captured). */
  for (size_t i = 0; !code && i < n; ++i) {
    cuemu_rt_graph_node probe;
    probe.p.type = CUEMU_RT_NODE_KERNEL;
    if (!cuemu__node_list_has(&m->deps, deps[i]))
      code = cudaErrorInvalidValue;
    else if (data[i])
      code = cuemu__graph_edge_valid(deps[i], &probe, data[i]);
  }
  for (size_t i = 0; !code && i < n; ++i) {
    size_t k = 0;
    while (k < m->nedges && m->edges[k].from != deps[i])
      ++k;
    if (k == m->nedges) {
      if (!data[i])
        continue;
      cuemu__graph_edge *v = realloc(m->edges, (k + 1) * sizeof *v);
      if (!v) {
        code = cudaErrorMemoryAllocation;
        break;
      }
      m->edges = v;
      m->nedges++;
    }
    m->edges[k] = (cuemu__graph_edge){deps[i], data[i]};
  }
  cuemu__graph_unlock();
  return code ? cuemu_rt_error(code) : cudaSuccess;
}

int cuemu_rt_stream_capture_edge_get(void *stream, cuemu_rt_graph_node *dep,
                                     unsigned *data) {
  if (!data)
    return cuemu_rt_error(cudaErrorInvalidValue);
  cuemu__graph_lock();
  member *m = member_of(stream);
  *data = 0;
  for (size_t k = 0; m && k < m->nedges; ++k)
    if (m->edges[k].from == dep && cuemu__node_list_has(&m->deps, dep))
      *data = m->edges[k].data;
  cuemu__graph_unlock();
  return m ? cudaSuccess : cuemu_rt_error(cudaErrorIllegalState);
}

int cuemu_rt_thread_exchange_capture_mode(int *mode) {
  if (!mode || *mode < CUEMU_RT_CAPTURE_GLOBAL ||
      *mode > CUEMU_RT_CAPTURE_RELAXED)
    return cuemu_rt_error(cudaErrorInvalidValue);
  int old = thread_mode;
  thread_mode = *mode;
  *mode = old;
  return cudaSuccess;
}

/* ---- Hooks (cuemu_rt_capture.h) -------------------------------------------------- */

int cuemu__rt_capture_launch(const cuemu_launch_request *r) {
  int code;
  member *m = enter(r->stream, &code);
  if (!m)
    return code;
  cuemu_status st = cuemu__device_check_launch(r);
  if (st != CUEMU_SUCCESS) {
    m->cap->invalidated = 1;
    cuemu__graph_unlock();
    return cuemu_rt_error(cuemu_status_cuda_error(st));
  }
  cuemu_rt_graph_node_params p = cuemu__rt_launch_node(r);
  /* CUDA copies the stream's priority into the captured kernel node's
   * priority attribute, unless the launch gives one. */
  int priority = 0;
  unsigned n = p.u.kernel.nattrs, i;
  for (i = 0; i < n && p.u.kernel.attrs[i].id != cudaLaunchAttributePriority;
       ++i)
    ;
  if (i < n || cuemu_rt_stream_get_priority(r->stream, &priority) != 0 ||
      priority == 0)
    return record(m, &p);
  cudaLaunchAttribute *attrs = calloc(n + 1, sizeof *attrs);
  if (!attrs) {
    cuemu__graph_unlock();
    return cuemu_rt_error(cudaErrorMemoryAllocation);
  }
  for (i = 0; i < n; ++i)
    attrs[i] = p.u.kernel.attrs[i];
  attrs[n].id = cudaLaunchAttributePriority;
  attrs[n].val.priority = priority;
  p.u.kernel.attrs = attrs;
  p.u.kernel.nattrs = n + 1;
  code = record(m, &p);
  free(attrs);
  return code;
}

cuemu_rt_graph_node_params cuemu__rt_launch_node(
    const cuemu_launch_request *r) {
  cuemu_rt_graph_node_params p = {.type = CUEMU_RT_NODE_KERNEL};
  p.u.kernel.desc = r->kernel;
  p.u.kernel.function = r->kernel->function;
  p.u.kernel.cuemu_grid = (cuemu_uint3){r->grid.x, r->grid.y, r->grid.z};
  p.u.kernel.cuemu_block =
      (cuemu_uint3){r->block.x, r->block.y, r->block.z};
  p.u.kernel.dynamic_shared = r->dynamic_shared;
  p.u.kernel.args = r->args;
  p.u.kernel.cooperative = r->cooperative;
  /* It runs in the stream's context (a green context's: on its SMs). */
  p.u.kernel.context = cuemu__drv_stream_context(r->stream);
  /* A cudaLaunchKernelEx's attributes go with its node. */
  p.u.kernel.attrs = cuemu__rt_launch_attrs;
  p.u.kernel.nattrs = cuemu__rt_launch_nattrs;
  return p;
}

int cuemu__rt_capture_host_func(void *stream, void (*fn)(void *),
                                void *data) {
  int code;
  member *m = enter(stream, &code);
  if (!m)
    return code;
  cuemu_rt_graph_node_params p = {.type = CUEMU_RT_NODE_HOST};
  p.u.host.fn = fn;
  p.u.host.data = data;
  return record(m, &p);
}

int cuemu__rt_capture_graph(void *stream, cuemu_rt_graph *graph) {
  int code;
  member *m = enter(stream, &code);
  if (!m)
    return code;
  cuemu_rt_graph_node_params p = {.type = CUEMU_RT_NODE_GRAPH};
  p.u.child.graph = graph;
  return record(m, &p);
}

int cuemu__rt_capture_event_record(void *event, void *stream,
                                   unsigned flags) {
  int code;
  member *m = enter(stream, &code);
  if (!m) {
    if (code == CUEMU__RT_NOT_CAPTURED && atomic_load(&active)) {
      /* Recorded outside any capture now. */
      cuemu__graph_lock();
      mark *k = mark_of(event);
      if (k)
        drop_mark(k);
      cuemu__graph_unlock();
    }
    return code;
  }
  if (flags & 1u) { /* cudaEventRecordExternal */
    cuemu_rt_graph_node_params p = {.type = CUEMU_RT_NODE_EVENT_RECORD};
    p.u.event.event = event;
    return record(m, &p);
  }
  mark *k = mark_of(event);
  if (!k) {
    mark *v = realloc(marks, (nmarks + 1) * sizeof *v);
    if (v) {
      marks = v;
      k = &marks[nmarks++];
      *k = (mark){event, NULL, {0}};
    }
  }
  code = k && copy_list(&k->deps, &m->deps) == 0 ? cudaSuccess
                                                 : cudaErrorMemoryAllocation;
  if (k)
    k->cap = m->cap;
  cuemu__graph_unlock();
  return code ? cuemu_rt_error(code) : cudaSuccess;
}

int cuemu__rt_capture_wait_event(void *stream, void *event, unsigned flags) {
  if (atomic_load(&active) == 0)
    return CUEMU__RT_NOT_CAPTURED;
  cuemu__graph_lock();
  mark *k = mark_of(event);
  member *m = member_of(stream);
  int code = CUEMU__RT_NOT_CAPTURED;
  if (!m && k && is_legacy(stream)) {
    k->cap->invalidated = 1;
    code = cudaErrorStreamCaptureImplicit;
  } else if (!m && k) {
    /* A fork: the stream joins the capture after the event's work. */
    m = add_member(stream, k->cap);
    code = m && copy_list(&m->deps, &k->deps) == 0 ? cudaSuccess
                                                   : cudaErrorMemoryAllocation;
  } else if (m && m->cap->invalidated) {
    code = cudaErrorStreamCaptureInvalidated;
  } else if (m && (flags & 1u)) { /* cudaEventWaitExternal */
    cuemu_rt_graph_node_params p = {.type = CUEMU_RT_NODE_WAIT_EVENT};
    p.u.event.event = event;
    return record(m, &p);
  } else if (m && k && k->cap != m->cap) {
    m->cap->invalidated = k->cap->invalidated = 1;
    code = cudaErrorStreamCaptureMerge;
  } else if (m && k) {
    code = cudaSuccess;
    for (size_t i = 0; !code && i < k->deps.n; ++i)
      if (!cuemu__node_list_has(&m->deps, k->deps.v[i]) &&
          cuemu__node_list_push(&m->deps, k->deps.v[i]) != 0)
        code = cudaErrorMemoryAllocation;
    prune(&m->deps);
  } else if (m) {
    cuemu_handle_state st = {0, 0, 0, 0, 0, 0};
    cuemu__handle_get(CUEMU_HANDLE_EVENT, event, &st);
    code = cudaSuccess; /* an event never recorded: nothing to wait for */
    if (st.recorded) {
      m->cap->invalidated = 1;
      code = cudaErrorStreamCaptureIsolation;
    }
  }
  cuemu__graph_unlock();
  return code > 0 ? cuemu_rt_error(code) : code;
}

int cuemu__rt_capture_stream_sync(void *stream) {
  if (atomic_load(&active) == 0)
    return CUEMU__RT_NOT_CAPTURED;
  cuemu__graph_lock();
  member *m = member_of(stream);
  int code = CUEMU__RT_NOT_CAPTURED;
  if (m) {
    m->cap->invalidated = 1;
    code = cudaErrorStreamCaptureUnsupported;
  } else if (is_legacy(stream) && legacy_conflict(1)) {
    code = cudaErrorStreamCaptureImplicit;
  }
  cuemu__graph_unlock();
  return code > 0 ? cuemu_rt_error(code) : code;
}

int cuemu__rt_capture_unsafe_call(int legacy) {
  if (cuemu__capture_bypass || atomic_load(&active) == 0)
    return 0;
  cuemu__graph_lock();
  pthread_t me = pthread_self();
  int code = 0;
  for (size_t i = 0; thread_mode != CUEMU_RT_CAPTURE_RELAXED && i < ncaptures;
       ++i) {
    capture *c = captures[i];
    int mine = pthread_equal(c->thread, me);
    if ((mine && c->mode != CUEMU_RT_CAPTURE_RELAXED) ||
        (!mine && c->mode == CUEMU_RT_CAPTURE_GLOBAL &&
         thread_mode == CUEMU_RT_CAPTURE_GLOBAL)) {
      c->invalidated = 1;
      code = cudaErrorStreamCaptureUnsupported;
    }
  }
  /* A blocking copy or memset uses stream 0: the legacy stream, or under
   * per-thread default streams the thread's own, which must not be
   * capturing (as cudaStreamSynchronize of it). */
  member *own = legacy && !is_legacy(NULL) ? member_of(NULL) : NULL;
  if (!code && own) {
    own->cap->invalidated = 1;
    code = cudaErrorStreamCaptureUnsupported;
  } else if (!code && legacy && is_legacy(NULL) && legacy_conflict(1)) {
    code = cudaErrorStreamCaptureImplicit;
  }
  cuemu__graph_unlock();
  return code ? cuemu_rt_error(code) : 0;
}

int cuemu__rt_capture_device_sync(void) {
  if (atomic_load(&active) == 0)
    return 0;
  cuemu__graph_lock();
  int code = 0;
  for (size_t i = 0; i < ncaptures; ++i)
    if (captures[i]->mode != CUEMU_RT_CAPTURE_RELAXED) {
      captures[i]->invalidated = 1;
      code = cudaErrorStreamCaptureUnsupported;
    }
  cuemu__graph_unlock();
  return code ? cuemu_rt_error(code) : 0;
}

int cuemu__rt_capture_event_check(void *event) {
  if (atomic_load(&active) == 0)
    return 0;
  cuemu__graph_lock();
  int captured = mark_of(event) != NULL;
  cuemu__graph_unlock();
  return captured ? cuemu_rt_error(cudaErrorCapturedEvent) : 0;
}

int cuemu__rt_capture_alloc(void *stream, size_t size, void **ptr) {
  int code;
  member *m = enter(stream, &code);
  if (!m)
    return code;
  if (!ptr) {
    cuemu__graph_unlock();
    return cuemu_rt_error(cudaErrorInvalidValue);
  }
  cuemu_rt_graph_node_params p = {.type = CUEMU_RT_NODE_MEM_ALLOC};
  p.u.alloc.bytesize = size;
  cuemu_rt_graph_node *node;
  code = cuemu__graph_add(&node, m->cap->graph, m->deps.v, m->deps.n, &p);
  if (code == cudaSuccess)
    code = apply_edges(m, node);
  if (code == cudaSuccess) {
    *ptr = node->p.u.alloc.dptr;
    m->deps.n = 0;
    cuemu__node_list_push(&m->deps, node);
  } else {
    m->cap->invalidated = 1;
  }
  cuemu__graph_unlock();
  return code;
}

int cuemu__rt_capture_free(void *stream, void *ptr) {
  int code;
  member *m = enter(stream, &code);
  if (!m)
    return code;
  cuemu_rt_graph_node_params p = {.type = CUEMU_RT_NODE_MEM_FREE};
  p.u.free.dptr = ptr;
  return record(m, &p);
}

/* ---- Copies and memsets on a stream -------------------------------------------- */

/* Runs a stream's copy or memset at once (the stream checked first). */
#define RUN_NOW(stream, call)                                                  \
  do {                                                                         \
    int code_ = cuemu__rt_check_stream(stream);                                \
    if (code_)                                                                 \
      return code_;                                                            \
    cuemu__capture_bypass++;                                                   \
    code_ = (call);                                                            \
    cuemu__capture_bypass--;                                                   \
    return code_;                                                              \
  } while (0)

/* The memcpy node of a 2D copy. */
static cuemu_rt_graph_node_params copy_node(void *dst, size_t dpitch,
                                            const void *src, size_t spitch,
                                            size_t width, size_t height,
                                            int kind) {
  cuemu_rt_graph_node_params p = {.type = CUEMU_RT_NODE_MEMCPY};
  cuemu_rt_graph_memcpy *c = &p.u.memcpy;
  c->dst = dst;
  c->src = src;
  c->dst_pitch = dpitch;
  c->src_pitch = spitch;
  c->dst_ysize = c->src_ysize = height;
  c->width = width;
  c->height = height;
  c->depth = 1;
  c->kind = kind;
  return p;
}

/* The memset node of a 2D memset of bytes. */
static cuemu_rt_graph_node_params set_node(void *ptr, size_t pitch, int value,
                                           size_t width, size_t height) {
  cuemu_rt_graph_node_params p = {.type = CUEMU_RT_NODE_MEMSET};
  p.u.memset.dst = ptr;
  p.u.memset.pitch = pitch;
  p.u.memset.value = (unsigned)value & 0xffu;
  p.u.memset.element_size = 1;
  p.u.memset.width = width;
  p.u.memset.height = height;
  return p;
}

/* Records a copy as a memcpy node of the member's capture. Releases the
 * lock. */
static int record_copy(member *m, void *dst, size_t dpitch, const void *src,
                       size_t spitch, size_t width, size_t height, int kind) {
  if (width == 0 || height == 0) {
    cuemu__graph_unlock();
    return cudaSuccess;
  }
  cuemu_rt_graph_node_params p =
      copy_node(dst, dpitch, src, spitch, width, height, kind);
  return record(m, &p);
}

int cuemu__rt_pageable(const void *p) {
  cuemu_rt_allocation a;
  /* A graph allocation that an issued launch allocates is device memory,
   * though its node may not have run yet. */
  return (!cuemu_rt_memory_find(p, &a) || a.state != CUEMU_RT_MEMORY_LIVE) &&
         !cuemu__graph_memory_issued(p, 1);
}

/* A copy into an asynchronous stream: checked as it is issued, then queued
 * (cuemu_rt_stream_queue.h). A copy from or to pageable host memory runs
 * now, after the stream's work before it, as CUDA's returns only once it
 * has read its source (staged) or written its destination.
 * CUEMU__RT_NOT_CAPTURED: run it now. */
static int defer_copy(void *dst, size_t dpitch, const void *src, size_t spitch,
                      size_t width, size_t height, int kind, void *stream) {
  if (cuemu__stream_inline() || (dst && cuemu__rt_pageable(dst)) ||
      (src && cuemu__rt_pageable(src)))
    return CUEMU__RT_NOT_CAPTURED;
  int code = cuemu__rt_check_sticky();
  if (!code)
    code = cuemu__rt_stream_valid(stream);
  if (!code)
    code = cuemu__rt_copy_check(dst, dpitch, src, spitch, width, height,
                                kind);
  if (code || width == 0 || height == 0)
    return code;
  cuemu_rt_graph_node_params p =
      copy_node(dst, dpitch, src, spitch, width, height, kind);
  return cuemu__stream_defer_node(stream, &p);
}

static int defer_set(void *ptr, size_t pitch, int value, size_t width,
                     size_t height, void *stream) {
  if (cuemu__stream_inline())
    return CUEMU__RT_NOT_CAPTURED;
  int code = cuemu__rt_check_sticky();
  if (!code)
    code = cuemu__rt_stream_valid(stream);
  if (!code)
    code = cuemu__rt_memset_check(ptr, pitch, width, height);
  if (code || width == 0 || height == 0)
    return code;
  cuemu_rt_graph_node_params p = set_node(ptr, pitch, value, width, height);
  return cuemu__stream_defer_node(stream, &p);
}

static int copy_async(void *dst, size_t dpitch, const void *src, size_t spitch,
                      size_t width, size_t height, int kind, void *stream) {
  int code;
  member *m = enter(stream, &code);
  if (m)
    return record_copy(m, dst, dpitch, src, spitch, width, height, kind);
  if (code != CUEMU__RT_NOT_CAPTURED)
    return code;
  code = defer_copy(dst, dpitch, src, spitch, width, height, kind, stream);
  if (code != CUEMU__RT_NOT_CAPTURED)
    return code;
  if (height == 1)
    RUN_NOW(stream, cuemu_rt_memcpy(dst, src, width, kind));
  RUN_NOW(stream, cuemu_rt_memcpy_2d(dst, dpitch, src, spitch, width, height,
                                     kind));
}

int cuemu__rt_capture_node(void *stream,
                           const struct cuemu_rt_graph_node_params *params) {
  int code;
  member *m = enter(stream, &code);
  if (!m)
    return code;
  return record(m, params);
}

int cuemu__rt_capture_copy(void *stream, void *dst, const void *src,
                           size_t count) {
  int code;
  member *m = enter(stream, &code);
  if (!m)
    return code;
  return record_copy(m, dst, count, src, count, count, 1, cudaMemcpyDefault);
}

static int set_async(void *ptr, size_t pitch, int value, size_t width,
                     size_t height, void *stream) {
  int code;
  member *m = enter(stream, &code);
  if (!m) {
    if (code != CUEMU__RT_NOT_CAPTURED)
      return code;
    code = defer_set(ptr, pitch, value, width, height, stream);
    if (code != CUEMU__RT_NOT_CAPTURED)
      return code;
    if (height == 1)
      RUN_NOW(stream, cuemu_rt_memset(ptr, value, width));
    RUN_NOW(stream, cuemu_rt_memset_2d(ptr, pitch, value, width, height));
  }
  if (width == 0 || height == 0) {
    cuemu__graph_unlock();
    return cudaSuccess;
  }
  cuemu_rt_graph_node_params p = set_node(ptr, pitch, value, width, height);
  return record(m, &p);
}

int cuemu_rt_memcpy_async(void *dst, const void *src, size_t count, int kind,
                          void *stream) {
  return copy_async(dst, count, src, count, count, 1, kind, stream);
}

int cuemu_rt_memcpy_2d_async(void *dst, size_t dpitch, const void *src,
                             size_t spitch, size_t width, size_t height,
                             int kind, void *stream) {
  return copy_async(dst, dpitch, src, spitch, width, height, kind, stream);
}

int cuemu_rt_memset_async(void *ptr, int value, size_t count, void *stream) {
  return set_async(ptr, count, value, count, 1, stream);
}

int cuemu_rt_memset_2d_async(void *ptr, size_t pitch, int value, size_t width,
                             size_t height, void *stream) {
  return set_async(ptr, pitch, value, width, height, stream);
}

int cuemu_rt_event_record_with_flags(void *event, void *stream,
                                     unsigned flags) {
  if (flags > 1u) /* cudaEventRecordDefault or cudaEventRecordExternal */
    return cuemu_rt_error(cudaErrorInvalidValue);
  if (flags) {
    int code = cuemu__rt_check_stream(stream);
    if (code)
      return code;
    code = cuemu__rt_capture_event_record(event, stream, flags);
    if (code != CUEMU__RT_NOT_CAPTURED)
      return code;
  }
  return cuemu_rt_event_record(event, stream);
}
