/*
 * cuemu_runtime_graph.h: libcuemu's side of CUDA Graphs: graphs built node
 * by node or captured from streams, instantiated into executable graphs and
 * launched into streams (shims/cuda_builtins/cuemu_graph_api.h forwards the
 * CUDA names here; docs/graphs.md describes what is emulated).
 *
 * Every function returns a CUDA error code (a cudaError_t value) as int and
 * records a failure with cuemu_rt_error(). Host code, any thread (one lock
 * guards all graphs), except cuemu_rt_graph_set_conditional(), which is
 * kernel code. Handles (graphs, nodes, executable graphs, user objects,
 * conditional handles) are checked against the live ones: a destroyed or
 * made-up handle is cudaErrorInvalidValue, never a crash.
 *
 * Ownership: a graph owns its nodes; a child-graph node owns its own copy of
 * the child graph; a conditional node owns its body graphs; an executable
 * graph owns a private copy of the graph it was made from, so the graph
 * may be changed or destroyed while the executable graph lives.
 *
 * Execution: a launch runs every node of the graph to completion before it
 * returns (as all stream work does in libcuemu, cuemu_runtime_streams.h),
 * each node after all of its dependencies. Among the nodes that are ready
 * at a time, CUEMU_GRAPH_ORDER picks: "forward" (the default: the order the
 * nodes were added), "reverse" (the last added first) or "random:SEED" (a
 * seeded shuffle, different at each launch); a graph that lacks a
 * dependency it needs gives different results under the orders.
 */
#ifndef CUEMU_RUNTIME_GRAPH_H
#define CUEMU_RUNTIME_GRAPH_H

#include <stddef.h>

#include <cuemu/cuemu_device.h>
#include <cuemu/cuemu_rt_host_types.h>
#include <cuemu/cuemu_rt_texture_types.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cuemu_rt_graph cuemu_rt_graph;
typedef struct cuemu_rt_graph_node cuemu_rt_graph_node;
typedef struct cuemu_rt_graph_exec cuemu_rt_graph_exec;
typedef struct cuemu_rt_user_object cuemu_rt_user_object;

/* Node types: cudaGraphNodeType's values. */
enum cuemu_rt_graph_node_type {
  CUEMU_RT_NODE_KERNEL = 0x00,
  CUEMU_RT_NODE_MEMCPY = 0x01,
  CUEMU_RT_NODE_MEMSET = 0x02,
  CUEMU_RT_NODE_HOST = 0x03,
  CUEMU_RT_NODE_GRAPH = 0x04,
  CUEMU_RT_NODE_EMPTY = 0x05,
  CUEMU_RT_NODE_WAIT_EVENT = 0x06,
  CUEMU_RT_NODE_EVENT_RECORD = 0x07,
  CUEMU_RT_NODE_EXT_SIGNAL = 0x08,
  CUEMU_RT_NODE_EXT_WAIT = 0x09,
  CUEMU_RT_NODE_MEM_ALLOC = 0x0a,
  CUEMU_RT_NODE_MEM_FREE = 0x0b,
  CUEMU_RT_NODE_BATCH_MEM_OP = 0x0c,
  CUEMU_RT_NODE_CONDITIONAL = 0x0d
};

/* A kernel node. `function` is the kernel's address (a registered kernel
 * of the program) unless `desc` is given. `args` holds one pointer per
 * parameter (for a descriptor of a kernel called through a pointer,
 * args[param_count] is the function); or else `extra` is a
 * CU_LAUNCH_PARAM_BUFFER_POINTER / _SIZE / _END list. The values are copied
 * when the node is made or set: a node read back (get_params) has `args`
 * pointing at its own copies, valid until the node changes.
 *
 * `attrs` (nattrs entries) are launch attributes given when the node is
 * made (a captured cudaLaunchKernelEx's): they become the node's
 * attributes (see cuemu_rt_graph_kernel_node_set_attribute). Setting a
 * kernel node's parameters keeps its attributes and cooperative flag, as
 * CUDA's do; read back, they are the node's.
 *
 * `context` is the driver context the kernel runs in (CUDA's node ctx): a
 * green context's context (cuCtxFromGreenCtx) runs it on the green
 * context's SMs, whatever the stream its graph is launched into; NULL, the
 * calling thread's current context when the node is made or set (for a
 * captured launch, the capturing stream's context). Read back, it is the
 * node's. */
