/*
 * cuemu_rt_graph_node.c: the parameters of graph nodes: checked and copied
 * when a node is made or set (kernel arguments by the descriptor's
 * parameter sizes, child graphs deeply, memory allocations at once), and
 * freed with the node. See cuemu_rt_graph_internal.h.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cuemu/cuemu_runtime.h>

#include "core/cuemu_access_limits.h"
#include "device/cuemu_device_model.h"
#include "device/cuemu_functions.h"
#include "device/cuemu_handles.h"
#include "runtime/cuemu_drv_internal.h"
#include "runtime/cuemu_rt_graph_internal.h"
#include "runtime/cuemu_rt_graph_memory.h"

__thread int cuemu__capture_bypass;

/* CU_LAUNCH_PARAM_* of the `extra` list. */
#define LAUNCH_PARAM_END ((void *)0x00)
#define LAUNCH_PARAM_BUFFER_POINTER ((void *)0x01)
#define LAUNCH_PARAM_BUFFER_SIZE ((void *)0x02)

static size_t align_up(size_t n, size_t a) {
  return a > 1 ? (n + a - 1) / a * a : n;
}

/* A descriptor of a kernel called through a pointer carries the function
 * after its parameters. */
static int takes_function(const cuemu_kernel_desc *d) {
  return !d->function && d->params;
}

/* The `extra` list's buffer and size, or NULL. */
static const unsigned char *extra_buffer(void **extra, size_t *size) {
  const unsigned char *buffer = NULL;
  *size = 0;
  for (size_t i = 0; extra[i] != LAUNCH_PARAM_END; i += 2) {
    if (extra[i] == LAUNCH_PARAM_BUFFER_POINTER)
      buffer = extra[i + 1];
    else if (extra[i] == LAUNCH_PARAM_BUFFER_SIZE && extra[i + 1])
      *size = *(size_t *)extra[i + 1];
    else
      return NULL;
  }
  return buffer;
}

/* The argument shapes of kernel templates launched with deduced template
 * arguments (cuemu_rt_graph_note_deduced). */
typedef struct deduced_shape {
  const cuemu_kernel_desc *desc;
  cuemu_param_desc parts[2]; /* the tuple of values, the lambda */
} deduced_shape;

static deduced_shape *shapes;
static size_t shape_count;

int cuemu_rt_graph_note_deduced(const cuemu_kernel_desc *desc,
                                size_t tuple_size, size_t tuple_align,
                                size_t body_size, size_t body_align) {
  cuemu__graph_lock();
  deduced_shape *v = realloc(shapes, (shape_count + 1) * sizeof *v);
  if (v) {
    shapes = v;
    v[shape_count].desc = desc;
    v[shape_count].parts[0] = (cuemu_param_desc){"tuple", tuple_size,
                                                 tuple_align};
    v[shape_count].parts[1] = (cuemu_param_desc){"lambda", body_size,
                                                 body_align};
    shape_count++;
  }
  cuemu__graph_unlock();
  return 0;
}

/* The two parts of a deduced launch's arguments, or NULL. Called with the
 * lock. */
static const cuemu_param_desc *deduced_parts(const cuemu_kernel_desc *d) {
  for (size_t i = 0; i < shape_count; ++i)
    if (shapes[i].desc == d)
      return shapes[i].parts[0].size ? shapes[i].parts : NULL;
  return NULL;
}

int cuemu__rt_deduced_copyable(const cuemu_kernel_desc *desc) {
  cuemu__graph_lock();
  int copyable = deduced_parts(desc) != NULL;
  cuemu__graph_unlock();
  return copyable;
}

/* Kernels that a capture has seen (templates' instances too, which the
 * program does not register), by address, so that a node's parameters
 * read back (the function's address) can be set again. Called with the
 * lock. */
typedef struct seen {
  const void *function;
  const cuemu_kernel_desc *desc;
} seen;

static seen *seen_kernels;
static size_t seen_count;

