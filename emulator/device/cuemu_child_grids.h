/*
 * cuemu_child_grids.h: the grids that kernel code launches (CUDA dynamic
 * parallelism with CDP2's semantics, see cuemu_device_runtime.h) and the
 * device runtime's per-thread last error. Each grid being run has a record
 * of the grids it launched; the one launch path (cuemu_device_launch.c)
 * runs them once the grid's blocks are done. Internal to libcuemu.
 */
#ifndef CUEMU_CHILD_GRIDS_H
#define CUEMU_CHILD_GRIDS_H

#include <pthread.h>

#include <cuemu/cuemu_device_runtime.h>

#include "base/cuemu_config.h"

/* The most levels of nested launches (CUDA's hardware limit). */
#define CUEMU_MAX_LAUNCH_DEPTH 24

struct cuemu_child_grid;
struct cuemu_thread_error;

/* What one grid being run launched from kernel code. */
typedef struct cuemu_grid_children {
  pthread_mutex_t lock;
  struct cuemu_child_grid *first, *last;           /* in launch order */
  struct cuemu_child_grid *tail_first, *tail_last; /* cudaStreamTailLaunch */
  int depth;                    /* 0: the grid was launched by the host */
  int device;                   /* the device it runs on (the launching
                                   host thread's current device) */
  const char *kernel;           /* the grid's kernel, for messages */
  void *graph_env;              /* the graph execution environment the
                                   grid runs in (cuemu_rt_graph_device.c),
                                   or NULL outside graphs */
  int device_graph;             /* a kernel node of a graph instantiated
                                   for device launch: it may not launch
                                   grids (CUDA forbids dynamic parallelism
                                   there) */
  struct cuemu_thread_error *errors; /* threads whose last error is set */
  size_t error_count, error_capacity;
} cuemu_grid_children;

/* Prepares the record of a grid at nesting depth `depth`, on the calling
 * host thread's current device. Host code. */
void cuemu__children_init(cuemu_grid_children *c, int depth,
                          const char *kernel);

/* Sets the graph execution environment of the grids that the calling host
 * thread launches from now on (`device_graph`: of a graph instantiated for
 * device launch), and returns the previous one. Host code. */
void *cuemu__children_set_graph_env(void *env, int device_graph);

/* The graph execution environment of the grid the calling kernel thread
 * belongs to, or NULL (outside a graph, or outside kernel code); the
 * grid's kernel name, for messages, or NULL outside kernel code. */
void *cuemu__children_graph_env(void);
const char *cuemu__children_kernel(void);

/* What a grid's record holds while its blocks run: the grids they
 * launched and their threads' last errors. Schedule perturbation runs a
 * grid's blocks twice (check/cuemu_check_perturb.c): it takes the first
 * run's state out of the record (cuemu__children_take: the record is
 * empty again, and the taken launches stop counting towards
 * cudaLimitDevRuntimePendingLaunchCount), so that the second run starts as
 * the first did, then puts it back (cuemu__children_put: what the second
 * run launched is discarded, and its errors forgotten), so that the grids
 * launched once are run once. `grid_context` is a cuemu_config's
 * grid_context (NULL: nothing to do). Host code. */
typedef struct cuemu_children_state {
  struct cuemu_child_grid *first, *last, *tail_first, *tail_last;
  struct cuemu_thread_error *errors;
  size_t error_count, error_capacity;
  long queued; /* the launches in the lists */
} cuemu_children_state;
void cuemu__children_take(void *grid_context, cuemu_children_state *state);
void cuemu__children_put(void *grid_context, const cuemu_children_state *state);

/* After the grid's blocks have run with status `status`: runs the grids it
 * launched (each one with its own launches, recursively), then its tail
 * launches, in launch order, with the run-time settings `config`; returns
 * the first error among them (or `status` when that is already an error,
 * in which case nothing more runs), and frees the record. Host code. */
cuemu_status cuemu__children_run(cuemu_grid_children *c, cuemu_status status,
                                 const cuemu_config *config);

#endif /* CUEMU_CHILD_GRIDS_H */
