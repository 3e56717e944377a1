/*
 * cuemu_rt_graph_internal.h: the data of graphs, shared by the files of
 * CUDA Graphs (cuemu_rt_graph*.c). Internal to libcuemu.
 *
 * A graph holds its nodes in the order they were added; each node holds its
 * incoming and outgoing edges. Every graph, node, executable graph, user
 * object and conditional handle is entered in one table of live objects
 * (cuemu__graph_live), so that a handle is checked before it is used. One
 * lock (cuemu__graph_lock) guards all of it; it is not held while nodes run.
 */
#ifndef CUEMU_RT_GRAPH_INTERNAL_H
#define CUEMU_RT_GRAPH_INTERNAL_H

#include <stddef.h>

#include <cuemu/cuemu_runtime_graph.h>

#include "device/cuemu_device_launch.h"

/* A growable array of nodes. */
typedef struct cuemu__node_list {
  cuemu_rt_graph_node **v;
  size_t n, cap;
} cuemu__node_list;

/* A memory allocation node's memory, shared by its copies. */
typedef struct cuemu__graph_memory {
  void *ptr;
  size_t size;
  int refs;
  int instantiated; /* an executable graph holds it */
  int mapped;       /* an executable graph that holds it was launched or
                       uploaded since it was instantiated or trimmed */
  unsigned running; /* launches of such a graph issued and not yet done */
  unsigned flags;   /* its allocation's flags (the device) */
  int freed;        /* not allocated: before its node runs, after a free */
  int reserved;     /* counted as reserved graph memory (until a trim) */
  int issued;       /* allocated in issue order: a launch that allocates
                       it was issued, and no free of it since */
  unsigned long long issued_by; /* that launch's number */
  struct cuemu__graph_memory *next; /* the list of graph memory */
} cuemu__graph_memory;

/* A conditional handle: the value that cudaGraphSetConditional sets. */
typedef struct cuemu__graph_condition {
  unsigned value, default_value, flags;
  cuemu_rt_graph *graph;
  int used; /* a conditional node names it */
  int instantiated; /* a node of a live executable graph names it */
} cuemu__graph_condition;

/* A reference count a graph or executable graph holds on a user object. */
typedef struct cuemu__user_ref {
  cuemu_rt_user_object *object;
  unsigned count;
} cuemu__user_ref;

struct cuemu_rt_user_object {
  void *ptr;
  void (*destroy)(void *);
  unsigned refs;
};

/* The data of an edge into a node (cuemu_rt_graph_edges.c): CUDA's
 * cudaGraphEdgeData packed as from_port | to_port << 8 | type << 16. */
typedef struct cuemu__graph_edge {
  struct cuemu_rt_graph_node *from;
  unsigned data;
} cuemu__graph_edge;

struct cuemu_rt_graph_node {
  cuemu_rt_graph *graph;
  unsigned long long id;     /* unique in the process */
  unsigned long long origin; /* the id of the node this one copies */
  unsigned long long origin2; /* an executable graph's: the id of the
                                 node of the graph it was updated from */
  cuemu_rt_graph_node_params p;
  int device; /* the device current when the node was made (captured or
                 added; a kernel node's grid runs on it, as CUDA runs it
                 in the node's context, whatever the launch's stream; a
                 copy keeps its original's; a device graph's nodes are on
                 one device) */
  unsigned sms; /* a kernel node: the SMs of its context (p.u.kernel.context),
                   a green context's partition, else 0: the whole device,
                   whatever the stream its graph is launched into */
  unsigned char *arg_blob; /* a kernel node's copied argument values */
  void **arg_ptrs;         /* pointers into arg_blob (p.u.kernel.args) */
  cuemu__graph_memory *memory; /* a memory allocation node's */
  cuemu_rt_graph **bodies;     /* a conditional node's */
  cudaLaunchAttribute *attrs;  /* a kernel node's attributes, one per id */
  unsigned nattrs;
  int enabled;
  cuemu__node_list deps, outs;
  cuemu__graph_edge *edges; /* the data of edges from deps that have some */
  size_t edge_count;
};

struct cuemu_rt_graph {
  cuemu__node_list nodes;
  cuemu_rt_graph_node *owner; /* the child-graph or conditional node that
                                 owns this graph, else NULL */
  cuemu__graph_condition **conditions;
  size_t condition_count;
  cuemu__user_ref *refs;
  size_t ref_count;
};

struct cuemu_rt_graph_exec {
  cuemu_rt_graph *graph; /* a private copy */
  unsigned long long flags;
  unsigned long long launches;
  /* The launches of `graph` queued on streams and not yet done, or NULL
   * (see cuemu_rt_graph_exec.c: an update copies the graph first). */
  struct cuemu__exec_launches *queued;
  /* Device graph launch (cuemu_rt_graph_device.c): the graph as it was
   * last uploaded (cudaGraphUpload, the Upload flag or a host launch), a
   * use of it that an update leaves to it (the device launches it until
   * the next upload), or NULL before the first upload; and how many
   * launches of it from the device are queued or running, with a host
   * launch that is running. */
  struct cuemu__exec_launches *uploaded;
  unsigned device_pending;
  /* The conditional handles of the graph it was made from: that graph has
   * one executable graph at a time, as CUDA requires. */
  cuemu__graph_condition **held;
  size_t held_count;
};