typedef struct cuemu_rt_graph_kernel {
  const void *function;
  const cuemu_kernel_desc *desc;
  /* The launch's shape (not `grid` and `block`, which a user's -Dgrid of a
   * unit that includes this header would reach). */
  cuemu_uint3 cuemu_grid, cuemu_block;
  size_t dynamic_shared;
  void **args;
  void **extra;
  int cooperative;
  const cudaLaunchAttribute *attrs;
  unsigned nattrs;
  void *context;
} cuemu_rt_graph_kernel;

/* A copy between pitched linear memory: `width` bytes by `height` rows by
 * `depth` slices, from (src_x bytes, src_y rows, src_z slices) of src to
 * the same place of dst; a slice is pitch * ysize bytes. kind is a
 * cudaMemcpyKind.
 *
 * With a CUDA array on one side or both (src_array / dst_array, with that
 * side's pointer NULL), the copy is cudaMemcpy3D's: the width and an
 * array's x position count elements of the array, a pointer side's x
 * counts bytes and its pitch and ysize are used as given. */
typedef struct cuemu_rt_graph_memcpy {
  void *dst;
  size_t dst_pitch, dst_ysize, dst_x, dst_y, dst_z;
  const void *src;
  size_t src_pitch, src_ysize, src_x, src_y, src_z;
  size_t width, height, depth;
  int kind;
  struct cudaArray *dst_array;
  struct cudaArray *src_array;
} cuemu_rt_graph_memcpy;

/* A cudaMemcpy3DParms as a memcpy node's copy (a pointer side's pitch 0
 * is the width, its ysize 0 the height, as for linear copies), and back.
 * cudaErrorInvalidValue when a side names both an array and a pointer. */
int cuemu_rt_graph_memcpy_from_3d(cuemu_rt_graph_memcpy *__cuemu_out,
                                  const struct cudaMemcpy3DParms *p);
void cuemu_rt_graph_memcpy_to_3d(const cuemu_rt_graph_memcpy *__cuemu_m,
                                 struct cudaMemcpy3DParms *p);

/* cudaMemsetParams: height rows of width elements of element_size (1, 2 or
 * 4) bytes, each set to value. */
typedef struct cuemu_rt_graph_memset {
  void *dst;
  size_t pitch;
  unsigned value, element_size;
  size_t width, height;
} cuemu_rt_graph_memset;

/* A conditional node (made only by cuemu_rt_graph_add_node): type is
 * cudaGraphConditionalNodeType (0 if, 1 while, 2 switch); `size` bodies
 * (1 for while, 1 or 2 for if, at least 1 for switch) are made with the
 * node and returned in bodies_out (an array the node owns). */
typedef struct cuemu_rt_graph_conditional {
  unsigned long long handle;
  int type;
  unsigned size;
  cuemu_rt_graph **bodies_out;
} cuemu_rt_graph_conditional;

