/*
 * cuemu_rt_graph.c: building graphs (cudaGraphCreate, cudaGraphAdd*Node,
 * dependencies, queries, clones, conditional handles); see
 * cuemu_runtime_graph.h. Each function checks its handles against the live
 * objects under the lock.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cuemu/cuemu_runtime.h>

#include "runtime/cuemu_rt_graph_internal.h"
#include "runtime/cuemu_rt_graph_memory.h"

#define LIVE_GRAPH(g) cuemu__graph_live((g), CUEMU__LIVE_GRAPH)
#define LIVE_NODE(n) cuemu__graph_live((n), CUEMU__LIVE_NODE)

/* Ends a call made with the lock. */
static int unlock_with(int code) {
  cuemu__graph_unlock();
  return code ? cuemu_rt_error(code) : cudaSuccess;
}

int cuemu_rt_graph_create(cuemu_rt_graph **graph, unsigned flags) {
  if (!graph || flags != 0)
    return cuemu_rt_error(cudaErrorInvalidValue);
  cuemu__graph_lock();
  *graph = cuemu__graph_new();
  return unlock_with(*graph ? cudaSuccess : cudaErrorMemoryAllocation);
}

int cuemu_rt_graph_destroy(cuemu_rt_graph *graph) {
  cuemu__graph_lock();
  if (!LIVE_GRAPH(graph))
    return unlock_with(cudaErrorInvalidValue);
  if (graph->owner) {
    cuemu__graph_unlock();
    return cuemu__graph_fail(cudaErrorInvalidValue,
                             "cudaGraphDestroy: the graph belongs to a %s "
                             "node and goes with it",
                             graph->owner->p.type == CUEMU_RT_NODE_GRAPH
                                 ? "child graph"
                                 : "conditional");
  }
  if (cuemu__capture_building(graph)) {
    cuemu__graph_unlock();
    return cuemu__graph_fail(cudaErrorIllegalState,
                             "cudaGraphDestroy: a stream capture is adding "
                             "to this graph; end it first");
  }
  cuemu__graph_free(graph);
  return unlock_with(cudaSuccess);
}

/* Checks a list of dependencies: live nodes of `graph`, no repeats. */
static int check_deps(cuemu_rt_graph *graph, cuemu_rt_graph_node *const *deps,
                      size_t n) {
  if (n && !deps)
    return cudaErrorInvalidValue;
  for (size_t i = 0; i < n; ++i) {
    if (!LIVE_NODE(deps[i]) || deps[i]->graph != graph)
      return cudaErrorInvalidValue;
    for (size_t j = 0; j < i; ++j)
      if (deps[j] == deps[i])
        return cudaErrorInvalidValue;
  }
  return cudaSuccess;
}

