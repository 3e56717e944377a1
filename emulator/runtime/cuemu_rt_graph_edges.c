/*
 * cuemu_rt_graph_edges.c: edge data (CUDA's cudaGraphEdgeData) of graph
 * edges. A plain edge (all-zero data) has no record; an edge with data
 * (a programmatic or launch-completion port of a kernel node, a
 * programmatic dependency) is recorded on its downstream node, keyed by the
 * upstream node. The emulator runs every edge as a full dependency (the
 * downstream kernel starts after the upstream one has completed), which
 * programmatic dependent launch allows: the data only travels with the
 * graph, for the queries, copies and Graphviz output that read it.
 */
#include <stdlib.h>

#include "runtime/cuemu_rt_graph_internal.h"
#include "runtime/cuemu_rt_internal.h"

unsigned cuemu__graph_edge_data(const cuemu_rt_graph_node *to,
                                const cuemu_rt_graph_node *from) {
  for (size_t i = 0; i < to->edge_count; ++i)
    if (to->edges[i].from == from)
      return to->edges[i].data;
  return 0;
}

int cuemu__graph_edge_record(cuemu_rt_graph_node *to,
                             cuemu_rt_graph_node *from, unsigned data) {
  for (size_t i = 0; i < to->edge_count; ++i)
    if (to->edges[i].from == from) {
      if (data)
        to->edges[i].data = data;
      else
        to->edges[i] = to->edges[--to->edge_count];
      return cudaSuccess;
    }
  if (!data)
    return cudaSuccess;
  cuemu__graph_edge *v =
      realloc(to->edges, (to->edge_count + 1) * sizeof *to->edges);
  if (!v)
    return cudaErrorMemoryAllocation;
  to->edges = v;
  v[to->edge_count++] = (cuemu__graph_edge){from, data};
  return cudaSuccess;
}

/* CUDA's rules: ports only on kernel nodes (the upstream node's outgoing
 * port: programmatic or launch completion; no incoming port is defined), a
 * programmatic dependency only between kernel nodes and from one of those
 * ports, and the programmatic port only with that type ("It must be used
 * with edge type CU_GRAPH_DEPENDENCY_TYPE_PROGRAMMATIC"). */
int cuemu__graph_edge_valid(const cuemu_rt_graph_node *from,
                            const cuemu_rt_graph_node *to, unsigned data) {
  unsigned from_port = data & 0xffu, to_port = (data >> 8) & 0xffu,
           type = (data >> 16) & 0xffu;
  if (!data)
    return cudaSuccess;
  if (to_port || from_port > 2 || type > 1 || (data >> 24))
    return cuemu__graph_fail(cudaErrorInvalidValue,
                             "edge data: port %u -> %u, type %u is not one "
                             "CUDA defines",
                             from_port, to_port, type);
  if (from->p.type != CUEMU_RT_NODE_KERNEL ||
      to->p.type != CUEMU_RT_NODE_KERNEL)
    return cuemu__graph_fail(cudaErrorInvalidValue,
                             "edge data: only edges between kernel nodes "
                             "have ports or a programmatic type");
  if (type == 1 && from_port == 0)
    return cuemu__graph_fail(cudaErrorInvalidValue,
                             "edge data: a programmatic dependency leaves "
                             "the programmatic or launch-completion port");
  if (from_port == 1 && type != 1)
    return cuemu__graph_fail(cudaErrorInvalidValue,
                             "edge data: the programmatic port "
                             "(cudaGraphKernelNodePortProgrammatic) takes the "
                             "programmatic type");
  return cudaSuccess;
}

int cuemu_rt_graph_edge_check(cuemu_rt_graph_node *from, cuemu_rt_graph_node *to,
                              int to_type, unsigned data) {
  cuemu__graph_lock();
  int code = cudaSuccess;
  if (!cuemu__graph_live(from, CUEMU__LIVE_NODE) ||
      (to && !cuemu__graph_live(to, CUEMU__LIVE_NODE))) {
    code = cudaErrorInvalidValue;
  } else {
    cuemu_rt_graph_node probe;
    probe.p.type = to ? to->p.type : to_type;
    code = cuemu__graph_edge_valid(from, &probe, data);
  }
  cuemu__graph_unlock();
  return code ? cuemu_rt_error(code) : cudaSuccess;
}

int cuemu_rt_graph_edge_set(cuemu_rt_graph_node *from, cuemu_rt_graph_node *to,
                            unsigned data) {
  cuemu__graph_lock();
  int code = cudaSuccess;
  if (!cuemu__graph_live(from, CUEMU__LIVE_NODE) ||
      !cuemu__graph_live(to, CUEMU__LIVE_NODE) ||
      !cuemu__node_list_has(&to->deps, from))
    code = cudaErrorInvalidValue;
  else if ((code = cuemu__graph_edge_valid(from, to, data)) == cudaSuccess)
    code = cuemu__graph_edge_record(to, from, data);
  cuemu__graph_unlock();
  return code ? cuemu_rt_error(code) : cudaSuccess;
}

int cuemu_rt_graph_edge_get(cuemu_rt_graph_node *from, cuemu_rt_graph_node *to,
                            unsigned *data) {
  cuemu__graph_lock();
  int code = cudaSuccess;
  if (!data || !cuemu__graph_live(from, CUEMU__LIVE_NODE) ||
      !cuemu__graph_live(to, CUEMU__LIVE_NODE))
    code = cudaErrorInvalidValue;
  else
    *data = cuemu__graph_edge_data(to, from);
  cuemu__graph_unlock();
  return code ? cuemu_rt_error(code) : cudaSuccess;
}
