/*
 * cuemu_rt_graph_memory.c: the memory of graph allocation nodes.
 *
 * A memory allocation node's storage is made when the node is added and
 * kept while a node holds it, so that each launch of the graph finds it at
 * the same address (CUDA gives a graph allocation a fixed virtual
 * address). The allocation itself lives as CUDA's does: it is allocated
 * when the allocation node runs and freed when a free node runs (of its
 * graph or another), or when cudaFree or cudaFreeAsync frees it outside
 * the graph. A freed allocation keeps its storage, but the allocation table
 * remembers it as freed, so that copies refuse it and memcheck reports a
 * kernel that touches it (as after a stream-ordered free); its node's next
 * run allocates it again. Launches run in their streams' order; a launch
 * that finds, when it is issued, an allocation of the graph's that the
 * previous launch made and no free issued since has freed fails, unless
 * the executable graph frees such allocations on launch (when it runs).
 *
 * The device counters (cuemu/cuemu_rt_graph_mem.h) follow the list, as
 * CUDA maps physical memory: not at instantiation (the stream is not known
 * then) but at a launch or an upload of the executable graph. A memory is
 * used while it is allocated, or mapped for an executable graph that holds
 * it (from its launch or upload until it is destroyed, or until a trim
 * finds the memory unused: not allocated and no launch of the graph
 * pending; the next launch maps it again), and reserved from then until a
 * trim finds it unused; the storage of reserved memory whose nodes are all
 * gone is kept (parked) until a trim.
 */
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cuemu/cuemu_runtime.h>
#include <cuemu/cuemu_rt_graph_mem.h>

#include "core/cuemu_access_limits.h"
#include "core/cuemu_allocations.h"
#include "runtime/cuemu_rt_graph_internal.h"
#include "runtime/cuemu_rt_graph_memory.h"
#include "runtime/cuemu_rt_stream_queue.h"

#define DEVICE_KIND (1u << CUEMU_RT_MEMORY_DEVICE)
/* Enough for CUEMU_DEVICE's largest count. */
#define MAX_DEVICES 64

static pthread_mutex_t list_lock = PTHREAD_MUTEX_INITIALIZER;
static cuemu__graph_memory *list;   /* memory some node holds */
static cuemu__graph_memory *parked; /* reserved, no node holds it */
static unsigned long long used_high[MAX_DEVICES], reserved_high[MAX_DEVICES];

static int device_of(const cuemu__graph_memory *m) {
  return (int)(m->flags >> CUEMU_RT_MEMORY_DEVICE_SHIFT) % MAX_DEVICES;
}

static int used(const cuemu__graph_memory *m) {
  return (m->instantiated && m->mapped) || !m->freed;
}

/* The device's counters (the lock held). */
static void count(int device, unsigned long long *use,
                  unsigned long long *reserve) {
  *use = *reserve = 0;
  for (const cuemu__graph_memory *m = list; m; m = m->next)
    if (device_of(m) == device) {
      *use += used(m) ? m->size : 0;
      *reserve += used(m) || m->reserved ? m->size : 0;
    }
  for (const cuemu__graph_memory *m = parked; m; m = m->next)
    if (device_of(m) == device)
      *reserve += m->size;
}

/* After a change of `m`: it is reserved while used, and the high marks of
 * its device follow (the lock held). */
static void changed(cuemu__graph_memory *m) {
  if (used(m))
    m->reserved = 1;
  int d = device_of(m);
  unsigned long long use, reserve;
  count(d, &use, &reserve);
  if (use > used_high[d])
    used_high[d] = use;
  if (reserve > reserved_high[d])
    reserved_high[d] = reserve;
}

/* Frees `m` in the allocation table, keeping its storage (the lock held). */
static void mark_freed(cuemu__graph_memory *m) {
  if (m->freed)
    return;
  cuemu__allocation_release(m->ptr, DEVICE_KIND, 1);
  cuemu__allocation_freed(m->ptr);
  m->freed = 1;
  changed(m);
}

