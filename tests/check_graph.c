/*
 * check_graph.c: CUDA Graphs through libcuemu's public side of them
 * (cuemu_runtime_graph.h), with host, memset, memcpy and empty nodes only
 * (the kernels' side is in tests/programs/graphs/): the order nodes run in
 * under each CUEMU_GRAPH_ORDER, CUDA's list conventions, handle checks,
 * parameter checks, updates, user objects and capture bookkeeping. Every
 * test runs in a child process.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuemu/cuemu.h>
#include <cuemu/cuemu_runtime.h>
#include <cuemu/cuemu_runtime_graph.h>
#include <cuemu/cuemu_runtime_streams.h>

#include "check_suites.h"
#include "cuemu_test_util.h"

/* Host nodes append their letter to a trace. */
static char trace[64];
static size_t traced;
static void note(void *letter) {
  if (traced + 1 < sizeof trace)
    trace[traced++] = *(const char *)letter;
  trace[traced] = '\0';
}

static cuemu_rt_graph_node *host_node(cuemu_rt_graph *g, const char *letter,
                                      cuemu_rt_graph_node *const *deps,
                                      size_t ndeps) {
  cuemu_rt_graph_node_params p = {.type = CUEMU_RT_NODE_HOST};
  p.u.host.fn = note;
  p.u.host.data = (void *)letter;
  cuemu_rt_graph_node *node = NULL;
  ck_assert_int_eq(cuemu_rt_graph_add_node(&node, g, deps, ndeps, &p),
                   cudaSuccess);
  return node;
}

/* The trace of one launch of `exec` under CUEMU_GRAPH_ORDER=order. */
static const char *run_order(cuemu_rt_graph_exec *exec, const char *order) {
  setenv("CUEMU_GRAPH_ORDER", order, 1);
  traced = 0;
  trace[0] = '\0';
  ck_assert_int_eq(cuemu_rt_graph_launch(exec, NULL), cudaSuccess);
  /* The graph runs in the stream's order, reading the order then. */
  ck_assert_int_eq(cuemu_rt_stream_synchronize(NULL), cudaSuccess);
  unsetenv("CUEMU_GRAPH_ORDER");
  return trace;
}

START_TEST(orders_of_ready_nodes) {
  /* A, B, C are roots; D follows A; E follows D and C. */
  cuemu_rt_graph *g;
  ck_assert_int_eq(cuemu_rt_graph_create(&g, 0), cudaSuccess);
  cuemu_rt_graph_node *a = host_node(g, "A", NULL, 0);
  host_node(g, "B", NULL, 0);
  cuemu_rt_graph_node *c = host_node(g, "C", NULL, 0);
  cuemu_rt_graph_node *d = host_node(g, "D", &a, 1);
  cuemu_rt_graph_node *dc[] = {d, c};
  host_node(g, "E", dc, 2);
  cuemu_rt_graph_exec *exec;
  ck_assert_int_eq(cuemu_rt_graph_instantiate(&exec, g, 0, NULL, NULL, NULL),
                   cudaSuccess);
  ck_assert_str_eq(run_order(exec, "forward"), "ABCDE");
  ck_assert_str_eq(run_order(exec, "reverse"), "CBADE");
  /* Random orders differ between launches but always respect the edges. */
  int differ = 0;
  char first[8];
  snprintf(first, sizeof first, "%s", run_order(exec, "random:3"));
  for (int i = 0; i < 20; ++i) {
    const char *t = run_order(exec, "random:3");
    ck_assert_ptr_nonnull(strchr(t, 'E'));
    ck_assert(strchr(t, 'A') < strchr(t, 'D'));
    ck_assert(strchr(t, 'D') < strchr(t, 'E'));
    ck_assert(strchr(t, 'C') < strchr(t, 'E'));
    differ |= strcmp(t, first) != 0;
  }
  ck_assert(differ);
  /* A malformed order fails the launch itself, whether the stream runs
   * it later or at once (CUEMU_STREAMS=sync): nothing is queued, so the
   * stream's synchronisation then succeeds. */
  setenv("CUEMU_GRAPH_ORDER", "sideways", 1);
  ck_assert_int_eq(cuemu_rt_graph_launch(exec, NULL), cudaErrorInvalidValue);
  ck_assert_int_eq(cuemu_rt_stream_synchronize(NULL), cudaSuccess);
  unsetenv("CUEMU_GRAPH_ORDER");
  ck_assert_int_eq(cuemu_rt_graph_exec_destroy(exec), cudaSuccess);
  ck_assert_int_eq(cuemu_rt_graph_destroy(g), cudaSuccess);
}
END_TEST