int cuemu_rt_graph_add_node(cuemu_rt_graph_node **node, cuemu_rt_graph *graph,
                            cuemu_rt_graph_node *const *deps, size_t ndeps,
                            cuemu_rt_graph_node_params *params) {
  if (!node || !params)
    return cuemu_rt_error(cudaErrorInvalidValue);
  cuemu__graph_lock();
  int code = LIVE_GRAPH(graph) ? check_deps(graph, deps, ndeps)
                               : cudaErrorInvalidValue;
  if (code)
    return unlock_with(code);
  if ((params->type == CUEMU_RT_NODE_MEM_ALLOC ||
       params->type == CUEMU_RT_NODE_MEM_FREE) &&
      graph->owner && graph->owner->p.type == CUEMU_RT_NODE_GRAPH) {
    /* cudaGraphChildGraphNodeGetGraph: "Allocation and free nodes cannot be
     * added to the returned graph", nor to a moved one. */
    cuemu__graph_unlock();
    return cuemu__graph_fail(cudaErrorNotSupported,
                             "a memory %s node cannot be added to the graph "
                             "of a child graph node",
                             params->type == CUEMU_RT_NODE_MEM_ALLOC ? "allocation"
                                                                    : "free");
  }
  if (params->type == CUEMU_RT_NODE_GRAPH &&
      LIVE_GRAPH(params->u.child.graph)) {
    /* CUDA's rules for a child graph (cudaGraphAddChildGraphNode,
     * cudaChildGraphNodeParams). */
    const char *why = NULL;
    if (cuemu__graph_has_conditional_nodes(params->u.child.graph))
      why = "contains conditional nodes";
    else if (!params->u.child.move &&
             cuemu__graph_has_memory_nodes(params->u.child.graph))
      why = "contains memory allocation or free nodes and is cloned (move it "
            "with cudaGraphChildGraphOwnershipMove)";
    else if (params->u.child.move && cuemu__capture_building(params->u.child.graph))
      why = "is being captured into";
    if (why) {
      cuemu__graph_unlock();
      return cuemu__graph_fail(cudaErrorInvalidValue,
                               "child graph node: the child graph %s", why);
    }
  }
  code = cuemu__graph_add(node, graph, deps, ndeps, params);
  if (code == cudaSuccess) {
    /* The outputs: the allocation's address, the conditional's bodies. */
    if (params->type == CUEMU_RT_NODE_MEM_ALLOC)
      params->u.alloc.dptr = (*node)->p.u.alloc.dptr;
    if (params->type == CUEMU_RT_NODE_CONDITIONAL)
      params->u.conditional.bodies_out = (*node)->bodies;
  }
  return unlock_with(code);
}

int cuemu_rt_graph_node_get_params(cuemu_rt_graph_node *node,
                                   cuemu_rt_graph_node_params *params) {
  cuemu__graph_lock();
  if (!params || !LIVE_NODE(node))
    return unlock_with(cudaErrorInvalidValue);
  *params = node->p;
  return unlock_with(cudaSuccess);
}

int cuemu_rt_graph_node_set_params(cuemu_rt_graph_node *node,
                                   const cuemu_rt_graph_node_params *params) {
  cuemu__graph_lock();
  if (!params || !LIVE_NODE(node) || params->type != node->p.type)
    return unlock_with(cudaErrorInvalidValue);
  cuemu_rt_graph_node_params p = *params;
  cuemu__graph_keep_attrs(node, &p);
  int code = cuemu__graph_node_assign(node, &p);
  cuemu__graph_unlock();
  return code;
}

int cuemu_rt_graph_node_get_type(cuemu_rt_graph_node *node, int *type) {
  cuemu__graph_lock();
  if (!type || !LIVE_NODE(node))
    return unlock_with(cudaErrorInvalidValue);
  *type = node->p.type;
  return unlock_with(cudaSuccess);
}

int cuemu_rt_graph_node_get_graph(cuemu_rt_graph_node *node,
                                  cuemu_rt_graph **graph) {
  cuemu__graph_lock();
  if (!graph || !LIVE_NODE(node))
    return unlock_with(cudaErrorInvalidValue);
  *graph = node->graph;
  return unlock_with(cudaSuccess);
}

int cuemu_rt_graph_destroy_node(cuemu_rt_graph_node *node) {
  cuemu__graph_lock();
  if (!LIVE_NODE(node))
    return unlock_with(cudaErrorInvalidValue);
  cuemu__graph_node_free(node);
  return unlock_with(cudaSuccess);
}

/* Fills a CUDA-style list (see cuemu_runtime_graph.h). */
static void fill(cuemu_rt_graph_node **out, size_t *count,
                 cuemu_rt_graph_node *const *v, size_t n) {
  if (!out) {
    *count = n;
    return;
  }
  size_t k = n < *count ? n : *count;
  for (size_t i = 0; i < *count; ++i)
    out[i] = i < k ? v[i] : NULL;
  *count = k;
}

int cuemu_rt_graph_get_nodes(cuemu_rt_graph *graph, cuemu_rt_graph_node **out,
                             size_t *count) {
  cuemu__graph_lock();
  if (!count || !LIVE_GRAPH(graph))
    return unlock_with(cudaErrorInvalidValue);
  fill(out, count, graph->nodes.v, graph->nodes.n);
  return unlock_with(cudaSuccess);
}