static void see_kernel(const void *function, const cuemu_kernel_desc *desc) {
  for (size_t i = 0; i < seen_count; ++i)
    if (seen_kernels[i].function == function)
      return;
  seen *v = realloc(seen_kernels, (seen_count + 1) * sizeof *v);
  if (!v)
    return; /* then only the capture's own nodes know it */
  seen_kernels = v;
  v[seen_count++] = (seen){function, desc};
}

static const cuemu_kernel_desc *seen_kernel(const void *function) {
  for (size_t i = 0; i < seen_count; ++i)
    if (seen_kernels[i].function == function)
      return seen_kernels[i].desc;
  return NULL;
}

/* Copies a kernel node's arguments into the node. */
static int copy_kernel(cuemu_rt_graph_node *node, cuemu_rt_graph_kernel *k) {
  const cuemu_kernel_desc *d =
      k->desc ? k->desc : cuemu__function_find(k->function);
  if (!d)
    d = seen_kernel(k->function);
  if (!d) /* a library's kernel (cudaKernel_t) */
    d = cuemu__drv_library_kernel(k->function);
  else if (k->desc && d->function)
    see_kernel(d->function, d);
  else if (k->desc && takes_function(d) && k->args)
    see_kernel(k->args[d->param_count], d);
  if (!d)
    return cuemu__graph_fail(cudaErrorInvalidDeviceFunction,
                             "kernel node: %p is not a kernel of the program "
                             "(a kernel template's instance is not "
                             "registered: launch it into a capturing stream "
                             "instead)",
                             k->function);
  /* A kernel template launched with deduced template arguments takes a
   * tuple and a lambda, copied as two parameters. */
  const cuemu_param_desc *params = d->params;
  int n = d->param_count;
  if (!d->function && !params) {
    params = deduced_parts(d);
    n = 2;
    if (!params || !k->args)
      return cuemu__graph_fail(cudaErrorNotSupported,
                               "kernel %s: its arguments (launched with "
                               "deduced template arguments) cannot be copied "
                               "into a graph; name its template arguments "
                               "(kernel<T><<<...>>>)",
                               d->name);
  }
  size_t extra_size = 0;
  const unsigned char *extra =
      k->extra ? extra_buffer(k->extra, &extra_size) : NULL;
  if (n > 0 && !k->args && !extra)
    return cuemu__graph_fail(cudaErrorInvalidValue,
                             "kernel node %s: %d arguments, but neither "
                             "kernelParams nor extra gives them",
                             d->name, n);
  size_t size = 0;
  for (int i = 0; i < n; ++i)
    size = align_up(size, params[i].align) + params[i].size;
  if (extra && extra_size < size)
    return cuemu__graph_fail(cudaErrorInvalidValue,
                             "kernel node %s: the extra buffer holds %zu "
                             "bytes; its parameters need %zu",
                             d->name, extra_size, size);
  size_t total = align_up(size, sizeof(void *)) + sizeof(void *);
  unsigned char *blob = calloc(1, total);
  void **ptrs = calloc((size_t)n + 1, sizeof *ptrs);
  if (!blob || !ptrs) {
    free(blob);
    free(ptrs);
    return cuemu_rt_error(cudaErrorMemoryAllocation);
  }
  size_t at = 0;
  for (int i = 0; i < n; ++i) {
    at = align_up(at, params[i].align);
    const void *from = extra ? extra + at : k->args[i];
    if (!from) {
      free(blob);
      free(ptrs);
      return cuemu__graph_fail(cudaErrorInvalidValue,
                               "kernel node %s: argument %d is a NULL "
                               "pointer (kernelParams holds pointers to the "
                               "values)",
                               d->name, i);
    }
    memcpy(blob + at, from, params[i].size);
    ptrs[i] = blob + at;
    at += params[i].size;
  }
  /* The kernel's function, kept after the values: for a kernel called
   * through a pointer, the one after the arguments of a launch (k->desc
   * given), else the address the caller named. */
  void **fn = (void **)(blob + align_up(size, sizeof(void *)));
  *fn = !takes_function(d)        ? (void *)d->function
         : k->desc && k->args ? k->args[n]
                              : (void *)k->function;
  if (params == d->params)
    ptrs[n] = *fn;
  free(node->arg_blob);
  free(node->arg_ptrs);
  node->arg_blob = blob;
  node->arg_ptrs = ptrs;
  node->p.u.kernel = *k;
  node->p.u.kernel.desc = d;
  node->p.u.kernel.function = d->function ? d->function : *fn;
  node->p.u.kernel.args = ptrs;
  node->p.u.kernel.extra = NULL;
  /* The context it runs in, as CUDA's node keeps it: a green context's
   * runs it on that context's SMs. */
  if (!node->p.u.kernel.context)
    node->p.u.kernel.context = cuemu__drv_current();
  node->sms = cuemu__drv_green_sms(node->p.u.kernel.context);
  return cudaSuccess;
}