void cuemu__graph_memory_enter(cuemu__graph_memory *m) {
  cuemu_rt_allocation a;
  if (cuemu__allocation_find(m->ptr, &a))
    m->flags = a.flags;
  pthread_mutex_lock(&list_lock);
  m->next = list;
  list = m;
  mark_freed(m);
  pthread_mutex_unlock(&list_lock);
}

static void unlink_from(cuemu__graph_memory **head, cuemu__graph_memory *m) {
  for (cuemu__graph_memory **p = head; *p; p = &(*p)->next)
    if (*p == m) {
      *p = m->next;
      return;
    }
}

/* Gives back the storage of `m` and `m` itself. */
static void destroy(cuemu__graph_memory *m) {
  cuemu__access_limits_clear(m->ptr);
  cuemu__allocation_memory_free(m->ptr, m->size);
  free(m);
}

void cuemu__graph_memory_leave(cuemu__graph_memory *m) {
  pthread_mutex_lock(&list_lock);
  unlink_from(&list, m);
  /* Its address is nobody's any more: freed in the table for good. */
  mark_freed(m);
  int park = m->reserved;
  if (park) {
    m->next = parked;
    parked = m;
  }
  pthread_mutex_unlock(&list_lock);
  if (!park)
    destroy(m);
}

void cuemu__graph_memory_hold(cuemu__graph_memory *m, int held) {
  pthread_mutex_lock(&list_lock);
  m->instantiated = held;
  m->mapped = 0; /* instantiated, it is mapped at the first launch */
  changed(m);
  pthread_mutex_unlock(&list_lock);
}

void cuemu__graph_memory_allocated(cuemu__graph_memory *m) {
  pthread_mutex_lock(&list_lock);
  int again = m->freed;
  if (again && cuemu__allocation_insert(m->ptr, m->size,
                                        CUEMU_RT_MEMORY_DEVICE, m->flags) == 0)
    m->freed = 0;
  changed(m);
  pthread_mutex_unlock(&list_lock);
  if (again && !m->freed)
    cuemu__allocation_note(m->ptr, m->size, CUEMU_RT_MEMORY_DEVICE, NULL);
}

/* The allocated graph memory at `ptr`, or NULL (the lock held). */
static cuemu__graph_memory *find_allocated(const void *ptr) {
  for (cuemu__graph_memory *m = list; m; m = m->next)
    if (m->ptr == ptr && !m->freed)
      return m;
  return NULL;
}

int cuemu__graph_memory_free_node(const void *ptr) {
  pthread_mutex_lock(&list_lock);
  cuemu__graph_memory *m = find_allocated(ptr);
  if (m)
    mark_freed(m);
  pthread_mutex_unlock(&list_lock);
  return m ? cudaSuccess : cudaErrorInvalidValue;
}

int cuemu__graph_memory_free(const void *ptr) {
  pthread_mutex_lock(&list_lock);
  cuemu__graph_memory *m = find_allocated(ptr);
  if (m) {
    m->issued = 0;
    mark_freed(m);
  }
  pthread_mutex_unlock(&list_lock);
  return m != NULL;
}

/* ---- Launches in issue order ----------------------------------------------
 * A launch is issued (cudaGraphLaunch returns) before it runs, so CUDA's
 * relaunch rule is checked against the allocations as the order of issue
 * leaves them: `issued` is set by an issued launch that allocates, and
 * cleared by an issued free (a free node's launch, cudaFreeAsync, cudaFree).
 * The allocation table follows when the work runs. */

/* Calls fn on every node of g and of the graphs inside it. */
static void each_node(cuemu_rt_graph *g,
                      void (*fn)(cuemu_rt_graph_node *, void *), void *arg) {
  for (size_t i = 0; i < g->nodes.n; ++i) {
    cuemu_rt_graph_node *node = g->nodes.v[i];
    fn(node, arg);
    if (node->p.type == CUEMU_RT_NODE_GRAPH)
      each_node(node->p.u.child.graph, fn, arg);
    for (unsigned b = 0; node->bodies && b < node->p.u.conditional.size; ++b)
      each_node(node->bodies[b], fn, arg);
  }
}

static void note_memory_node(cuemu_rt_graph_node *node, void *found) {
  int t = node->p.type;
  if (t == CUEMU_RT_NODE_MEM_ALLOC || t == CUEMU_RT_NODE_MEM_FREE)
    *(int *)found = 1;
}

