/*
 * cuemu_rt_graph_run.c: running a graph's nodes in dependency order (see
 * cuemu__graph_run in cuemu_rt_graph_internal.h). Among the nodes ready at
 * a time, CUEMU_GRAPH_ORDER picks the next: the first added, the last
 * added, or a seeded random one (a different order at each launch).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cuemu/cuemu_runtime.h>
#include <cuemu/cuemu_runtime_streams.h>

#include "base/cuemu_config.h"
#include "device/cuemu_device_launch.h"
#include "device/cuemu_device_model.h"
#include "runtime/cuemu_rt_graph_internal.h"
#include "runtime/cuemu_rt_graph_memory.h"
#include "runtime/cuemu_rt_internal.h"
#include "runtime/cuemu_rt_pinned_guard.h"

static uint64_t splitmix(uint64_t *state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

cuemu_launch_request cuemu__graph_kernel_request(
    const cuemu_rt_graph_node *node, void *stream) {
  const cuemu_rt_graph_kernel *k = &node->p.u.kernel;
  cuemu_launch_request r = {
      .kernel = k->desc,
      .grid = {k->cuemu_grid.x, k->cuemu_grid.y, k->cuemu_grid.z},
      .block = {k->cuemu_block.x, k->cuemu_block.y, k->cuemu_block.z},
      .dynamic_shared = k->dynamic_shared,
      .stream = stream,
      .args = node->arg_ptrs,
      .cooperative = k->cooperative,
      .origin = CUEMU_LAUNCH_RUNTIME,
      .sms = node->sms ? node->sms : CUEMU_LAUNCH_SMS_DEVICE,
  };
  const cudaLaunchAttribute *cluster =
      cuemu__graph_attr(node, cudaLaunchAttributeClusterDimension);
  if (cluster)
    r.cluster = (cuemu_dim3){cluster->val.clusterDim.x,
                             cluster->val.clusterDim.y,
                             cluster->val.clusterDim.z};
  return r;
}

int cuemu__graph_node_device_enter(const cuemu_rt_graph_node *node,
                                   void **stream) {
  int previous = cuemu__device_current();
  if (!cuemu_thread_in_kernel() && node->device != previous) {
    cuemu__device_select(node->device);
    *stream = NULL;
  }
  return previous;
}

static int run_kernel(const cuemu_rt_graph_node *node, void *stream) {
  int previous = cuemu__graph_node_device_enter(node, &stream);
  cuemu_launch_request r = cuemu__graph_kernel_request(node, stream);
  cuemu_status st = cuemu__device_launch(&r);
  cuemu__device_select(previous);
  /* A kernel that failed while running has made its error sticky; the
   * launch returns normally, as CUDA's asynchronous one does. */
  if (st != CUEMU_SUCCESS && !cuemu_status_is_sticky(st))
    return cuemu_rt_error(cuemu_status_cuda_error(st));
  return cudaSuccess;
}

/* The first byte of each side of a copy between pointers. */
static char *copy_dst(const cuemu_rt_graph_memcpy *m) {
  return (char *)m->dst + m->dst_x +
         m->dst_pitch * (m->dst_y + m->dst_ysize * m->dst_z);
}

static const char *copy_src(const cuemu_rt_graph_memcpy *m) {
  return (const char *)m->src + m->src_x +
         m->src_pitch * (m->src_y + m->src_ysize * m->src_z);
}

static int run_memcpy(const cuemu_rt_graph_memcpy *m) {
  if (m->src_array || m->dst_array)
    return cuemu__graph_run_array_copy(m);
  if (m->height == 1 && m->depth == 1)
    return cuemu_rt_memcpy(copy_dst(m), copy_src(m), m->width, m->kind);
  return cuemu__rt_memcpy_slices(copy_dst(m), m->dst_pitch,
                                 m->dst_pitch * m->dst_ysize, copy_src(m),
                                 m->src_pitch, m->src_pitch * m->src_ysize,
                                 m->width, m->height, m->depth, m->kind);
}