static int check_memcpy(const cuemu_rt_graph_memcpy *m) {
  if (m->src_array || m->dst_array)
    return cuemu__graph_check_array_copy(m);
  if (!m->dst || !m->src || !m->width || !m->height || !m->depth ||
      m->kind < cudaMemcpyHostToHost || m->kind > cudaMemcpyDefault ||
      (m->height > 1 && (m->dst_pitch < m->width || m->src_pitch < m->width)))
    return cuemu__graph_fail(cudaErrorInvalidValue,
                             "memcpy node: invalid copy (NULL pointer, zero "
                             "extent, pitch below the width or bad kind)");
  return cudaSuccess;
}

static int check_memset(const cuemu_rt_graph_memset *m) {
  unsigned e = m->element_size;
  if (!m->dst || !m->width || !m->height || (e != 1 && e != 2 && e != 4) ||
      (m->height > 1 && m->pitch < m->width * e))
    return cuemu__graph_fail(cudaErrorInvalidValue,
                             "memset node: invalid memset (NULL pointer, "
                             "zero extent, element size %u (1, 2 or 4) or "
                             "pitch below the row)",
                             e);
  return cudaSuccess;
}

/* The conditional node's handle must be one of its graph's or of a graph
 * around it. */
static int check_conditional(cuemu_rt_graph *graph,
                             const cuemu_rt_graph_conditional *c) {
  cuemu__graph_condition *h = (cuemu__graph_condition *)(uintptr_t)c->handle;
  int ok = cuemu__graph_live(h, CUEMU__LIVE_CONDITION);
  if (ok) {
    ok = 0;
    for (cuemu_rt_graph *g = graph; g; g = g->owner ? g->owner->graph : NULL)
      ok |= h->graph == g;
  }
  if (!ok)
    return cuemu__graph_fail(cudaErrorInvalidValue,
                             "conditional node: the handle is not one of "
                             "this graph's (cudaGraphConditionalHandleCreate)");
  if (c->type < 0 || c->type > 2 || c->size == 0 ||
      (c->type == 0 && c->size > 2) || (c->type == 1 && c->size != 1))
    return cuemu__graph_fail(cudaErrorInvalidValue,
                             "conditional node: type %d with %u bodies "
                             "(if: 1 or 2, while: 1, switch: at least 1)",
                             c->type, c->size);
  return cudaSuccess;
}

/* Gives a new conditional node its empty bodies. */
static int make_bodies(cuemu_rt_graph_node *node) {
  unsigned n = node->p.u.conditional.size;
  node->bodies = calloc(n, sizeof *node->bodies);
  if (!node->bodies)
    return cuemu_rt_error(cudaErrorMemoryAllocation);
  for (unsigned i = 0; i < n; ++i) {
    node->bodies[i] = cuemu__graph_new();
    if (!node->bodies[i])
      return cuemu_rt_error(cudaErrorMemoryAllocation);
    node->bodies[i]->owner = node;
  }
  ((cuemu__graph_condition *)(uintptr_t)node->p.u.conditional.handle)->used =
      1;
  node->p.u.conditional.bodies_out = node->bodies;
  return cudaSuccess;
}

