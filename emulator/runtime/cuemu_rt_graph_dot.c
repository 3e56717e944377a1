/*
 * cuemu_rt_graph_dot.c: cudaGraphDebugDotPrint: a Graphviz file of a
 * graph, one cluster per graph (child graphs and conditional bodies nested
 * in their node's), one box per node with its parameters, one arrow per
 * edge. `dot -Tsvg` draws it.
 */
#include <stdint.h>
#include <stdio.h>

#include <cuemu/cuemu_runtime.h>

#include "runtime/cuemu_rt_graph_internal.h"

static const char *kind_name(int kind) {
  static const char *const names[] = {"HtoH", "HtoD", "DtoH", "DtoD",
                                      "Default"};
  return kind >= 0 && kind <= 4 ? names[kind] : "?";
}

/* Writes a string for a quoted dot label (quotes and backslashes escaped). */
static void put_escaped(FILE *f, const char *s) {
  for (; *s; ++s) {
    if (*s == '"' || *s == '\\' || *s == '<' || *s == '>' || *s == '{' ||
        *s == '}' || *s == '|')
      fputc('\\', f);
    fputc(*s, f);
  }
}

/* The second line of a node's label: what it does. */
static void put_params(FILE *f, const cuemu_rt_graph_node *n) {
  const cuemu_rt_graph_node_params *p = &n->p;
  switch (p->type) {
  case CUEMU_RT_NODE_KERNEL: {
    const cuemu_rt_graph_kernel *k = &p->u.kernel;
    put_escaped(f, k->desc->name);
    fprintf(f, "\\n<<<(%u,%u,%u), (%u,%u,%u), %zu>>>%s", k->cuemu_grid.x,
            k->cuemu_grid.y, k->cuemu_grid.z, k->cuemu_block.x,
            k->cuemu_block.y, k->cuemu_block.z, k->dynamic_shared,
            k->cooperative ? " cooperative" : "");
    break;
  }
  case CUEMU_RT_NODE_MEMCPY: {
    const cuemu_rt_graph_memcpy *m = &p->u.memcpy;
    int arrays = m->src_array || m->dst_array;
    fprintf(f, "%s %zu x %zu x %zu %s\\n%s%p -\\> %s%p",
            kind_name(m->kind), m->width, m->height, m->depth,
            arrays ? "elements" : "bytes", m->src_array ? "array " : "",
            m->src_array ? (const void *)m->src_array : m->src,
            m->dst_array ? "array " : "",
            m->dst_array ? (void *)m->dst_array : m->dst);
    break;
  }
  case CUEMU_RT_NODE_MEMSET: {
    const cuemu_rt_graph_memset *m = &p->u.memset;
    fprintf(f, "value 0x%x, %u-byte elements, %zu x %zu\\n%p", m->value,
            m->element_size, m->width, m->height, m->dst);
    break;
  }
  case CUEMU_RT_NODE_HOST:
    fprintf(f, "fn %p, data %p", (void *)(uintptr_t)p->u.host.fn,
            p->u.host.data);
    break;
  case CUEMU_RT_NODE_WAIT_EVENT:
  case CUEMU_RT_NODE_EVENT_RECORD:
    fprintf(f, "event %p", p->u.event.event);
    break;
  case CUEMU_RT_NODE_MEM_ALLOC:
    fprintf(f, "%zu bytes at %p", p->u.alloc.bytesize, p->u.alloc.dptr);
    break;
  case CUEMU_RT_NODE_MEM_FREE:
    fprintf(f, "%p", p->u.free.dptr);
    break;
  case CUEMU_RT_NODE_EXT_SIGNAL:
  case CUEMU_RT_NODE_EXT_WAIT:
    fprintf(f, "%u semaphore%s, first %p", p->u.ext.count,
            p->u.ext.count == 1 ? "" : "s", (void *)p->u.ext.sems[0]);
    break;
  case CUEMU_RT_NODE_BATCH_MEM_OP:
    fprintf(f, "%u operation%s", p->u.memop.count,
            p->u.memop.count == 1 ? "" : "s");
    break;
  case CUEMU_RT_NODE_CONDITIONAL: {
    static const char *const types[] = {"if", "while", "switch"};
    fprintf(f, "%s, %u bod%s, handle %#llx", types[p->u.conditional.type],
            p->u.conditional.size, p->u.conditional.size == 1 ? "y" : "ies",
            p->u.conditional.handle);
    break;
  }
  default:
    break;
  }
}