int cuemu_rt_graph_get_root_nodes(cuemu_rt_graph *graph,
                                  cuemu_rt_graph_node **out, size_t *count) {
  cuemu__graph_lock();
  if (!count || !LIVE_GRAPH(graph))
    return unlock_with(cudaErrorInvalidValue);
  cuemu__node_list roots = {0};
  for (size_t i = 0; i < graph->nodes.n; ++i)
    if (graph->nodes.v[i]->deps.n == 0 &&
        cuemu__node_list_push(&roots, graph->nodes.v[i]) != 0) {
      cuemu__node_list_free(&roots);
      return unlock_with(cudaErrorMemoryAllocation);
    }
  fill(out, count, roots.v, roots.n);
  cuemu__node_list_free(&roots);
  return unlock_with(cudaSuccess);
}

int cuemu_rt_graph_get_edges(cuemu_rt_graph *graph, cuemu_rt_graph_node **from,
                             cuemu_rt_graph_node **to, size_t *count) {
  cuemu__graph_lock();
  if (!count || !LIVE_GRAPH(graph) || (!from != !to))
    return unlock_with(cudaErrorInvalidValue);
  size_t n = 0, room = *count;
  for (size_t i = 0; i < graph->nodes.n; ++i) {
    cuemu_rt_graph_node *b = graph->nodes.v[i];
    for (size_t j = 0; j < b->deps.n; ++j, ++n)
      if (from && n < room) {
        from[n] = b->deps.v[j];
        to[n] = b;
      }
  }
  if (from) {
    for (size_t i = n; i < room; ++i)
      from[i] = to[i] = NULL;
    *count = n < room ? n : room;
  } else {
    *count = n;
  }
  return unlock_with(cudaSuccess);
}

int cuemu_rt_graph_node_get_dependencies(cuemu_rt_graph_node *node,
                                         cuemu_rt_graph_node **out,
                                         size_t *count) {
  cuemu__graph_lock();
  if (!count || !LIVE_NODE(node))
    return unlock_with(cudaErrorInvalidValue);
  fill(out, count, node->deps.v, node->deps.n);
  return unlock_with(cudaSuccess);
}

int cuemu_rt_graph_node_get_dependents(cuemu_rt_graph_node *node,
                                       cuemu_rt_graph_node **out,
                                       size_t *count) {
  cuemu__graph_lock();
  if (!count || !LIVE_NODE(node))
    return unlock_with(cudaErrorInvalidValue);
  fill(out, count, node->outs.v, node->outs.n);
  return unlock_with(cudaSuccess);
}

/* Checks edges from[i] -> to[i] of `graph`: each present (want 1) or
 * absent (want 0), none twice, none a self-edge. */
static int check_edges(cuemu_rt_graph *graph, cuemu_rt_graph_node *const *from,
                       cuemu_rt_graph_node *const *to, size_t n, int want) {
  if (!LIVE_GRAPH(graph) || (n && (!from || !to)))
    return cudaErrorInvalidValue;
  for (size_t i = 0; i < n; ++i) {
    if (!LIVE_NODE(from[i]) || !LIVE_NODE(to[i]) || from[i] == to[i] ||
        from[i]->graph != graph || to[i]->graph != graph ||
        cuemu__node_list_has(&to[i]->deps, from[i]) != want)
      return cudaErrorInvalidValue;
    for (size_t j = 0; j < i; ++j)
      if (from[j] == from[i] && to[j] == to[i])
        return cudaErrorInvalidValue;
  }
  return cudaSuccess;
}

int cuemu_rt_graph_add_dependencies(cuemu_rt_graph *graph,
                                    cuemu_rt_graph_node *const *from,
                                    cuemu_rt_graph_node *const *to, size_t n) {
  cuemu__graph_lock();
  int code = check_edges(graph, from, to, n, 0);
  for (size_t i = 0; !code && i < n; ++i)
    if (cuemu__node_list_push(&to[i]->deps, from[i]) ||
        cuemu__node_list_push(&from[i]->outs, to[i]))
      code = cudaErrorMemoryAllocation;
  return unlock_with(code);
}

