/*
 * cuemu_rt_graph_attr.c: the launch attributes of kernel nodes
 * (cudaGraphKernelNodeSetAttribute, GetAttribute, CopyAttributes, and the
 * attributes a captured cudaLaunchKernelEx gives its node). A node keeps
 * one attribute per id; the cooperative attribute is the node's
 * cooperative flag (p.u.kernel.cooperative), which the launch path reads,
 * and the cluster dimension is read when the node runs
 * (cuemu__graph_kernel_request). See cuemu_runtime_graph.h.
 */
#include <stdlib.h>
#include <string.h>

#include <cuemu/cuemu_runtime.h>

#include "runtime/cuemu_rt_graph_internal.h"
#include "runtime/cuemu_rt_internal.h"

#define LIVE_KERNEL(n)                                                         \
  (cuemu__graph_live((n), CUEMU__LIVE_NODE) &&                                 \
   (n)->p.type == CUEMU_RT_NODE_KERNEL)

/* 0 when CUDA allows attribute `id` on a graph node, else its error. */
static int node_may_have(int id) {
  switch (id) {
  case cudaLaunchAttributeSynchronizationPolicy:     /* streams only */
  case cudaLaunchAttributeProgrammaticStreamSerialization: /* launches */
  case cudaLaunchAttributeProgrammaticEvent:
  case cudaLaunchAttributeLaunchCompletionEvent:
    return cudaErrorInvalidValue;
  case cudaLaunchAttributeDeviceUpdatableKernelNode:
    return cudaErrorNotSupported;
  default:
    return 0;
  }
}

const cudaLaunchAttribute *cuemu__graph_attr(const cuemu_rt_graph_node *node,
                                             int id) {
  for (unsigned i = 0; i < node->nattrs; ++i)
    if ((int)node->attrs[i].id == id)
      return &node->attrs[i];
  return NULL;
}

/* Stores one attribute (replacing one of the same id); a CUDA code. */
static int store(cuemu_rt_graph_node *node, const cudaLaunchAttribute *a) {
  if (a->id == cudaLaunchAttributeIgnore)
    return cudaSuccess;
  if (a->id == cudaLaunchAttributeCooperative) {
    node->p.u.kernel.cooperative = a->val.cooperative != 0;
    return cudaSuccess;
  }
  cudaLaunchAttribute *at = (cudaLaunchAttribute *)cuemu__graph_attr(node,
                                                                     a->id);
  if (!at) {
    cudaLaunchAttribute *v =
        realloc(node->attrs, (node->nattrs + 1) * sizeof *v);
    if (!v)
      return cudaErrorMemoryAllocation;
    node->attrs = v;
    at = &v[node->nattrs++];
  }
  *at = *a;
  return cudaSuccess;
}

int cuemu__graph_attrs_add(cuemu_rt_graph_node *node,
                           const cudaLaunchAttribute *attrs, unsigned n) {
  for (unsigned i = 0; i < n; ++i) {
    /* A launch's attribute that nodes do not take (programmatic
     * serialization, events) stays with the launch. */
    if (node_may_have(attrs[i].id))
      continue;
    int code = store(node, &attrs[i]);
    if (code)
      return code;
  }
  node->p.u.kernel.attrs = node->attrs;
  node->p.u.kernel.nattrs = node->nattrs;
  return cudaSuccess;
}

int cuemu__graph_attrs_copy(cuemu_rt_graph_node *to,
                            const cuemu_rt_graph_node *from) {
  cudaLaunchAttribute *v = NULL;
  if (from->nattrs) {
    v = malloc(from->nattrs * sizeof *v);
    if (!v)
      return cudaErrorMemoryAllocation;
    memcpy(v, from->attrs, from->nattrs * sizeof *v);
  }
  free(to->attrs);
  to->attrs = v;
  to->nattrs = from->nattrs;
  to->p.u.kernel.cooperative = from->p.u.kernel.cooperative;
  to->p.u.kernel.attrs = v;
  to->p.u.kernel.nattrs = from->nattrs;
  return cudaSuccess;
}

void cuemu__graph_keep_attrs(const cuemu_rt_graph_node *node,
                             cuemu_rt_graph_node_params *p) {
  if (p->type != CUEMU_RT_NODE_KERNEL || node->p.type != CUEMU_RT_NODE_KERNEL)
    return;
  p->u.kernel.cooperative = node->p.u.kernel.cooperative;
  p->u.kernel.attrs = NULL;
  p->u.kernel.nattrs = 0;
}

int cuemu_rt_graph_kernel_node_set_attribute(
    cuemu_rt_graph_node *node, int id, const cudaLaunchAttributeValue *value) {
  cuemu__graph_lock();
  int code = cudaSuccess;
  cudaLaunchAttribute a;
  memset(&a, 0, sizeof a);
  if (!value || !LIVE_KERNEL(node)) {
    code = cuemu__graph_fail(cudaErrorInvalidValue,
                             "cudaGraphKernelNodeSetAttribute: %s",
                             value ? "the node is not a live kernel node"
                                   : "the value is NULL");
  } else if ((code = node_may_have(id)) != 0) {
    code = cuemu__graph_fail(code,
                             "cudaGraphKernelNodeSetAttribute: launch "
                             "attribute %d is not one a graph node takes%s",
                             id,
                             code == cudaErrorNotSupported
                                 ? " here (device-updatable kernel nodes "
                                   "are not emulated)"
                                 : " (streams or launches only)");
  } else {
    a.id = (cudaLaunchAttributeID)id;
    a.val = *value;
    code = cuemu__rt_launch_attr_check(&a);
    if (code)
      code = cuemu__graph_fail(code,
                               "cudaGraphKernelNodeSetAttribute: invalid "
                               "value of launch attribute %d",
                               id);
    else
      code = cuemu__graph_attrs_add(node, &a, 1);
  }
  cuemu__graph_unlock();
  return code ? cuemu_rt_error(code) : cudaSuccess;
}

int cuemu_rt_graph_kernel_node_get_attribute(cuemu_rt_graph_node *node,
                                             int id,
                                             cudaLaunchAttributeValue *value) {
  cuemu__graph_lock();
  int code = cudaSuccess;
  if (!value || !LIVE_KERNEL(node)) {
    code = cudaErrorInvalidValue;
  } else if ((code = node_may_have(id)) == 0) {
    memset(value, 0, sizeof *value);
    const cudaLaunchAttribute *a = cuemu__graph_attr(node, id);
    if (id == cudaLaunchAttributeCooperative)
      value->cooperative = node->p.u.kernel.cooperative;
    else if (a)
      *value = a->val;
  }
  cuemu__graph_unlock();
  return code ? cuemu_rt_error(code) : cudaSuccess;
}

int cuemu_rt_graph_kernel_node_copy_attributes(cuemu_rt_graph_node *dst,
                                               cuemu_rt_graph_node *src) {
  cuemu__graph_lock();
  int code = LIVE_KERNEL(dst) && LIVE_KERNEL(src)
                 ? cuemu__graph_attrs_copy(dst, src)
                 : cudaErrorInvalidValue;
  cuemu__graph_unlock();
  return code ? cuemu_rt_error(code) : cudaSuccess;
}