static void put_graph(FILE *f, const cuemu_rt_graph *g, unsigned long long id,
                      const char *label, int depth) {
  fprintf(f, "%*ssubgraph cluster_%llu {\n", depth * 2, "", id);
  fprintf(f, "%*slabel=\"%s\"; style=\"dashed\";\n", depth * 2 + 2, "",
          label);
  for (size_t i = 0; i < g->nodes.n; ++i) {
    const cuemu_rt_graph_node *n = g->nodes.v[i];
    fprintf(f,
            "%*s\"node_%llu\" [shape=\"box\" style=\"%s\" label=\"%zu: "
            "%s\\n",
            depth * 2 + 2, "", n->id, n->enabled ? "solid" : "dotted", i,
            cuemu__graph_type_name(n->p.type));
    put_params(f, n);
    fprintf(f, "\"];\n");
    char inner[64];
    if (n->p.type == CUEMU_RT_NODE_GRAPH) {
      snprintf(inner, sizeof inner, "child graph of node %zu", i);
      put_graph(f, n->p.u.child.graph, n->id, inner, depth + 1);
    }
    for (unsigned b = 0; n->bodies && b < n->p.u.conditional.size; ++b) {
      snprintf(inner, sizeof inner, "body %u of node %zu", b, i);
      put_graph(f, n->bodies[b], n->id * 1000 + b, inner, depth + 1);
    }
  }
  for (size_t i = 0; i < g->nodes.n; ++i) {
    const cuemu_rt_graph_node *n = g->nodes.v[i];
    for (size_t j = 0; j < n->deps.n; ++j) {
      /* An edge with data (a kernel's port, a programmatic dependency) is
       * dashed and says which. */
      unsigned d = cuemu__graph_edge_data(n, n->deps.v[j]);
      static const char *const ports[] = {"", "programmatic port",
                                          "launch completion port"};
      if (d)
        fprintf(f,
                "%*s\"node_%llu\" -> \"node_%llu\" [style=\"dashed\" "
                "label=\"%s%s%s\"];\n",
                depth * 2 + 2, "", n->deps.v[j]->id, n->id,
                ports[(d & 0xffu) <= 2 ? d & 0xffu : 0],
                (d & 0xffu) && (d >> 16) ? ", " : "",
                (d >> 16) ? "programmatic" : "");
      else
        fprintf(f, "%*s\"node_%llu\" -> \"node_%llu\";\n", depth * 2 + 2,
                "", n->deps.v[j]->id, n->id);
    }
  }
  fprintf(f, "%*s}\n", depth * 2, "");
}

int cuemu_rt_graph_debug_dot_print(cuemu_rt_graph *graph, const char *path,
                                   unsigned flags) {
  (void)flags; /* every node shows its parameters */
  if (!path)
    return cuemu_rt_error(cudaErrorInvalidValue);
  cuemu__graph_lock();
  if (!cuemu__graph_live(graph, CUEMU__LIVE_GRAPH)) {
    cuemu__graph_unlock();
    return cuemu_rt_error(cudaErrorInvalidValue);
  }
  FILE *f = fopen(path, "w");
  if (!f) {
    cuemu__graph_unlock();
    return cuemu__graph_fail(cudaErrorOperatingSystem,
                             "cudaGraphDebugDotPrint: cannot write %s", path);
  }
  fprintf(f, "digraph cuemu_graph {\n  compound=true;\n");
  put_graph(f, graph, 0, "graph", 1);
  fprintf(f, "}\n");
  int bad = ferror(f);
  bad |= fclose(f) != 0;
  cuemu__graph_unlock();
  return bad ? cuemu__graph_fail(cudaErrorOperatingSystem,
                                 "cudaGraphDebugDotPrint: writing %s failed",
                                 path)
             : cudaSuccess;
}