typedef struct cuemu_rt_graph_node_params {
  int type; /* enum cuemu_rt_graph_node_type */
  union {
    cuemu_rt_graph_kernel kernel;
    cuemu_rt_graph_memcpy memcpy;
    cuemu_rt_graph_memset memset;
    struct {
      void (*fn)(void *data);
      void *data;
    } host;
    /* A child graph: copied into the node when it is added or set, or,
     * with `move` (cudaGraphChildGraphOwnershipMove), taken by the node
     * itself (it then goes with the node); read back, the node's own. */
    struct {
      cuemu_rt_graph *graph;
      int move;
    } child;
    struct {
      void *event;
    } event;
    /* A memory allocation node: `bytesize` in; `dptr` out, an address fixed
     * for the life of the node. */
    struct {
      size_t bytesize;
      void *dptr;
      /* In: the device of the memory plus one (poolProps.location.id +
       * 1; 0: the current device), and the other devices' access
       * (`cuemu_access_count` cudaMemAccessDesc at `cuemu_access`, read
       * when the node is made), which memcheck checks kernels against. */
      int device;
      const void *cuemu_access;
      size_t cuemu_access_count;
    } alloc;
    struct {
      void *dptr;
    } free;
    cuemu_rt_graph_conditional conditional;
    /* External semaphore signal or wait nodes: `count` semaphores
     * (cuemu_rt_external_semaphore, cuemu_external.h) with one value each
     * (a timeline's), copied into the node. */
    struct {
      void *const *sems;
      const unsigned long long *values;
      unsigned count;
    } ext;
    /* A batch memory operation node: `count` operations (cuemu_memop,
     * cuemu_stream_memops.h), copied into the node; flags must be 0. */
    struct {
      const void *ops;
      unsigned count;
      unsigned flags;
    } memop;
  } u;
} cuemu_rt_graph_node_params;

/* ---- Graphs and nodes ------------------------------------------------------ */

/* flags must be 0. */
int cuemu_rt_graph_create(cuemu_rt_graph **graph, unsigned flags);
/* Destroys a graph and its nodes; executable graphs made from it live on.
 * A child graph or conditional body (owned by its node) cannot be
 * destroyed on its own: cudaErrorInvalidValue. */
int cuemu_rt_graph_destroy(cuemu_rt_graph *graph);

/* Adds a node after `ndeps` dependencies (nodes of the same graph, no
 * repeats). */
int cuemu_rt_graph_add_node(cuemu_rt_graph_node **node, cuemu_rt_graph *graph,
                            cuemu_rt_graph_node *const *deps, size_t ndeps,
                            cuemu_rt_graph_node_params *params);
/* The node's parameters (see cuemu_rt_graph_kernel for kernel arguments). */
int cuemu_rt_graph_node_get_params(cuemu_rt_graph_node *node,
                                   cuemu_rt_graph_node_params *params);
/* Replaces the parameters of a node (same type; not a conditional, alloc or
 * free node). */
int cuemu_rt_graph_node_set_params(cuemu_rt_graph_node *node,
                                   const cuemu_rt_graph_node_params *params);
int cuemu_rt_graph_node_get_type(cuemu_rt_graph_node *node, int *type);
/* The graph a node belongs to. */
int cuemu_rt_graph_node_get_graph(cuemu_rt_graph_node *node,
                                  cuemu_rt_graph **graph);
/* Destroys a node and its edges. */
int cuemu_rt_graph_destroy_node(cuemu_rt_graph_node *node);

/* The lists below follow CUDA's convention: with `out` NULL, *count is set
 * to the number of entries; otherwise up to *count are written, the rest
 * of `out` is set to NULL, and *count becomes the number written. */
int cuemu_rt_graph_get_nodes(cuemu_rt_graph *graph, cuemu_rt_graph_node **__cuemu_out,
                             size_t *count);
int cuemu_rt_graph_get_root_nodes(cuemu_rt_graph *graph,
                                  cuemu_rt_graph_node **__cuemu_out, size_t *count);
int cuemu_rt_graph_get_edges(cuemu_rt_graph *graph, cuemu_rt_graph_node **from,
                             cuemu_rt_graph_node **to, size_t *count);
int cuemu_rt_graph_node_get_dependencies(cuemu_rt_graph_node *node,
                                         cuemu_rt_graph_node **__cuemu_out,
                                         size_t *count);
int cuemu_rt_graph_node_get_dependents(cuemu_rt_graph_node *node,
                                       cuemu_rt_graph_node **__cuemu_out,
                                       size_t *count);
/* Adds or removes the edges from[i] -> to[i]: adding one that exists, or
 * removing one that does not, is cudaErrorInvalidValue and changes
 * nothing. */