int cuemu__graph_has_memory_nodes(cuemu_rt_graph *g) {
  int found = 0;
  each_node(g, note_memory_node, &found);
  return found;
}

static void note_conditional_node(cuemu_rt_graph_node *node, void *found) {
  if (node->p.type == CUEMU_RT_NODE_CONDITIONAL)
    *(int *)found = 1;
}

int cuemu__graph_has_conditional_nodes(cuemu_rt_graph *g) {
  int found = 0;
  each_node(g, note_conditional_node, &found);
  return found;
}

/* The steps of an issued launch (the lock held). */
enum {
  STEP_CHECK,
  STEP_ALLOCATE,
  STEP_FREE,
  STEP_FREE_ON_LAUNCH,
  STEP_FAILED,
  STEP_MAP,  /* an upload, or with `launch` 1 a launch issued */
  STEP_DONE  /* a launch done */
};

typedef struct launch_step {
  int step;
  int blocked; /* STEP_CHECK: an allocation is still allocated */
  unsigned long long launch; /* the launch's number */
} launch_step;

static void launch_visit(cuemu_rt_graph_node *node, void *arg) {
  launch_step *s = arg;
  cuemu__graph_memory *m = node->memory;
  if (s->step == STEP_CHECK && m && m->issued)
    s->blocked = 1;
  else if (s->step == STEP_ALLOCATE && m) {
    m->issued = 1;
    m->issued_by = s->launch;
  } else if (s->step == STEP_FAILED && m && m->issued &&
             m->issued_by == s->launch && m->freed) {
    m->issued = 0; /* its node did not run: nothing to free */
  }
  else if (s->step == STEP_FREE && node->p.type == CUEMU_RT_NODE_MEM_FREE) {
    for (cuemu__graph_memory *f = list; f; f = f->next)
      if (f->ptr == node->p.u.free.dptr && f->issued) {
        f->issued = 0;
        break;
      }
  } else if (s->step == STEP_FREE_ON_LAUNCH && m) {
    mark_freed(m);
  } else if (s->step == STEP_MAP && m) {
    m->mapped = 1;
    m->running += (unsigned)s->launch;
    changed(m);
  } else if (s->step == STEP_DONE && m && m->running) {
    m->running--;
  }
}

int cuemu__graph_memory_issue_launch(cuemu_rt_graph *g, int auto_free,
                                     unsigned long long launch) {
  launch_step s = {STEP_CHECK, 0, launch};
  pthread_mutex_lock(&list_lock);
  if (!auto_free)
    each_node(g, launch_visit, &s);
  if (!s.blocked) {
    /* Allocations first: a free node of the same graph follows its
     * allocation node. */
    s.step = STEP_ALLOCATE;
    each_node(g, launch_visit, &s);
    s.step = STEP_FREE;
    each_node(g, launch_visit, &s);
    /* The launch maps the graph's memory, in use until the launch is
     * done. */
    launch_step map = {STEP_MAP, 0, 1};
    each_node(g, launch_visit, &map);
  }
  pthread_mutex_unlock(&list_lock);
  return s.blocked ? cudaErrorInvalidValue : cudaSuccess;
}

/* Visits g's nodes for `step` of `launch` (the lock taken). */
static void visit_locked(cuemu_rt_graph *g, int step,
                         unsigned long long launch) {
  launch_step s = {step, 0, launch};
  pthread_mutex_lock(&list_lock);
  each_node(g, launch_visit, &s);
  pthread_mutex_unlock(&list_lock);
}

void cuemu__graph_memory_free_on_launch(cuemu_rt_graph *g) {
  visit_locked(g, STEP_FREE_ON_LAUNCH, 0);
}

void cuemu__graph_memory_upload(cuemu_rt_graph *g) {
  visit_locked(g, STEP_MAP, 0);
}

void cuemu__graph_memory_launch_done(cuemu_rt_graph *g) {
  visit_locked(g, STEP_DONE, 0);
}

void cuemu__graph_memory_launch_failed(cuemu_rt_graph *g,
                                       unsigned long long launch) {
  visit_locked(g, STEP_FAILED, launch);
}