static int run_memset(const cuemu_rt_graph_memset *m) {
  size_t row = m->width * m->element_size;
  size_t pitch = m->height > 1 ? m->pitch : row;
  /* The whole range is checked (and bytes set) by the runtime's memset;
   * wider elements are then written one by one. */
  int code = cuemu_rt_memset_2d(m->dst, pitch, (int)(m->value & 0xffu), row,
                                m->height);
  if (code || m->element_size == 1)
    return code;
  for (size_t y = 0; y < m->height; ++y) {
    unsigned char *p = (unsigned char *)m->dst + y * pitch;
    for (size_t x = 0; x < m->width; ++x) {
      if (m->element_size == 2) {
        uint16_t v = (uint16_t)m->value;
        memcpy(p + 2 * x, &v, 2);
      } else {
        uint32_t v = m->value;
        memcpy(p + 4 * x, &v, 4);
      }
    }
  }
  return cudaSuccess;
}

/* The part of a guarded copy made at a time (below). */
#define GUARDED_PART ((size_t)256 << 10)

/* A copy or memset node: the pinned memory that racecheck guards for it,
 * when a stream's queue runs it (cuemu_rt_pinned_guard.h), is its own
 * while it runs. A guarded linear copy is made GUARDED_PART bytes at a
 * time, only those bytes its own, so that a host access to the rest while
 * it runs is still seen; initcheck judges its source as one copy. */
static int run_transfer(const cuemu_rt_graph_node_params *p) {
  const cuemu_rt_graph_memcpy *m = &p->u.memcpy;
  int code = cudaSuccess;
  if (p->type == CUEMU_RT_NODE_MEMCPY && m->height == 1 && m->depth == 1 &&
      !m->src_array && !m->dst_array && m->width > GUARDED_PART &&
      cuemu__pinned_guard_owns(p)) {
    for (size_t at = 0; at < m->width && !code; at += GUARDED_PART) {
      size_t n = m->width - at < GUARDED_PART ? m->width - at : GUARDED_PART;
      cuemu__pinned_guard_window(p, at, n);
      code = cuemu__rt_memcpy_part(copy_dst(m), copy_src(m), at, n, m->width,
                                   m->kind);
    }
  } else {
    cuemu__pinned_guard_run(p);
    code = p->type == CUEMU_RT_NODE_MEMCPY ? run_memcpy(m)
                                           : run_memset(&p->u.memset);
  }
  cuemu__pinned_guard_ran(p);
  return code;
}

static unsigned condition_value(const cuemu_rt_graph_node *node) {
  const cuemu__graph_condition *c =
      (const cuemu__graph_condition *)(uintptr_t)node->p.u.conditional.handle;
  return __atomic_load_n(&c->value, __ATOMIC_RELAXED);
}

static int run_conditional(const cuemu_rt_graph_node *node, void *stream,
                           unsigned long long launch) {
  const cuemu_rt_graph_conditional *c = &node->p.u.conditional;
  unsigned v = condition_value(node);
  switch (c->type) {
  case 0: /* if, with an else body when there are two */
    if (v)
      return cuemu__graph_run(node->bodies[0], stream, launch);
    return c->size == 2 ? cuemu__graph_run(node->bodies[1], stream, launch)
                        : cudaSuccess;
  case 1: /* while: the condition is tested before each pass */
    while (condition_value(node)) {
      int code = cuemu__graph_run(node->bodies[0], stream, launch);
      if (code || cuemu_rt_sticky())
        return code;
    }
    return cudaSuccess;
  default: /* switch: no body past the last */
    return v < c->size ? cuemu__graph_run(node->bodies[v], stream, launch)
                       : cudaSuccess;
  }
}