int cuemu_rt_graph_add_dependencies(cuemu_rt_graph *graph,
                                    cuemu_rt_graph_node *const *from,
                                    cuemu_rt_graph_node *const *to, size_t n);
int cuemu_rt_graph_remove_dependencies(cuemu_rt_graph *graph,
                                       cuemu_rt_graph_node *const *from,
                                       cuemu_rt_graph_node *const *to,
                                       size_t n);

/* Edge data (CUDA's cudaGraphEdgeData, packed as from_port | to_port << 8
 * | type << 16; 0 is a plain edge). cuemu_rt_graph_edge_check says whether
 * an edge from `from` to `to` (or, with `to` NULL, to a node of type
 * `__cuemu_to_type` yet to be made) may have `data`: ports and the programmatic
 * type only between kernel nodes, cudaErrorInvalidValue otherwise.
 * cuemu_rt_graph_edge_set gives the existing edge from -> to its data;
 * cuemu_rt_graph_edge_get reads it (0 for a plain edge, or no edge). Host
 * code only. */
int cuemu_rt_graph_edge_check(cuemu_rt_graph_node *from, cuemu_rt_graph_node *to,
                              int __cuemu_to_type, unsigned data);
int cuemu_rt_graph_edge_set(cuemu_rt_graph_node *from, cuemu_rt_graph_node *to,
                            unsigned data);
int cuemu_rt_graph_edge_get(cuemu_rt_graph_node *from, cuemu_rt_graph_node *to,
                            unsigned *data);

int cuemu_rt_graph_clone(cuemu_rt_graph **clone, cuemu_rt_graph *original);
/* The node of `clone` (made by cuemu_rt_graph_clone) that was copied from
 * `original`. */
int cuemu_rt_graph_node_find_in_clone(cuemu_rt_graph_node **node,
                                      cuemu_rt_graph_node *original,
                                      cuemu_rt_graph *clone);

/* Kernel node attributes (cudaGraphKernelNodeSetAttribute,
 * GetAttribute, CopyAttributes): those CUDA allows on graph nodes
 * (access-policy window, cooperative, cluster dimension and scheduling
 * policy, priority, memory sync domain and map, preferred cluster
 * dimension, shared memory carveout, NVLink-centric scheduling), checked
 * as cudaLaunchKernelEx checks them. The cooperative flag and the cluster
 * dimension change how the node's kernel runs; the others are hints that
 * change no result. A stream-only or launch-only attribute (synchronization
 * policy, programmatic serialization and events, launch-completion event)
 * is cudaErrorInvalidValue; a device-updatable node is
 * cudaErrorNotSupported (graphs are not updated from the device). An
 * attribute never set reads as zero (cooperative: the node's flag). The
 * node must be a kernel node (cudaErrorInvalidValue). */
int cuemu_rt_graph_kernel_node_set_attribute(
    cuemu_rt_graph_node *node, int id, const cudaLaunchAttributeValue *value);
int cuemu_rt_graph_kernel_node_get_attribute(cuemu_rt_graph_node *node,
                                             int id,
                                             cudaLaunchAttributeValue *value);
/* Gives `dst` the attributes (and cooperative flag) of `src`. */
int cuemu_rt_graph_kernel_node_copy_attributes(cuemu_rt_graph_node *dst,
                                               cuemu_rt_graph_node *src);

/* Conditional handles: flags 0 or 1 (cudaGraphCondAssignDefault: the value
 * is reset to default_value at each launch). */
int cuemu_rt_graph_conditional_handle_create(unsigned long long *handle,
                                             cuemu_rt_graph *graph,
                                             unsigned default_value,
                                             unsigned flags);
/* cudaGraphSetConditional: kernel code. An invalid handle is reported on
 * stderr and ignored (CUDA leaves it undefined). */
void cuemu_rt_graph_set_conditional(unsigned long long handle,
                                    unsigned value);