/* The queued part of cudaFreeAsync: the free, when the stream reaches it
 * (an allocation no longer allocated then is the stream's error). */
static int run_free(void *ptr, void *stream) {
  (void)stream;
  int code = cuemu__graph_memory_free_node(ptr);
  return code ? cuemu__graph_fail(code, "cudaFreeAsync: the graph "
                                        "allocation at %p is not allocated "
                                        "when the stream reaches its free",
                                  ptr)
              : cudaSuccess;
}

int cuemu__graph_memory_issued(const void *p, size_t extent) {
  uintptr_t a = (uintptr_t)p;
  int inside = 0;
  pthread_mutex_lock(&list_lock);
  for (const cuemu__graph_memory *m = list; m && !inside; m = m->next) {
    uintptr_t base = (uintptr_t)m->ptr;
    inside = m->issued && a >= base && a - base < m->size &&
             extent <= m->size - (a - base);
  }
  pthread_mutex_unlock(&list_lock);
  return inside;
}

int cuemu__graph_memory_queue_free(void *ptr, void *stream, int *code) {
  pthread_mutex_lock(&list_lock);
  cuemu__graph_memory *m = list;
  while (m && !(m->ptr == ptr && m->issued))
    m = m->next;
  if (m)
    m->issued = 0;
  pthread_mutex_unlock(&list_lock);
  if (m)
    *code = cuemu__stream_defer_call(stream, run_free, ptr);
  return m != NULL;
}

/* ---- The device's counters ----------------------------------------------- */

static int check_device(int device) {
  int n = 0;
  cuemu_rt_get_device_count(&n);
  return device >= 0 && device < n && device < MAX_DEVICES
             ? 0
             : cudaErrorInvalidDevice;
}

int cuemu_rt_device_get_graph_mem_attribute(int device, int attribute,
                                            unsigned long long *value) {
  int code = check_device(device);
  if (code)
    return cuemu_rt_error(code);
  if (!value || attribute < 0 || attribute > 3)
    return cuemu_rt_error(cudaErrorInvalidValue);
  unsigned long long use, reserve;
  pthread_mutex_lock(&list_lock);
  count(device, &use, &reserve);
  unsigned long long v[4] = {use, used_high[device], reserve,
                             reserved_high[device]};
  pthread_mutex_unlock(&list_lock);
  *value = v[attribute];
  return cudaSuccess;
}

int cuemu_rt_device_set_graph_mem_attribute(int device, int attribute,
                                            const unsigned long long *value) {
  int code = check_device(device);
  if (code)
    return cuemu_rt_error(code);
  /* Only the high marks, and only reset (to 0, which leaves the current
   * value: a high mark is never under it). */
  if (!value || *value != 0 || (attribute != 1 && attribute != 3))
    return cuemu_rt_error(cudaErrorInvalidValue);
  unsigned long long use, reserve;
  pthread_mutex_lock(&list_lock);
  count(device, &use, &reserve);
  if (attribute == 1)
    used_high[device] = use;
  else
    reserved_high[device] = reserve;
  pthread_mutex_unlock(&list_lock);
  return cudaSuccess;
}

int cuemu_rt_device_graph_mem_trim(int device) {
  int code = check_device(device);
  if (code)
    return cuemu_rt_error(code);
  cuemu__graph_memory *gone = NULL;
  pthread_mutex_lock(&list_lock);
  /* Memory not allocated and not in a pending launch is unmapped, and no
   * longer reserved. */
  for (cuemu__graph_memory *m = list; m; m = m->next)
    if (device_of(m) == device && m->freed && !m->running) {
      m->mapped = 0;
      m->reserved = 0;
    }
  for (cuemu__graph_memory **p = &parked; *p;) {
    cuemu__graph_memory *m = *p;
    if (device_of(m) == device) {
      *p = m->next;
      m->next = gone;
      gone = m;
    } else {
      p = &m->next;
    }
  }
  pthread_mutex_unlock(&list_lock);
  while (gone) {
    cuemu__graph_memory *next = gone->next;
    destroy(gone);
    gone = next;
  }
  return cudaSuccess;
}