START_TEST(list_conventions) {
  cuemu_rt_graph *g;
  ck_assert_int_eq(cuemu_rt_graph_create(&g, 0), cudaSuccess);
  cuemu_rt_graph_node *a = host_node(g, "A", NULL, 0);
  cuemu_rt_graph_node *b = host_node(g, "B", &a, 1);
  size_t n = 0;
  ck_assert_int_eq(cuemu_rt_graph_get_nodes(g, NULL, &n), cudaSuccess);
  ck_assert_uint_eq(n, 2);
  /* More room than nodes: the rest is NULL, the count is what was
   * written; less room: as many as fit. */
  cuemu_rt_graph_node *v[4] = {a, a, a, a};
  n = 4;
  ck_assert_int_eq(cuemu_rt_graph_get_nodes(g, v, &n), cudaSuccess);
  ck_assert_uint_eq(n, 2);
  ck_assert(v[0] == a && v[1] == b && v[2] == NULL && v[3] == NULL);
  n = 1;
  ck_assert_int_eq(cuemu_rt_graph_get_nodes(g, v, &n), cudaSuccess);
  ck_assert_uint_eq(n, 1);
  cuemu_rt_graph_node *from[2], *to[2];
  n = 2;
  ck_assert_int_eq(cuemu_rt_graph_get_edges(g, from, to, &n), cudaSuccess);
  ck_assert(n == 1 && from[0] == a && to[0] == b && from[1] == NULL);
  ck_assert_int_eq(cuemu_rt_graph_get_edges(g, from, NULL, &n),
                   cudaErrorInvalidValue);
  /* Edges: no self-edge, no duplicate, no removal of a missing one. */
  ck_assert_int_eq(cuemu_rt_graph_add_dependencies(g, &a, &a, 1),
                   cudaErrorInvalidValue);
  ck_assert_int_eq(cuemu_rt_graph_add_dependencies(g, &a, &b, 1),
                   cudaErrorInvalidValue);
  ck_assert_int_eq(cuemu_rt_graph_remove_dependencies(g, &b, &a, 1),
                   cudaErrorInvalidValue);
  ck_assert_int_eq(cuemu_rt_graph_remove_dependencies(g, &a, &b, 1),
                   cudaSuccess);
  ck_assert_int_eq(cuemu_rt_graph_get_root_nodes(g, NULL, &n), cudaSuccess);
  ck_assert_uint_eq(n, 2);
  /* Destroying a node takes its edges. */
  ck_assert_int_eq(cuemu_rt_graph_add_dependencies(g, &a, &b, 1),
                   cudaSuccess);
  ck_assert_int_eq(cuemu_rt_graph_destroy_node(a), cudaSuccess);
  ck_assert_int_eq(cuemu_rt_graph_node_get_dependencies(b, NULL, &n),
                   cudaSuccess);
  ck_assert_uint_eq(n, 0);
  int type;
  ck_assert_int_eq(cuemu_rt_graph_node_get_type(a, &type),
                   cudaErrorInvalidValue);
  ck_assert_int_eq(cuemu_rt_graph_destroy(g), cudaSuccess);
  ck_assert_int_eq(cuemu_rt_graph_node_get_type(b, &type),
                   cudaErrorInvalidValue);
  ck_assert_int_eq(cuemu_rt_graph_get_nodes(g, NULL, &n),
                   cudaErrorInvalidValue);
}
END_TEST