/* Records each device's access to a memory allocation node's memory `m`
 * of `device` (which reads and writes it) for memcheck: a graph
 * allocation follows its node's access descriptors, not peer access, as
 * CUDA's does. 0 or a CUDA code. */
static int record_access(const cuemu__graph_memory *m, int device,
                         const struct cudaMemAccessDesc *descs,
                         size_t count) {
  unsigned char flags[CUEMU_MEM_ACCESS_DEVICES] = {0};
  if (device < CUEMU_MEM_ACCESS_DEVICES)
    flags[device] = CUEMU_MEM_ACCESS_READWRITE;
  for (size_t i = 0; i < count; ++i) {
    int d = descs[i].location.id;
    if (descs[i].location.type != cudaMemLocationTypeDevice || d < 0 ||
        d >= cuemu__device_count())
      return cuemu__graph_fail(cudaErrorInvalidDevice,
                               "memory allocation node: access descriptor "
                               "%zu names no device",
                               i);
    if (d < CUEMU_MEM_ACCESS_DEVICES)
      flags[d] = (unsigned char)descs[i].flags;
  }
  flags[device] = CUEMU_MEM_ACCESS_READWRITE;
  /* Only memcheck reads the record: without memory for it, the
   * allocation is merely not checked for access. */
  (void)cuemu__access_limits_set(m->ptr, m->size, m->size, flags);
  return cudaSuccess;
}

/* Allocates a new memory allocation node's memory, on the device its
 * parameters name (the current one for none). */
static int make_memory(cuemu_rt_graph_node *node,
                       const cuemu_rt_graph_node_params *params) {
  size_t size = params->u.alloc.bytesize;
  int current = cuemu__device_current();
  int device = params->u.alloc.device > 0 ? params->u.alloc.device - 1
                                          : current;
  if (device >= cuemu__device_count())
    return cuemu__graph_fail(cudaErrorInvalidDevice,
                             "memory allocation node on device %d: there "
                             "is no such device",
                             device);
  if (params->u.alloc.cuemu_access_count && !params->u.alloc.cuemu_access)
    return cuemu_rt_error(cudaErrorInvalidValue);
  cuemu__graph_memory *m = calloc(1, sizeof *m);
  if (!m)
    return cuemu_rt_error(cudaErrorMemoryAllocation);
  void *ptr = NULL;
  cuemu__capture_bypass++;
  cuemu__device_select(device);
  int code = cuemu_rt_malloc(&ptr, size);
  cuemu__device_select(current);
  cuemu__capture_bypass--;
  if (code) {
    free(m);
    return code;
  }
  m->ptr = ptr;
  m->size = size;
  m->refs = 1;
  code = record_access(m, device, params->u.alloc.cuemu_access,
                       params->u.alloc.cuemu_access_count);
  if (code) {
    cuemu__capture_bypass++;
    cuemu_rt_free(ptr);
    cuemu__capture_bypass--;
    free(m);
    return code;
  }
  cuemu__graph_memory_enter(m);
  node->memory = m;
  node->p.u.alloc.bytesize = size;
  node->p.u.alloc.dptr = ptr;
  node->p.u.alloc.device = device + 1;
  node->p.u.alloc.cuemu_access = NULL;
  node->p.u.alloc.cuemu_access_count = 0;
  return cudaSuccess;
}

