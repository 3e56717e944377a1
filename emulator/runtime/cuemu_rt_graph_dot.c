/*
 * cuemu_rt_graph_dot.c: cudaGraphDebugDotPrint: a Graphviz file of a
 * graph, one cluster per graph (child graphs and conditional bodies nested
 * in their node's), one box per node with its parameters, one arrow per
 * edge. `dot -Tsvg` draws it. As with CUDA, a node's label names its type
 * (and a kernel node its kernel); the flags (cudaGraphDebugDotFlags, the
 * driver's CU_GRAPH_DEBUG_DOT_FLAGS_*) add the parameters of each kind of
 * node, node and function handles, and Verbose adds everything.
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

/* The flags of cudaGraphDebugDotPrint (the driver's values). */
enum {
  DOT_VERBOSE = 1u << 0,
  DOT_KERNEL_PARAMS = 1u << 2,
  DOT_MEMCPY_PARAMS = 1u << 3,
  DOT_MEMSET_PARAMS = 1u << 4,
  DOT_HOST_PARAMS = 1u << 5,
  DOT_EVENT_PARAMS = 1u << 6,
  DOT_EXT_SIGNAL_PARAMS = 1u << 7,
  DOT_EXT_WAIT_PARAMS = 1u << 8,
  DOT_KERNEL_ATTRIBUTES = 1u << 9,
  DOT_HANDLES = 1u << 10,
  DOT_MEM_ALLOC_PARAMS = 1u << 11,
  DOT_MEM_FREE_PARAMS = 1u << 12,
  DOT_BATCH_MEM_OP_PARAMS = 1u << 13,
  DOT_CONDITIONAL_PARAMS = 1u << 15,
};

/* The flag that adds the parameters of a node of this type. */
static unsigned params_flag(int type) {
  switch (type) {
  case CUEMU_RT_NODE_KERNEL: return DOT_KERNEL_PARAMS;
  case CUEMU_RT_NODE_MEMCPY: return DOT_MEMCPY_PARAMS;
  case CUEMU_RT_NODE_MEMSET: return DOT_MEMSET_PARAMS;
  case CUEMU_RT_NODE_HOST: return DOT_HOST_PARAMS;
  case CUEMU_RT_NODE_WAIT_EVENT:
  case CUEMU_RT_NODE_EVENT_RECORD: return DOT_EVENT_PARAMS;
  case CUEMU_RT_NODE_MEM_ALLOC: return DOT_MEM_ALLOC_PARAMS;
  case CUEMU_RT_NODE_MEM_FREE: return DOT_MEM_FREE_PARAMS;
  case CUEMU_RT_NODE_EXT_SIGNAL: return DOT_EXT_SIGNAL_PARAMS;
  case CUEMU_RT_NODE_EXT_WAIT: return DOT_EXT_WAIT_PARAMS;
  case CUEMU_RT_NODE_BATCH_MEM_OP: return DOT_BATCH_MEM_OP_PARAMS;
  case CUEMU_RT_NODE_CONDITIONAL: return DOT_CONDITIONAL_PARAMS;
  default: return 0;
  }
}

/* The rest of a node's label after its type: a kernel node's kernel, then
 * what the flags ask for. */
static void put_params(FILE *f, const cuemu_rt_graph_node *n, unsigned flags) {
  const cuemu_rt_graph_node_params *p = &n->p;
  int all = (flags & DOT_VERBOSE) != 0;
  if (p->type == CUEMU_RT_NODE_KERNEL)
    put_escaped(f, p->u.kernel.desc->name);
  if ((all || (flags & DOT_HANDLES)) != 0) {
    fprintf(f, "%snode %p", p->type == CUEMU_RT_NODE_KERNEL ? "\\n" : "",
            (const void *)n);
    if (p->type == CUEMU_RT_NODE_KERNEL)
      fprintf(f, ", function %p", (const void *)p->u.kernel.desc);
  }
  if (p->type == CUEMU_RT_NODE_KERNEL &&
      (all || (flags & DOT_KERNEL_ATTRIBUTES)) && p->u.kernel.cooperative)
    fprintf(f, "\\ncooperative");
  unsigned want = params_flag(p->type);
  if (!want || !(all || (flags & want)))
    return;
  if (p->type == CUEMU_RT_NODE_KERNEL || (all || (flags & DOT_HANDLES)))
    fprintf(f, "\\n");
  switch (p->type) {
  case CUEMU_RT_NODE_KERNEL: {
    const cuemu_rt_graph_kernel *k = &p->u.kernel;
    fprintf(f, "<<<(%u,%u,%u), (%u,%u,%u), %zu>>>", k->cuemu_grid.x,
            k->cuemu_grid.y, k->cuemu_grid.z, k->cuemu_block.x,
            k->cuemu_block.y, k->cuemu_block.z, k->dynamic_shared);
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
                      const char *label, int depth, unsigned flags) {
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
    put_params(f, n, flags);
    fprintf(f, "\"];\n");
    char inner[64];
    if (n->p.type == CUEMU_RT_NODE_GRAPH) {
      snprintf(inner, sizeof inner, "child graph of node %zu", i);
      put_graph(f, n->p.u.child.graph, n->id, inner, depth + 1, flags);
    }
    for (unsigned b = 0; n->bodies && b < n->p.u.conditional.size; ++b) {
      snprintf(inner, sizeof inner, "body %u of node %zu", b, i);
      put_graph(f, n->bodies[b], n->id * 1000 + b, inner, depth + 1,
                flags);
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
  put_graph(f, graph, 0, "graph", 1, flags);
  fprintf(f, "}\n");
  int bad = ferror(f);
  bad |= fclose(f) != 0;
  cuemu__graph_unlock();
  return bad ? cuemu__graph_fail(cudaErrorOperatingSystem,
                                 "cudaGraphDebugDotPrint: writing %s failed",
                                 path)
             : cudaSuccess;
}