/* cudaGetCurrentGraphExec: kernel code. The executable graph, instantiated
 * for device launch, that the calling kernel runs in, else NULL (also in a
 * graph not instantiated for device launch). In kernel code,
 * cuemu_rt_graph_launch launches a graph from the device (stream one of
 * cudaStreamGraphFireAndForget, cudaStreamGraphTailLaunch and
 * cudaStreamGraphFireAndForgetAsSibling; see docs/graphs.md). */
cuemu_rt_graph_exec *cuemu_rt_graph_current_exec(void);

/* Writes a Graphviz file of the graph (with its child graphs and
 * conditional bodies as nested clusters); flags are cudaGraphDebugDotFlags
 * (every node shows its parameters whatever they are). */
int cuemu_rt_graph_debug_dot_print(cuemu_rt_graph *graph, const char *path,
                                   unsigned flags);

/* Called once per descriptor of a kernel template launched with deduced
 * template arguments (shims' cuemu_kernel_thunks.h), whose arguments are a
 * tuple (args[0]) and a lambda (args[1]): their sizes and alignments, so
 * that a captured launch can copy them (tuple_size 0: it cannot). Returns
 * 0. Host code. */
int cuemu_rt_graph_note_deduced(const cuemu_kernel_desc *desc,
                                size_t tuple_size, size_t tuple_align,
                                size_t body_size, size_t body_align);

/* ---- Executable graphs ---------------------------------------------------- */

/* Instantiation results: cudaGraphInstantiateResult's values. */
enum cuemu_rt_graph_instantiate_result {
  CUEMU_RT_INSTANTIATE_SUCCESS = 0,
  CUEMU_RT_INSTANTIATE_ERROR = 1,
  CUEMU_RT_INSTANTIATE_INVALID_STRUCTURE = 2,
  CUEMU_RT_INSTANTIATE_NOT_SUPPORTED = 3,
  CUEMU_RT_INSTANTIATE_MULTIPLE_DEVICES = 4,
  CUEMU_RT_INSTANTIATE_HANDLE_UNUSED = 5
};

/* flags: cudaGraphInstantiateFlags (AutoFreeOnLaunch 1, Upload 2 with an
 * upload stream only, DeviceLaunch 4, UseNodePriority 8).
 * error_node and result (either may be NULL) say what failed: a cycle
 * (INVALID_STRUCTURE), a kernel node whose launch CUDA would refuse, a
 * graph with memory nodes instantiated twice. */
int cuemu_rt_graph_instantiate(cuemu_rt_graph_exec **exec,
                               cuemu_rt_graph *graph, unsigned long long flags,
                               void *upload_stream,
                               cuemu_rt_graph_node **error_node, int *result);
int cuemu_rt_graph_exec_destroy(cuemu_rt_graph_exec *exec);
int cuemu_rt_graph_exec_get_flags(cuemu_rt_graph_exec *exec,
                                  unsigned long long *flags);
/* Runs the graph at its place in `stream`; into a capturing stream, it is
 * captured as a child-graph node instead. */
int cuemu_rt_graph_launch(cuemu_rt_graph_exec *exec, void *stream);
int cuemu_rt_graph_upload(cuemu_rt_graph_exec *exec, void *stream);

/* Update results: cudaGraphExecUpdateResult's values. */
enum cuemu_rt_graph_update_result {
  CUEMU_RT_UPDATE_SUCCESS = 0,
  CUEMU_RT_UPDATE_ERROR = 1,
  CUEMU_RT_UPDATE_TOPOLOGY_CHANGED = 2,
  CUEMU_RT_UPDATE_NODE_TYPE_CHANGED = 3,
  CUEMU_RT_UPDATE_PARAMETERS_CHANGED = 5,
  CUEMU_RT_UPDATE_NOT_SUPPORTED = 6
};

/* cudaGraphExecUpdate: takes the parameters of `graph`, whose nodes pair
 * with the executable graph's in the order they were added, when it has the
 * same nodes and edges; else cudaErrorGraphExecUpdateFailure with the
 * reason and the node (and, for an edge, its source) that differ. */