int cuemu__graph_node_assign(cuemu_rt_graph_node *node,
                             const cuemu_rt_graph_node_params *params) {
  cuemu_rt_graph_node_params p = *params;
  int code = cudaSuccess;
  switch (p.type) {
  case CUEMU_RT_NODE_KERNEL:
    code = copy_kernel(node, &p.u.kernel);
    if (code == cudaSuccess)
      code = cuemu__graph_attrs_add(node, p.u.kernel.attrs,
                                    p.u.kernel.nattrs);
    return code;
  case CUEMU_RT_NODE_MEMCPY:
    code = check_memcpy(&p.u.memcpy);
    break;
  case CUEMU_RT_NODE_MEMSET:
    code = check_memset(&p.u.memset);
    break;
  case CUEMU_RT_NODE_HOST:
    if (!p.u.host.fn)
      code = cuemu__graph_fail(cudaErrorInvalidValue,
                               "host node: the function is NULL");
    break;
  case CUEMU_RT_NODE_GRAPH: {
    if (!cuemu__graph_live(p.u.child.graph, CUEMU__LIVE_GRAPH))
      return cuemu__graph_fail(cudaErrorInvalidValue,
                               "child graph node: %p is not a graph",
                               (void *)p.u.child.graph);
    if (p.u.child.move && p.u.child.graph->owner)
      return cuemu__graph_fail(cudaErrorInvalidValue,
                               "child graph node: the graph was moved to "
                               "another node, or belongs to one");
    /* Moved (cudaGraphChildGraphOwnershipMove): the node takes the graph. */
    cuemu_rt_graph *copy = p.u.child.move ? p.u.child.graph
                                          : cuemu__graph_copy(p.u.child.graph);
    if (!copy)
      return cuemu_rt_error(cudaErrorMemoryAllocation);
    copy->owner = node;
    if (node->p.type == CUEMU_RT_NODE_GRAPH && node->p.u.child.graph)
      cuemu__graph_free(node->p.u.child.graph);
    node->p = p;
    node->p.u.child.graph = copy;
    return cudaSuccess;
  }
  case CUEMU_RT_NODE_EMPTY:
    break;
  case CUEMU_RT_NODE_WAIT_EVENT:
  case CUEMU_RT_NODE_EVENT_RECORD:
    if (!cuemu__handle_get(CUEMU_HANDLE_EVENT, p.u.event.event, NULL))
      code = cuemu__graph_fail(cudaErrorInvalidValue,
                               "event node: %p is not a live event",
                               p.u.event.event);
    break;
  case CUEMU_RT_NODE_EXT_SIGNAL:
  case CUEMU_RT_NODE_EXT_WAIT:
    return cuemu__graph_ext_assign(node, &p);
  case CUEMU_RT_NODE_BATCH_MEM_OP:
    return cuemu__graph_memop_assign(node, &p);
  case CUEMU_RT_NODE_MEM_FREE:
    if (!p.u.free.dptr)
      code = cuemu__graph_fail(cudaErrorInvalidValue,
                               "memory free node: the pointer is NULL");
    break;
  default:
    return cuemu__graph_fail(cudaErrorInvalidValue,
                             "graph node type %d cannot be set here",
                             p.type);
  }
  if (code == cudaSuccess)
    node->p = p;
  return code;
}

/* Makes a node with no parameters yet and links it after deps. */
static cuemu_rt_graph_node *new_node(cuemu_rt_graph *graph, int type,
                                     cuemu_rt_graph_node *const *deps,
                                     size_t ndeps) {
  static unsigned long long next_id;
  cuemu_rt_graph_node *node = calloc(1, sizeof *node);
  if (!node)
    return NULL;
  node->graph = graph;
  node->id = node->origin = ++next_id;
  node->enabled = 1;
  node->device = cuemu__device_current();
  node->p.type = type;
  int bad = cuemu__node_list_push(&graph->nodes, node);
  for (size_t i = 0; !bad && i < ndeps; ++i)
    bad = cuemu__node_list_push(&node->deps, deps[i]) ||
          cuemu__node_list_push(&deps[i]->outs, node);
  if (!bad)
    bad = cuemu__graph_live_add(node, CUEMU__LIVE_NODE);
  if (bad) {
    for (size_t i = 0; i < ndeps; ++i)
      cuemu__node_list_remove(&deps[i]->outs, node);
    cuemu__node_list_remove(&graph->nodes, node);
    cuemu__node_list_free(&node->deps);
    free(node);
    return NULL;
  }
  return node;
}