/* Kinds of live objects. */
enum cuemu__graph_kind {
  CUEMU__LIVE_GRAPH = 1,
  CUEMU__LIVE_NODE,
  CUEMU__LIVE_EXEC,
  CUEMU__LIVE_USER_OBJECT,
  CUEMU__LIVE_CONDITION
};

void cuemu__graph_lock(void);
void cuemu__graph_unlock(void);

/* Records `code` as the calling thread's last error, with a message for
 * cuemu_last_message(), and returns it. */
/* The data of the edge from -> to (0: plain), and its record (0 removes
 * it; a CUDA code), with the lock held (cuemu_rt_graph_edges.c). */
unsigned cuemu__graph_edge_data(const cuemu_rt_graph_node *to,
                                const cuemu_rt_graph_node *from);
/* cudaSuccess when edge data `data` is valid on an edge from -> to by
 * CUDA's rules, else cudaErrorInvalidValue with a report (the lock
 * held). */
int cuemu__graph_edge_valid(const cuemu_rt_graph_node *from,
                            const cuemu_rt_graph_node *to, unsigned data);
int cuemu__graph_edge_record(cuemu_rt_graph_node *to,
                             cuemu_rt_graph_node *from, unsigned data);

int cuemu__graph_fail(int code, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Enters or removes a live object; non-zero when `p` is a live object of
 * `kind`. Called with the lock. */
int cuemu__graph_live_add(const void *p, int kind);
void cuemu__graph_live_remove(const void *p);
int cuemu__graph_live(const void *p, int kind);

int cuemu__node_list_push(cuemu__node_list *l, cuemu_rt_graph_node *n);
int cuemu__node_list_has(const cuemu__node_list *l,
                         const cuemu_rt_graph_node *n);
void cuemu__node_list_remove(cuemu__node_list *l,
                             const cuemu_rt_graph_node *n);
void cuemu__node_list_free(cuemu__node_list *l);

/* Makes an empty graph (entered as live); NULL when memory runs out. */
cuemu_rt_graph *cuemu__graph_new(void);
/* Frees a graph, its nodes and their owned graphs; releases its user
 * object references. Called with the lock. */
void cuemu__graph_free(cuemu_rt_graph *graph);
/* A deep copy of `g`: each node's origin is the id of the node it copies.
 * NULL when memory runs out. Called with the lock. */
cuemu_rt_graph *cuemu__graph_copy(cuemu_rt_graph *g);
/* Adds a node (the parameters checked and copied); a CUDA code. Called with
 * the lock; deps are live nodes of `graph`. */
int cuemu__graph_add(cuemu_rt_graph_node **out, cuemu_rt_graph *graph,
                     cuemu_rt_graph_node *const *deps, size_t ndeps,
                     const cuemu_rt_graph_node_params *params);
/* Replaces a node's parameters (same type, checked and copied); a CUDA
 * code. Called with the lock. */
int cuemu__graph_node_assign(cuemu_rt_graph_node *node,
                             const cuemu_rt_graph_node_params *params);
/* Unlinks a node from its graph and frees it. Called with the lock. */
void cuemu__graph_node_free(cuemu_rt_graph_node *node);
/* Non-zero when `a` is `b` or one of its ancestors. */
int cuemu__graph_reaches(const cuemu_rt_graph_node *a,
                         const cuemu_rt_graph_node *b);
/* The name of a node type, as CUDA's dot files write it ("KERNEL"). */
const char *cuemu__graph_type_name(int type);
/* Takes and drops user object references; a dropped last reference runs
 * the destructor. Called with the lock. */
int cuemu__user_refs_add(cuemu__user_ref **refs, size_t *count,
                         cuemu_rt_user_object *object, unsigned n);
void cuemu__user_refs_drop(cuemu__user_ref *refs, size_t count);
void cuemu__user_object_release(cuemu_rt_user_object *object, unsigned n);

/* Kernel node attributes (cuemu_rt_graph_attr.c), called with the lock:
 * stores `n` attributes given with a node's parameters (replacing those of
 * the same ids); gives `to` the attributes of `from`; the node's attribute
 * `id`, or NULL; before a kernel node's parameters are set, makes `p` keep
 * the node's cooperative flag and attributes. */
int cuemu__graph_attrs_add(cuemu_rt_graph_node *node,
                           const cudaLaunchAttribute *attrs, unsigned n);
int cuemu__graph_attrs_copy(cuemu_rt_graph_node *to,
                            const cuemu_rt_graph_node *from);
const cudaLaunchAttribute *cuemu__graph_attr(const cuemu_rt_graph_node *node,
                                             int id);
void cuemu__graph_keep_attrs(const cuemu_rt_graph_node *node,
                             cuemu_rt_graph_node_params *p);

/* A memcpy node's copy with a CUDA array on a side
 * (cuemu_rt_graph_array.c): checked when the node is set (a CUDA code,
 * recorded), and run as cudaMemcpy3D runs it. */
int cuemu__graph_check_array_copy(const cuemu_rt_graph_memcpy *m);
int cuemu__graph_run_array_copy(const cuemu_rt_graph_memcpy *m);

/* External semaphore nodes (cuemu_rt_external.c): the parameters checked
 * and copied into the node (a CUDA code, recorded), and the node run. */
int cuemu__graph_ext_assign(cuemu_rt_graph_node *node,
                            const cuemu_rt_graph_node_params *params);
int cuemu__graph_ext_run(const cuemu_rt_graph_node *node);

/* Batch memory operation nodes (cuemu_drv_memop.c): likewise. */
int cuemu__graph_memop_assign(cuemu_rt_graph_node *node,
                              const cuemu_rt_graph_node_params *params);
int cuemu__graph_memop_run(const cuemu_rt_graph_node *node);

/* The kernel node's parameters of a launch request (its arguments not yet
 * copied), with the attributes of the cudaLaunchKernelEx being issued
 * (cuemu_rt_graph_capture.c). */
cuemu_rt_graph_node_params cuemu__rt_launch_node(
    const cuemu_launch_request *r);

/* Whether a kernel template launched with deduced template arguments
 * (`desc` has neither function nor parameters) has arguments that a node
 * can copy bytewise (cuemu_rt_graph_note_deduced noted their shape), so
 * that a stream may run it later as it runs any kernel node. */
int cuemu__rt_deduced_copyable(const cuemu_kernel_desc *desc);

/* Makes kernel node `node`'s device the calling thread's current one
 * (host code only; kernel code runs on its grid's device); gives the
 * device to restore with cuemu__device_select, and sets *stream to NULL,
 * the node's device's default stream, when that device is not the
 * stream's. */
int cuemu__graph_node_device_enter(const cuemu_rt_graph_node *node,
                                   void **stream);

/* The launch request of a kernel node into `stream`. */
cuemu_launch_request cuemu__graph_kernel_request(
    const cuemu_rt_graph_node *node, void *stream);

/* Runs a graph's nodes into `stream` in dependency order (the order
 * CUEMU_GRAPH_ORDER picks), recursing into child graphs and conditional
 * bodies; `launch` numbers the launch (for random orders). A CUDA code
 * (cudaSuccess even when a kernel failed: its error is sticky). Called
 * without the lock. */
int cuemu__graph_run(cuemu_rt_graph *graph, void *stream,
                     unsigned long long launch);

/* A use of the graph of exec's last upload (cudaGraphUpload, the Upload
 * flag or a host launch), which a launch from the device runs (an update
 * or a destruction leaves that graph to it): the use, and the graph in
 * *graph; NULL when exec was never uploaded. cuemu__graph_exec_release
 * ends it. Both called with the lock (cuemu_rt_graph_exec.c). */
struct cuemu__exec_launches *
cuemu__graph_exec_hold_uploaded(cuemu_rt_graph_exec *exec,
                                cuemu_rt_graph **graph);
void cuemu__graph_exec_release(struct cuemu__exec_launches *use);

/* Device graph launch (cuemu_rt_graph_device.c). Checks a graph
 * instantiated with cudaGraphInstantiateFlagDeviceLaunch for CUDA's rules
 * (called with the lock; sets *bad and *result on failure; a CUDA code,
 * recorded). Runs a host launch of executable graph `exec` (NULL when it
 * is gone), graph `g`, into `stream` in an execution environment of its
 * own, with the graphs its kernels launch from the device (a CUDA code,
 * as cuemu__graph_run's). Launches a graph from kernel code into one of
 * the named graph streams (cudaGraphLaunch there; a CUDA code, the calling
 * thread's last error). */
int cuemu__graph_check_device(cuemu_rt_graph *g, cuemu_rt_graph_node **bad,
                              int *result);
int cuemu__graph_run_host_launch(cuemu_rt_graph_exec *exec,
                                 cuemu_rt_graph *g, void *stream,
                                 unsigned long long launch);
int cuemu__graph_device_launch(cuemu_rt_graph_exec *exec, void *stream);

/* Non-zero when a stream capture is adding to `graph`. Called with the
 * lock. */
int cuemu__capture_building(const cuemu_rt_graph *graph);

/* Counts nesting of libcuemu's own calls made on behalf of a stream
 * operation (an async copy run at once, a graph's node): the unsafe-call
 * check of cuemu_rt_capture.h does not apply inside. */
extern __thread int cuemu__capture_bypass;

#endif /* CUEMU_RT_GRAPH_INTERNAL_H */