int cuemu_rt_graph_remove_dependencies(cuemu_rt_graph *graph,
                                       cuemu_rt_graph_node *const *from,
                                       cuemu_rt_graph_node *const *to,
                                       size_t n) {
  cuemu__graph_lock();
  int code = check_edges(graph, from, to, n, 1);
  for (size_t i = 0; !code && i < n; ++i) {
    cuemu__node_list_remove(&to[i]->deps, from[i]);
    cuemu__node_list_remove(&from[i]->outs, to[i]);
    cuemu__graph_edge_record(to[i], from[i], 0);
  }
  return unlock_with(code);
}

int cuemu_rt_graph_clone(cuemu_rt_graph **clone, cuemu_rt_graph *original) {
  cuemu__graph_lock();
  if (!clone || !LIVE_GRAPH(original))
    return unlock_with(cudaErrorInvalidValue);
  /* CUDA does not clone graphs with memory or conditional nodes
   * (cuGraphClone). */
  if (cuemu__graph_has_memory_nodes(original) ||
      cuemu__graph_has_conditional_nodes(original)) {
    cuemu__graph_unlock();
    return cuemu__graph_fail(cudaErrorNotSupported,
                             "cudaGraphClone: a graph with memory allocation, "
                             "memory free or conditional nodes cannot be "
                             "cloned");
  }
  *clone = cuemu__graph_copy(original);
  return unlock_with(*clone ? cudaSuccess : cudaErrorMemoryAllocation);
}

int cuemu_rt_graph_node_find_in_clone(cuemu_rt_graph_node **node,
                                      cuemu_rt_graph_node *original,
                                      cuemu_rt_graph *clone) {
  cuemu__graph_lock();
  if (!node || !LIVE_NODE(original) || !LIVE_GRAPH(clone))
    return unlock_with(cudaErrorInvalidValue);
  for (size_t i = 0; i < clone->nodes.n; ++i)
    if (clone->nodes.v[i]->origin == original->id &&
        clone->nodes.v[i] != original) {
      *node = clone->nodes.v[i];
      return unlock_with(cudaSuccess);
    }
  return unlock_with(cudaErrorInvalidValue);
}

int cuemu_rt_graph_conditional_handle_create(unsigned long long *handle,
                                             cuemu_rt_graph *graph,
                                             unsigned default_value,
                                             unsigned flags) {
  cuemu__graph_lock();
  if (!handle || flags > 1u || !LIVE_GRAPH(graph))
    return unlock_with(cudaErrorInvalidValue);
  cuemu__graph_condition *c = calloc(1, sizeof *c);
  cuemu__graph_condition **v =
      realloc(graph->conditions,
              (graph->condition_count + 1) * sizeof *graph->conditions);
  if (v)
    graph->conditions = v;
  if (!c || !v || cuemu__graph_live_add(c, CUEMU__LIVE_CONDITION) != 0) {
    free(c);
    return unlock_with(cudaErrorMemoryAllocation);
  }
  c->value = c->default_value = default_value;
  c->flags = flags;
  c->graph = graph;
  graph->conditions[graph->condition_count++] = c;
  *handle = (unsigned long long)(uintptr_t)c;
  return unlock_with(cudaSuccess);
}

void cuemu_rt_graph_set_conditional(unsigned long long handle,
                                    unsigned value) {
  cuemu__graph_condition *c = (cuemu__graph_condition *)(uintptr_t)handle;
  cuemu__graph_lock();
  int ok = cuemu__graph_live(c, CUEMU__LIVE_CONDITION);
  if (ok)
    __atomic_store_n(&c->value, value, __ATOMIC_RELAXED);
  cuemu__graph_unlock();
  if (!ok)
    fprintf(stderr,
            "cuemu: cudaGraphSetConditional: %#llx is not a conditional "
            "handle (cudaGraphConditionalHandleCreate); ignored\n",
            handle);
}