/* Frees a node's parameters and owned graphs (not its edges). */
static void free_params(cuemu_rt_graph_node *node) {
  free(node->attrs);
  free(node->arg_blob);
  free(node->arg_ptrs);
  if (node->p.type == CUEMU_RT_NODE_GRAPH && node->p.u.child.graph)
    cuemu__graph_free(node->p.u.child.graph);
  if (node->bodies)
    for (unsigned i = 0; i < node->p.u.conditional.size; ++i)
      if (node->bodies[i])
        cuemu__graph_free(node->bodies[i]);
  free(node->bodies);
  if (node->memory && --node->memory->refs == 0)
    cuemu__graph_memory_leave(node->memory); /* frees or parks it */
}

/* Unlinks a node from its graph and frees it. */
void cuemu__graph_node_free(cuemu_rt_graph_node *node) {
  for (size_t i = 0; i < node->deps.n; ++i)
    cuemu__node_list_remove(&node->deps.v[i]->outs, node);
  for (size_t i = 0; i < node->outs.n; ++i) {
    cuemu__node_list_remove(&node->outs.v[i]->deps, node);
    cuemu__graph_edge_record(node->outs.v[i], node, 0);
  }
  free(node->edges);
  cuemu__node_list_remove(&node->graph->nodes, node);
  cuemu__graph_live_remove(node);
  free_params(node);
  cuemu__node_list_free(&node->deps);
  cuemu__node_list_free(&node->outs);
  free(node);
}

/* Non-zero when a node of `type` may be in a conditional body (kernels,
 * empty nodes, child graphs, memsets, copies and conditionals, as CUDA
 * says), or when `graph` is not inside one. */
static int allowed_in(const cuemu_rt_graph *graph, int type) {
  int in_body = 0;
  for (const cuemu_rt_graph *g = graph; g && g->owner; g = g->owner->graph)
    in_body |= g->owner->p.type == CUEMU_RT_NODE_CONDITIONAL;
  return !in_body || type == CUEMU_RT_NODE_KERNEL ||
         type == CUEMU_RT_NODE_EMPTY || type == CUEMU_RT_NODE_GRAPH ||
         type == CUEMU_RT_NODE_MEMSET || type == CUEMU_RT_NODE_MEMCPY ||
         type == CUEMU_RT_NODE_CONDITIONAL;
}

/* Non-zero when every node of g (and of the graphs in it) may be in a
 * conditional body. */
static int all_allowed_in_body(const cuemu_rt_graph *g) {
  for (size_t i = 0; i < g->nodes.n; ++i) {
    const cuemu_rt_graph_node *n = g->nodes.v[i];
    int type = n->p.type;
    if (type != CUEMU_RT_NODE_KERNEL && type != CUEMU_RT_NODE_EMPTY &&
        type != CUEMU_RT_NODE_GRAPH && type != CUEMU_RT_NODE_MEMSET &&
        type != CUEMU_RT_NODE_MEMCPY && type != CUEMU_RT_NODE_CONDITIONAL)
      return 0;
    if (type == CUEMU_RT_NODE_GRAPH &&
        !all_allowed_in_body(n->p.u.child.graph))
      return 0;
  }
  return 1;
}