START_TEST(parameter_checks) {
  cuemu_rt_graph *g;
  ck_assert_int_eq(cuemu_rt_graph_create(&g, 0), cudaSuccess);
  ck_assert_int_eq(cuemu_rt_graph_create(&g, 1), cudaErrorInvalidValue);
  void *d;
  ck_assert_int_eq(cuemu_rt_malloc(&d, 64), cudaSuccess);
  cuemu_rt_graph_node *node;
  cuemu_rt_graph_node_params p = {.type = CUEMU_RT_NODE_MEMSET};
  p.u.memset.dst = d;
  p.u.memset.element_size = 3;
  p.u.memset.width = 4;
  p.u.memset.height = 1;
  ck_assert_int_eq(cuemu_rt_graph_add_node(&node, g, NULL, 0, &p),
                   cudaErrorInvalidValue);
  p.u.memset.element_size = 2;
  p.u.memset.value = 0xbeef;
  ck_assert_int_eq(cuemu_rt_graph_add_node(&node, g, NULL, 0, &p),
                   cudaSuccess);
  cuemu_rt_graph_node_params h = {.type = CUEMU_RT_NODE_HOST};
  ck_assert_int_eq(cuemu_rt_graph_add_node(&node, g, NULL, 0, &h),
                   cudaErrorInvalidValue); /* no function */
  cuemu_rt_graph_node_params k = {.type = CUEMU_RT_NODE_KERNEL};
  k.u.kernel.function = &k;
  ck_assert_int_eq(cuemu_rt_graph_add_node(&node, g, NULL, 0, &k),
                   cudaErrorInvalidDeviceFunction);
  cuemu_rt_graph_node_params e = {.type = CUEMU_RT_NODE_EVENT_RECORD};
  e.u.event.event = (void *)0x12345;
  ck_assert_int_eq(cuemu_rt_graph_add_node(&node, g, NULL, 0, &e),
                   cudaErrorInvalidValue);
  cuemu_rt_graph_node_params c = {.type = CUEMU_RT_NODE_CONDITIONAL};
  c.u.conditional.size = 1;
  ck_assert_int_eq(cuemu_rt_graph_add_node(&node, g, NULL, 0, &c),
                   cudaErrorInvalidValue); /* no handle */
  unsigned long long handle;
  ck_assert_int_eq(cuemu_rt_graph_conditional_handle_create(&handle, g, 0, 2),
                   cudaErrorInvalidValue);
  ck_assert_int_eq(cuemu_rt_graph_conditional_handle_create(&handle, g, 0, 0),
                   cudaSuccess);
  c.u.conditional.handle = handle;
  c.u.conditional.type = 1; /* while */
  c.u.conditional.size = 2;
  ck_assert_int_eq(cuemu_rt_graph_add_node(&node, g, NULL, 0, &c),
                   cudaErrorInvalidValue);
  /* The 2-byte memset runs. */
  cuemu_rt_graph_exec *exec;
  /* Device launch is not for graphs that free on launch. */
  ck_assert_int_eq(cuemu_rt_graph_instantiate(&exec, g, 4 | 1, NULL, NULL,
                                              NULL),
                   cudaErrorInvalidValue);
  ck_assert_int_eq(cuemu_rt_graph_instantiate(&exec, g, 0, NULL, NULL, NULL),
                   cudaSuccess);
  ck_assert_int_eq(cuemu_rt_graph_launch(exec, NULL), cudaSuccess);
  uint16_t out[4];
  ck_assert_int_eq(cuemu_rt_memcpy(out, d, sizeof out, cudaMemcpyDeviceToHost),
                   cudaSuccess);
  ck_assert(out[0] == 0xbeef && out[3] == 0xbeef);
  ck_assert_int_eq(cuemu_rt_graph_exec_destroy(exec), cudaSuccess);
  ck_assert_int_eq(cuemu_rt_graph_exec_destroy(exec), cudaErrorInvalidValue);
  ck_assert_int_eq(cuemu_rt_graph_debug_dot_print(g, "/nonexistent/x.dot", 0),
                   cudaErrorOperatingSystem);
  ck_assert_int_eq(cuemu_rt_graph_destroy(g), cudaSuccess);
  ck_assert_int_eq(cuemu_rt_free(d), cudaSuccess);
}
END_TEST

