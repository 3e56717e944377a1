/*
 * cuemu_libs_stream.c: the path by which cuemu's libraries (cuBLAS,
 * cuSPARSE, cuSOLVER) put an operation on a stream, as their GPU kernels
 * would be launched there.
 */
#include <stdlib.h>

#include <cuemu/cuemu_runtime.h>
#include <cuemu/cuemu_runtime_graph.h>
#include <cuemu/cuemu_runtime_streams.h>

#include "cuemu_libs.h"

/* One queued operation: the library's function and record, and whether a
 * graph being captured owns it (then it may be replayed, and the graph
 * destroys it). */
typedef struct libs_work {
  void (*run)(void *data);
  void (*destroy)(void *data);
  void *data;
  int kept;
} libs_work;

static void work_free(void *p) {
  libs_work *w = p;
  w->destroy(w->data);
  free(w);
}

/* The host function that runs an operation in its stream's order. */
static void work_run(void *p) {
  libs_work *w = p;
  w->run(w->data);
  if (!w->kept)
    work_free(w);
}

int cuemu__libs_submit(void *stream, void (*run)(void *data),
                       void (*destroy)(void *data), void *data) {
  libs_work *w = malloc(sizeof *w);
  if (!w) {
    destroy(data);
    return CUEMU_LIBS_NO_MEMORY;
  }
  *w = (libs_work){run, destroy, data, 0};
  int capture = CUEMU_RT_CAPTURE_NONE;
  cuemu_rt_graph *graph = NULL;
  cuemu_rt_stream_get_capture_info(stream, &capture, NULL, &graph, NULL, NULL);
  if (capture == CUEMU_RT_CAPTURE_ACTIVE && graph) {
    /* The graph being captured owns the operation from now on (its clones
     * and executable graphs take references of their own): it lives as
     * long as something may replay it, not as long as the handle. */
    cuemu_rt_user_object *object;
    if (cuemu_rt_user_object_create(&object, w, work_free, 1, 1) != 0) {
      work_free(w);
      return CUEMU_LIBS_NO_MEMORY;
    }
    w->kept = 1;
    if (cuemu_rt_graph_retain_user_object(graph, object, 1, 1) != 0) {
      cuemu_rt_user_object_release(object, 1);
      return CUEMU_LIBS_NOT_QUEUED;
    }
  }
  if (cuemu_rt_launch_host_func(stream, work_run, w) != 0) {
    if (!w->kept)
      work_free(w);
    return CUEMU_LIBS_NOT_QUEUED;
  }
  return CUEMU_LIBS_QUEUED;
}