int cuemu__graph_add(cuemu_rt_graph_node **out, cuemu_rt_graph *graph,
                     cuemu_rt_graph_node *const *deps, size_t ndeps,
                     const cuemu_rt_graph_node_params *params) {
  int type = params->type;
  if (!allowed_in(graph, type) ||
      (type == CUEMU_RT_NODE_GRAPH && !allowed_in(graph, -1) &&
       cuemu__graph_live(params->u.child.graph, CUEMU__LIVE_GRAPH) &&
       !all_allowed_in_body(params->u.child.graph)))
    return cuemu__graph_fail(cudaErrorNotSupported,
                             "a %s node cannot be in the body of a "
                             "conditional node (kernel, empty, child graph, "
                             "memset, memcpy and conditional nodes can)",
                             cuemu__graph_type_name(type));
  if (type == CUEMU_RT_NODE_CONDITIONAL) {
    int code = check_conditional(graph, &params->u.conditional);
    if (code)
      return code;
  } else if (type == CUEMU_RT_NODE_MEM_ALLOC && params->u.alloc.bytesize == 0) {
    return cuemu__graph_fail(cudaErrorInvalidValue,
                             "memory allocation node of 0 bytes");
  }
  cuemu_rt_graph_node *node = new_node(graph, type, deps, ndeps);
  if (!node)
    return cuemu_rt_error(cudaErrorMemoryAllocation);
  int code;
  if (type == CUEMU_RT_NODE_CONDITIONAL) {
    node->p = *params;
    code = make_bodies(node);
  } else if (type == CUEMU_RT_NODE_MEM_ALLOC) {
    code = make_memory(node, params);
  } else {
    code = cuemu__graph_node_assign(node, params);
  }
  if (code) {
    cuemu__graph_node_free(node);
    return code;
  }
  *out = node;
  return cudaSuccess;
}

cuemu_rt_graph *cuemu__graph_new(void) {
  cuemu_rt_graph *g = calloc(1, sizeof *g);
  if (g && cuemu__graph_live_add(g, CUEMU__LIVE_GRAPH) != 0) {
    free(g);
    g = NULL;
  }
  return g;
}

void cuemu__graph_free(cuemu_rt_graph *g) {
  while (g->nodes.n)
    cuemu__graph_node_free(g->nodes.v[g->nodes.n - 1]);
  cuemu__node_list_free(&g->nodes);
  /* Conditional handles stay valid (a few bytes each, for the life of the
   * process): executable graphs made from this graph use them. */
  free(g->conditions);
  cuemu__graph_live_remove(g);
  cuemu__user_refs_drop(g->refs, g->ref_count);
  free(g);
}

/* Copies one node's parameters into `to` (already in its graph). */
static int copy_params(cuemu_rt_graph_node *to,
                       const cuemu_rt_graph_node *from) {
  to->p = from->p;
  to->enabled = from->enabled;
  switch (from->p.type) {
  case CUEMU_RT_NODE_KERNEL: {
    cuemu_rt_graph_kernel k = from->p.u.kernel;
    to->p.type = CUEMU_RT_NODE_EMPTY; /* nothing to free if it fails */
    int code = copy_kernel(to, &k);
    to->p.type = CUEMU_RT_NODE_KERNEL;
    to->sms = from->sms; /* also when its green context is gone since */
    return code ? code : cuemu__graph_attrs_copy(to, from);
  }
  case CUEMU_RT_NODE_GRAPH:
    to->p.u.child.graph = cuemu__graph_copy(from->p.u.child.graph);
    if (!to->p.u.child.graph)
      return cudaErrorMemoryAllocation;
    to->p.u.child.graph->owner = to;
    return cudaSuccess;
  case CUEMU_RT_NODE_CONDITIONAL: {
    unsigned n = from->p.u.conditional.size;
    to->bodies = calloc(n, sizeof *to->bodies);
    if (!to->bodies)
      return cudaErrorMemoryAllocation;
    to->p.u.conditional.bodies_out = to->bodies;
    for (unsigned i = 0; i < n; ++i) {
      to->bodies[i] = cuemu__graph_copy(from->bodies[i]);
      if (!to->bodies[i])
        return cudaErrorMemoryAllocation;
      to->bodies[i]->owner = to;
    }
    return cudaSuccess;
  }
  case CUEMU_RT_NODE_EXT_SIGNAL:
  case CUEMU_RT_NODE_EXT_WAIT:
    to->arg_blob = NULL;
    return cuemu__graph_ext_assign(to, &from->p);
  case CUEMU_RT_NODE_BATCH_MEM_OP:
    to->arg_blob = NULL;
    return cuemu__graph_memop_assign(to, &from->p);
  case CUEMU_RT_NODE_MEM_ALLOC:
    to->memory = from->memory;
    to->memory->refs++;
    return cudaSuccess;
  default:
    return cudaSuccess;
  }
}