START_TEST(updates) {
  cuemu_rt_graph *g, *other;
  ck_assert_int_eq(cuemu_rt_graph_create(&g, 0), cudaSuccess);
  cuemu_rt_graph_node *a = host_node(g, "A", NULL, 0);
  host_node(g, "B", &a, 1);
  cuemu_rt_graph_exec *exec;
  ck_assert_int_eq(cuemu_rt_graph_instantiate(&exec, g, 0, NULL, NULL, NULL),
                   cudaSuccess);
  /* Same shape, another letter: taken. */
  ck_assert_int_eq(cuemu_rt_graph_create(&other, 0), cudaSuccess);
  cuemu_rt_graph_node *x = host_node(other, "X", NULL, 0);
  cuemu_rt_graph_node *y = host_node(other, "Y", &x, 1);
  int result = -1;
  cuemu_rt_graph_node *bad = NULL, *from = NULL;
  ck_assert_int_eq(cuemu_rt_graph_exec_update(exec, other, &result, &bad,
                                              &from),
                   cudaSuccess);
  ck_assert_int_eq(result, CUEMU_RT_UPDATE_SUCCESS);
  ck_assert_str_eq(run_order(exec, "forward"), "XY");
  /* Per-node parameters, by the node of either graph. */
  cuemu_rt_graph_node_params p = {.type = CUEMU_RT_NODE_HOST};
  p.u.host.fn = note;
  p.u.host.data = "Z";
  ck_assert_int_eq(cuemu_rt_graph_exec_node_set_params(exec, y, &p),
                   cudaSuccess);
  p.u.host.data = "W";
  ck_assert_int_eq(cuemu_rt_graph_exec_node_set_params(exec, a, &p),
                   cudaSuccess);
  ck_assert_str_eq(run_order(exec, "forward"), "WZ");
  /* Another type in place of the second node. */
  ck_assert_int_eq(cuemu_rt_graph_destroy_node(y), cudaSuccess);
  cuemu_rt_graph_node_params empty = {.type = CUEMU_RT_NODE_EMPTY};
  ck_assert_int_eq(cuemu_rt_graph_add_node(&y, other, &x, 1, &empty),
                   cudaSuccess);
  ck_assert_int_eq(cuemu_rt_graph_exec_update(exec, other, &result, &bad,
                                              &from),
                   cudaErrorGraphExecUpdateFailure);
  ck_assert_int_eq(result, CUEMU_RT_UPDATE_NODE_TYPE_CHANGED);
  ck_assert_ptr_eq(bad, y);
  /* The same types, an edge missing. */
  ck_assert_int_eq(cuemu_rt_graph_destroy_node(y), cudaSuccess);
  y = host_node(other, "Y", NULL, 0);
  ck_assert_int_eq(cuemu_rt_graph_exec_update(exec, other, &result, &bad,
                                              &from),
                   cudaErrorGraphExecUpdateFailure);
  ck_assert_int_eq(result, CUEMU_RT_UPDATE_TOPOLOGY_CHANGED);
  ck_assert_ptr_eq(bad, y);
  ck_assert_int_eq(cuemu_rt_graph_exec_node_set_params(exec, y, &p),
                   cudaErrorInvalidValue); /* not a node of the exec */
  ck_assert_int_eq(cuemu_rt_graph_exec_destroy(exec), cudaSuccess);
  ck_assert_int_eq(cuemu_rt_graph_destroy(other), cudaSuccess);
  ck_assert_int_eq(cuemu_rt_graph_destroy(g), cudaSuccess);
}
END_TEST

static int destroyed;
static void destroy_count(void *p) { destroyed += *(int *)p; }

START_TEST(user_object_references) {
  int weight = 1;
  cuemu_rt_user_object *o;
  ck_assert_int_eq(cuemu_rt_user_object_create(&o, &weight, destroy_count, 1,
                                               0),
                   cudaErrorInvalidValue); /* NoDestructorSync needed */
  ck_assert_int_eq(cuemu_rt_user_object_create(&o, &weight, destroy_count, 2,
                                               1),
                   cudaSuccess);
  cuemu_rt_graph *g, *clone;
  ck_assert_int_eq(cuemu_rt_graph_create(&g, 0), cudaSuccess);
  ck_assert_int_eq(cuemu_rt_graph_retain_user_object(g, o, 3, 0),
                   cudaSuccess); /* 5 */
  ck_assert_int_eq(cuemu_rt_graph_clone(&clone, g), cudaSuccess); /* 8 */
  ck_assert_int_eq(cuemu_rt_user_object_release(o, 2), cudaSuccess); /* 6 */
  ck_assert_int_eq(cuemu_rt_graph_release_user_object(g, o, 4),
                   cudaErrorInvalidValue); /* it holds 3 */
  ck_assert_int_eq(cuemu_rt_graph_destroy(g), cudaSuccess); /* 3 */
  ck_assert_int_eq(destroyed, 0);
  ck_assert_int_eq(cuemu_rt_graph_release_user_object(clone, o, 1),
                   cudaSuccess); /* 2 */
  ck_assert_int_eq(cuemu_rt_graph_destroy(clone), cudaSuccess); /* 0 */
  ck_assert_int_eq(destroyed, 1);
  ck_assert_int_eq(cuemu_rt_user_object_retain(o, 1), cudaErrorInvalidValue);
}
END_TEST