int cuemu_rt_graph_exec_update(cuemu_rt_graph_exec *exec,
                               cuemu_rt_graph *graph, int *result,
                               cuemu_rt_graph_node **error_node,
                               cuemu_rt_graph_node **error_from);
/* cudaGraphExec*SetParams: sets the parameters of the executable graph's
 * copy of `node` (a node of the graph it was made or last updated from);
 * for a child-graph node, the new child must have the same topology. */
int cuemu_rt_graph_exec_node_set_params(
    cuemu_rt_graph_exec *exec, cuemu_rt_graph_node *node,
    const cuemu_rt_graph_node_params *params);
int cuemu_rt_graph_exec_node_set_enabled(cuemu_rt_graph_exec *exec,
                                         cuemu_rt_graph_node *node,
                                         unsigned enabled);
int cuemu_rt_graph_exec_node_get_enabled(cuemu_rt_graph_exec *exec,
                                         cuemu_rt_graph_node *node,
                                         unsigned *enabled);

/* ---- User objects ----------------------------------------------------------- */

/* flags must be 1 (cudaUserObjectNoDestructorSync). destroy(ptr) runs when
 * the last reference goes, on the thread that releases it. */
int cuemu_rt_user_object_create(cuemu_rt_user_object **object, void *ptr,
                                void (*destroy)(void *), unsigned refs,
                                unsigned flags);
int cuemu_rt_user_object_retain(cuemu_rt_user_object *object, unsigned count);
int cuemu_rt_user_object_release(cuemu_rt_user_object *object,
                                 unsigned count);
/* flags: 0, or 1 (cudaGraphUserObjectMove: the caller's references move to
 * the graph). Clones and executable graphs take references of their own. */
int cuemu_rt_graph_retain_user_object(cuemu_rt_graph *graph,
                                      cuemu_rt_user_object *object,
                                      unsigned count, unsigned flags);
int cuemu_rt_graph_release_user_object(cuemu_rt_graph *graph,
                                       cuemu_rt_user_object *object,
                                       unsigned count);

/* ---- Stream capture ------------------------------------------------------------ */

/* Capture modes and statuses: cudaStreamCaptureMode's and
 * cudaStreamCaptureStatus's values. */
enum cuemu_rt_capture_mode {
  CUEMU_RT_CAPTURE_GLOBAL = 0,
  CUEMU_RT_CAPTURE_THREAD_LOCAL = 1,
  CUEMU_RT_CAPTURE_RELAXED = 2
};
enum cuemu_rt_capture_status {
  CUEMU_RT_CAPTURE_NONE = 0,
  CUEMU_RT_CAPTURE_ACTIVE = 1,
  CUEMU_RT_CAPTURE_INVALIDATED = 2
};

/* Starts capturing `stream` (not the legacy default stream) into a new
 * graph, or into `graph` after its nodes `deps` (cudaStreamBeginCaptureToGraph).
 * While a stream captures, the work issued to it (kernel launches, async
 * copies and memsets, host functions, event records and waits, graph
 * launches) is recorded as nodes instead of run. Other streams join the
 * capture by waiting on an event recorded in a capturing stream, and must
 * be joined back (the origin stream waits on an event recorded after their
 * last work) before the capture ends. */
int cuemu_rt_stream_begin_capture(void *stream, int mode,
                                  cuemu_rt_graph *graph,
                                  cuemu_rt_graph_node *const *deps,
                                  size_t ndeps);
/* Ends the capture begun on `stream`: *graph is the graph, or NULL when the
 * capture was invalidated (cudaErrorStreamCaptureInvalidated) or a stream
 * is not joined (cudaErrorStreamCaptureUnjoined). */
int cuemu_rt_stream_end_capture(void *stream, cuemu_rt_graph **graph);
int cuemu_rt_stream_is_capturing(void *stream, int *status);
/* cudaStreamGetCaptureInfo (CUDA 13's): any out pointer may be NULL; *deps
 * is the stream's current dependencies, owned by the stream, valid until
 * its next capture call. */