/* The index of a node in its graph's list. */
static size_t index_of(const cuemu_rt_graph_node *n) {
  const cuemu__node_list *l = &n->graph->nodes;
  for (size_t i = 0; i < l->n; ++i)
    if (l->v[i] == n)
      return i;
  return 0;
}

cuemu_rt_graph *cuemu__graph_copy(cuemu_rt_graph *g) {
  cuemu_rt_graph *c = cuemu__graph_new();
  if (!c)
    return NULL;
  int bad = 0;
  for (size_t i = 0; !bad && i < g->nodes.n; ++i) {
    cuemu_rt_graph_node *from = g->nodes.v[i];
    cuemu_rt_graph_node *to = new_node(c, from->p.type, NULL, 0);
    bad = !to;
    if (bad)
      break;
    to->origin = from->id;
    to->origin2 = from->origin2;
    to->device = from->device;
    bad = copy_params(to, from) != cudaSuccess;
  }
  /* The edges, between the copies at the same places. */
  for (size_t i = 0; !bad && i < g->nodes.n; ++i) {
    cuemu_rt_graph_node *from = g->nodes.v[i];
    for (size_t j = 0; !bad && j < from->deps.n; ++j) {
      cuemu_rt_graph_node *dep = c->nodes.v[index_of(from->deps.v[j])];
      bad = cuemu__node_list_push(&c->nodes.v[i]->deps, dep) ||
            cuemu__node_list_push(&dep->outs, c->nodes.v[i]) ||
            cuemu__graph_edge_record(
                c->nodes.v[i], dep,
                cuemu__graph_edge_data(from, from->deps.v[j])) != 0;
    }
  }
  for (size_t i = 0; !bad && i < g->ref_count; ++i) {
    bad = cuemu__user_refs_add(&c->refs, &c->ref_count, g->refs[i].object,
                               g->refs[i].count);
    if (!bad)
      g->refs[i].object->refs += g->refs[i].count;
  }
  if (bad) {
    cuemu__graph_free(c);
    return NULL;
  }
  return c;
}

int cuemu__graph_reaches(const cuemu_rt_graph_node *a,
                         const cuemu_rt_graph_node *b) {
  if (a == b)
    return 1;
  for (size_t i = 0; i < b->deps.n; ++i)
    if (cuemu__graph_reaches(a, b->deps.v[i]))
      return 1;
  return 0;
}

const char *cuemu__graph_type_name(int type) {
  switch (type) {
  case CUEMU_RT_NODE_KERNEL: return "KERNEL";
  case CUEMU_RT_NODE_MEMCPY: return "MEMCPY";
  case CUEMU_RT_NODE_MEMSET: return "MEMSET";
  case CUEMU_RT_NODE_HOST: return "HOST";
  case CUEMU_RT_NODE_GRAPH: return "GRAPH";
  case CUEMU_RT_NODE_EMPTY: return "EMPTY";
  case CUEMU_RT_NODE_WAIT_EVENT: return "WAIT_EVENT";
  case CUEMU_RT_NODE_EVENT_RECORD: return "EVENT_RECORD";
  case CUEMU_RT_NODE_EXT_SIGNAL: return "EXT_SEMAS_SIGNAL";
  case CUEMU_RT_NODE_EXT_WAIT: return "EXT_SEMAS_WAIT";
  case CUEMU_RT_NODE_MEM_ALLOC: return "MEM_ALLOC";
  case CUEMU_RT_NODE_MEM_FREE: return "MEM_FREE";
  case CUEMU_RT_NODE_BATCH_MEM_OP: return "BATCH_MEM_OP";
  case CUEMU_RT_NODE_CONDITIONAL: return "CONDITIONAL";
  default: return "UNKNOWN";
  }
}