START_TEST(capture_bookkeeping) {
  void *s;
  ck_assert_int_eq(cuemu_rt_stream_create(&s, 0, 0), cudaSuccess);
  int status = -1;
  ck_assert_int_eq(cuemu_rt_stream_is_capturing(s, &status), cudaSuccess);
  ck_assert_int_eq(status, CUEMU_RT_CAPTURE_NONE);
  ck_assert_int_eq(cuemu_rt_stream_begin_capture(s, 3, NULL, NULL, 0),
                   cudaErrorInvalidValue);
  ck_assert_int_eq(
      cuemu_rt_stream_begin_capture(s, CUEMU_RT_CAPTURE_GLOBAL, NULL, NULL, 0),
      cudaSuccess);
  /* A host function and a memset are recorded, not run. */
  traced = 0;
  trace[0] = '\0';
  ck_assert_int_eq(cuemu_rt_launch_host_func(s, note, "H"), cudaSuccess);
  ck_assert_str_eq(trace, "");
  void *d;
  ck_assert_int_eq(cuemu_rt_malloc(&d, 16), cudaErrorStreamCaptureUnsupported);
  ck_assert_int_eq(cuemu_rt_stream_is_capturing(s, &status), cudaSuccess);
  ck_assert_int_eq(status, CUEMU_RT_CAPTURE_INVALIDATED);
  cuemu_rt_graph *g = (cuemu_rt_graph *)&g;
  ck_assert_int_eq(cuemu_rt_stream_end_capture(s, &g),
                   cudaErrorStreamCaptureInvalidated);
  ck_assert_ptr_null(g);
  ck_assert_int_eq(cuemu_rt_stream_end_capture(s, &g), cudaErrorIllegalState);
  /* The capture mode of the thread. */
  int mode = 7;
  ck_assert_int_eq(cuemu_rt_thread_exchange_capture_mode(&mode),
                   cudaErrorInvalidValue);
  mode = CUEMU_RT_CAPTURE_RELAXED;
  ck_assert_int_eq(cuemu_rt_thread_exchange_capture_mode(&mode), cudaSuccess);
  ck_assert_int_eq(mode, CUEMU_RT_CAPTURE_GLOBAL);
  ck_assert_int_eq(
      cuemu_rt_stream_begin_capture(s, CUEMU_RT_CAPTURE_GLOBAL, NULL, NULL, 0),
      cudaSuccess);
  ck_assert_int_eq(cuemu_rt_malloc(&d, 16), cudaSuccess);
  ck_assert_int_eq(cuemu_rt_memset_async(d, 1, 16, s), cudaSuccess);
  ck_assert_int_eq(cuemu_rt_launch_host_func(s, note, "H"), cudaSuccess);
  cuemu_rt_graph_node *const *deps = NULL;
  size_t ndeps = 0;
  unsigned long long id = 0;
  ck_assert_int_eq(cuemu_rt_stream_get_capture_info(s, &status, &id, NULL,
                                                    &deps, &ndeps),
                   cudaSuccess);
  ck_assert(status == CUEMU_RT_CAPTURE_ACTIVE && id != 0 && ndeps == 1);
  int type;
  ck_assert_int_eq(cuemu_rt_graph_node_get_type(deps[0], &type), cudaSuccess);
  ck_assert_int_eq(type, CUEMU_RT_NODE_HOST);
  ck_assert_int_eq(cuemu_rt_stream_end_capture(s, &g), cudaSuccess);
  size_t n = 0;
  ck_assert_int_eq(cuemu_rt_graph_get_edges(g, NULL, NULL, &n), cudaSuccess);
  ck_assert_uint_eq(n, 1);
  ck_assert_int_eq(cuemu_rt_graph_destroy(g), cudaSuccess);
  ck_assert_int_eq(cuemu_rt_free(d), cudaSuccess);
  ck_assert_int_eq(cuemu_rt_stream_destroy(s), cudaSuccess);
}
END_TEST

Suite *make_graph_suite(void) {
  Suite *s = suite_create("graph");
  TCase *graphs = test_tcase(s, "graphs", 30);
  tcase_add_test(graphs, orders_of_ready_nodes);
  tcase_add_test(graphs, list_conventions);
  tcase_add_test(graphs, parameter_checks);
  tcase_add_test(graphs, updates);
  tcase_add_test(graphs, user_object_references);
  tcase_add_test(graphs, capture_bookkeeping);
  return s;
}