int cuemu_rt_stream_get_capture_info(void *stream, int *status,
                                     unsigned long long *id,
                                     cuemu_rt_graph **graph,
                                     cuemu_rt_graph_node *const **deps,
                                     size_t *ndeps);
/* flags: 0 adds `deps` to the stream's dependencies, 1 replaces them. */
int cuemu_rt_stream_update_capture_dependencies(
    void *stream, cuemu_rt_graph_node *const *deps, size_t ndeps,
    unsigned flags);
/* Edge data of a capturing stream's dependencies (packed as for
 * cuemu_rt_graph_edge_set; 0 is a plain edge):
 * cuemu_rt_stream_capture_edges_set gives the edges from deps[i] (each a
 * current dependency of the stream, cudaErrorInvalidValue otherwise) to
 * the next captured node the data data[i], checked as for an edge to a
 * kernel node now and against the node's real type when it is captured
 * (a failure then invalidates the capture); the data lasts until that
 * node is captured or the dependencies are replaced.
 * cuemu_rt_stream_capture_edge_get reads the data of dependency `dep`.
 * cudaErrorIllegalState when the stream is not capturing. Host code. */
int cuemu_rt_stream_capture_edges_set(void *stream,
                                      cuemu_rt_graph_node *const *deps,
                                      const unsigned *data, size_t n);
int cuemu_rt_stream_capture_edge_get(void *stream, cuemu_rt_graph_node *__cuemu_dep,
                                     unsigned *data);
/* Swaps the calling thread's capture interaction mode with *mode. */
int cuemu_rt_thread_exchange_capture_mode(int *mode);

/* cudaEventRecordWithFlags: flags 0, or 1 (cudaEventRecordExternal: in a
 * capture, an event record node rather than a point to wait on). */
int cuemu_rt_event_record_with_flags(void *event, void *stream,
                                     unsigned flags);

/* Copies and memsets on a stream (cudaMemcpyAsync, cudaMemcpy2DAsync,
 * cudaMemsetAsync, cudaMemset2DAsync): recorded as nodes when the stream
 * captures, else run at once. */
int cuemu_rt_memcpy_async(void *dst, const void *src, size_t count, int kind,
                          void *stream);
int cuemu_rt_memcpy_2d_async(void *dst, size_t dpitch, const void *src,
                             size_t spitch, size_t width, size_t height,
                             int kind, void *stream);
int cuemu_rt_memset_async(void *ptr, int value, size_t count, void *stream);
/* cudaMemcpy3DAsync (arrays or pitched memory on either side): a memcpy
 * node when the stream captures, else cudaMemcpy3D at once. */
int cuemu_rt_memcpy_3d_async(const struct cudaMemcpy3DParms *p, void *stream);
/* The 2-D copies to, from and between arrays on a stream
 * (cudaMemcpy2DToArrayAsync, cudaMemcpy2DFromArrayAsync,
 * cudaMemcpy2DArrayToArray): each side is an array (with its byte column
 * and row) or pitched memory (pointer and pitch); `width` is in bytes. In a
 * capture, a memcpy node (the byte column and width must then be whole
 * elements of the array, cudaErrorInvalidValue otherwise); else run at
 * once. */
int cuemu_rt_memcpy_2d_array_async(struct cudaArray *dst_array, size_t dst_x,
                                   size_t dst_y, void *dst, size_t dpitch,
                                   const struct cudaArray *src_array,
                                   size_t src_x, size_t src_y, const void *src,
                                   size_t spitch, size_t width, size_t height,
                                   int kind, void *stream);
int cuemu_rt_memset_2d_async(void *ptr, size_t pitch, int value, size_t width,
                             size_t height, void *stream);

#ifdef __cplusplus
}
#endif

#endif /* CUEMU_RUNTIME_GRAPH_H */