static int run_node(const cuemu_rt_graph_node *node, void *stream,
                    unsigned long long launch) {
  const cuemu_rt_graph_node_params *p = &node->p;
  if (!node->enabled)
    return cudaSuccess;
  switch (p->type) {
  case CUEMU_RT_NODE_KERNEL:
    return run_kernel(node, stream);
  case CUEMU_RT_NODE_MEMCPY:
  case CUEMU_RT_NODE_MEMSET:
    return run_transfer(p);
  case CUEMU_RT_NODE_HOST:
    /* A host function may tell the host that the work before it is done
     * (racecheck of pinned memory: cuemu_rt_pinned_guard.h). */
    cuemu__pinned_guard_sync();
    p->u.host.fn(p->u.host.data);
    return cudaSuccess;
  case CUEMU_RT_NODE_GRAPH:
    return cuemu__graph_run(p->u.child.graph, stream, launch);
  case CUEMU_RT_NODE_WAIT_EVENT:
    return cuemu_rt_stream_wait_event(stream, p->u.event.event, 0);
  case CUEMU_RT_NODE_EVENT_RECORD:
    return cuemu_rt_event_record(p->u.event.event, stream);
  case CUEMU_RT_NODE_CONDITIONAL:
    return run_conditional(node, stream, launch);
  case CUEMU_RT_NODE_EXT_SIGNAL:
  case CUEMU_RT_NODE_EXT_WAIT:
    return cuemu__graph_ext_run(node);
  case CUEMU_RT_NODE_BATCH_MEM_OP:
    return cuemu__graph_memop_run(node);
  case CUEMU_RT_NODE_MEM_ALLOC:
    cuemu__graph_memory_allocated(node->memory);
    return cudaSuccess;
  case CUEMU_RT_NODE_MEM_FREE:
    return cuemu__graph_memory_free_node(p->u.free.dptr);
  default: /* empty nodes */
    return cudaSuccess;
  }
}

int cuemu__graph_run(cuemu_rt_graph *g, void *stream,
                     unsigned long long launch) {
  size_t n = g->nodes.n;
  if (n == 0)
    return cudaSuccess;
  unsigned long long seed;
  int order = cuemu__config_graph_order(&seed);
  if (order < 0)
    return cuemu__graph_fail(cudaErrorInvalidValue,
                             "CUEMU_GRAPH_ORDER: expected forward, reverse "
                             "or random:SEED");
  uint64_t rng = seed ^ (launch * 0x2545f4914f6cdd1dULL) ^ (uintptr_t)n;
  size_t *pending = malloc(n * sizeof *pending);
  size_t *ready = malloc(n * sizeof *ready);
  if (!pending || !ready) {
    free(pending);
    free(ready);
    return cuemu_rt_error(cudaErrorMemoryAllocation);
  }
  /* The nodes' places in the list, then their unmet dependencies. */
  size_t nready = 0;
  for (size_t i = 0; i < n; ++i) {
    pending[i] = g->nodes.v[i]->deps.n;
    if (pending[i] == 0)
      ready[nready++] = i;
  }
  int code = cudaSuccess;
  while (nready && code == cudaSuccess && !cuemu_rt_sticky()) {
    /* `ready` is kept in increasing order. */
    size_t pick = order == CUEMU_SCHEDULE_FORWARD   ? 0
                  : order == CUEMU_SCHEDULE_REVERSE ? nready - 1
                                                    : splitmix(&rng) % nready;
    size_t i = ready[pick];
    memmove(ready + pick, ready + pick + 1, (nready - pick - 1) * sizeof *ready);
    nready--;
    cuemu_rt_graph_node *node = g->nodes.v[i];
    code = run_node(node, stream, launch);
    for (size_t j = 0; j < node->outs.n; ++j) {
      size_t k = 0;
      while (g->nodes.v[k] != node->outs.v[j])
        ++k;
      if (--pending[k] == 0) {
        size_t at = nready;
        while (at > 0 && ready[at - 1] > k) {
          ready[at] = ready[at - 1];
          --at;
        }
        ready[at] = k;
        nready++;
      }
    }
  }
  free(pending);
  free(ready);
  return code;
}
