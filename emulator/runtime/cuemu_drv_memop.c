/*
 * cuemu_drv_memop.c: stream memory operations (cuStreamWaitValue32/64,
 * cuStreamWriteValue32/64, cuStreamBatchMemOp) and batch memory operation
 * graph nodes (see cuemu_stream_memops.h). Operations run in their
 * stream's order (on its execution thread: docs/streams.md): a write
 * stores, a wait polls the value until its condition holds, gives up when
 * nothing could ever change it, and after CUEMU_EXT_WAIT_SECONDS
 * otherwise. Flushing remote writes is not
 * supported, as the device's CU_DEVICE_ATTRIBUTE_CAN_FLUSH_REMOTE_WRITES
 * says.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cuemu/cuemu_runtime.h>
#include <cuemu/cuemu_stream_memops.h>

#include "base/cuemu_config.h"
#include "base/cuemu_maps_line.h"
#include "runtime/cuemu_rt_capture.h"
#include "runtime/cuemu_rt_graph_internal.h"
#include "runtime/cuemu_rt_internal.h"
#include "runtime/cuemu_rt_stream_queue.h"

/* CUstreamWaitValue_flags: the condition in the low bits, and FLUSH. */
#define WAIT_CONDITION_MASK 0x3u
#define WAIT_FLUSH (1u << 30)
/* CUstreamWriteValue_flags: NO_MEMORY_BARRIER. */
#define WRITE_FLAGS 0x1u
/* CUstreamMemoryBarrier_flags: SYS (0) or GPU (1). */
#define BARRIER_FLAGS 0x1u
/* cuStreamBatchMemOp takes fewer than 256 operations. */
#define MOST_OPERATIONS 255u

static const char *const conditions[] = {">=", "==", "&", "nor"};

static int is_wait(unsigned op) {
  return op == CUEMU_MEMOP_WAIT_VALUE_32 || op == CUEMU_MEMOP_WAIT_VALUE_64;
}

static int is_value(unsigned op) {
  return is_wait(op) || op == CUEMU_MEMOP_WRITE_VALUE_32 ||
         op == CUEMU_MEMOP_WRITE_VALUE_64;
}

static unsigned width_of(unsigned op) {
  return op == CUEMU_MEMOP_WAIT_VALUE_64 || op == CUEMU_MEMOP_WRITE_VALUE_64
             ? 8u
             : 4u;
}

static const char *name_of(unsigned op) {
  switch (op) {
  case CUEMU_MEMOP_WAIT_VALUE_32: return "cuStreamWaitValue32";
  case CUEMU_MEMOP_WRITE_VALUE_32: return "cuStreamWriteValue32";
  case CUEMU_MEMOP_WAIT_VALUE_64: return "cuStreamWaitValue64";
  case CUEMU_MEMOP_WRITE_VALUE_64: return "cuStreamWriteValue64";
  case CUEMU_MEMOP_FLUSH_REMOTE_WRITES: return "CU_STREAM_MEM_OP_FLUSH_REMOTE_WRITES";
  default: return "CU_STREAM_MEM_OP_BARRIER";
  }
}

/* Checks operation `i`; a CUDA code, recorded with a message. */
static int check_op(const cuemu_memop *m, unsigned i) {
  unsigned op = m->operation;
  /* The device says it cannot flush remote writes
   * (CU_DEVICE_ATTRIBUTE_CAN_FLUSH_REMOTE_WRITES is 0), as most do. */
  if (op == CUEMU_MEMOP_FLUSH_REMOTE_WRITES ||
      (is_wait(op) && (m->value.flags & WAIT_FLUSH)))
    return cuemu__graph_fail(cudaErrorNotSupported,
                             "%s (operation %u): flushing remote writes is "
                             "not supported by the device "
                             "(CU_DEVICE_ATTRIBUTE_CAN_FLUSH_REMOTE_WRITES "
                             "is 0)",
                             name_of(op), i);
  if (op == CUEMU_MEMOP_BARRIER) {
    if (m->other.flags & ~BARRIER_FLAGS)
      return cuemu__graph_fail(cudaErrorInvalidValue,
                               "stream memory operation %u (%s): flags %#x "
                               "are not valid",
                               i, name_of(op), m->other.flags);
    return cudaSuccess;
  }
  if (!is_value(op))
    return cuemu__graph_fail(cudaErrorInvalidValue,
                             "stream memory operation %u: %u is no "
                             "CUstreamBatchMemOpType",
                             i, op);
  unsigned flags = m->value.flags;
  unsigned allowed = is_wait(op) ? WAIT_CONDITION_MASK : WRITE_FLAGS;
  if (flags & ~allowed)
    return cuemu__graph_fail(cudaErrorInvalidValue,
                             "%s (operation %u): flags %#x are not valid",
                             name_of(op), i, flags);
  unsigned width = width_of(op);
  const void *p = (const void *)(uintptr_t)m->value.address;
  if (!p || m->value.address % width)
    return cuemu__graph_fail(cudaErrorInvalidValue,
                             "%s (operation %u): the address %p is not "
                             "aligned to %u bytes",
                             name_of(op), i, p, width);
  cuemu_rt_allocation a;
  if (!cuemu_rt_memory_find(p, &a) || a.state != CUEMU_RT_MEMORY_LIVE ||
      (const char *)p + width > (const char *)a.base + a.size)
    return cuemu__graph_fail(cudaErrorInvalidValue,
                             "%s (operation %u): %p is not in device memory, "
                             "pinned or registered host memory or a module's "
                             "variable",
                             name_of(op), i, p);
  if (a.kind == CUEMU_RT_MEMORY_MANAGED)
    return cuemu__graph_fail(cudaErrorInvalidValue,
                             "%s (operation %u): %p is managed memory, which "
                             "stream memory operations do not take",
                             name_of(op), i, p);
  return cudaSuccess;
}

static int check_ops(unsigned count, const cuemu_memop *ops, unsigned flags) {
  if (count == 0 || count > MOST_OPERATIONS || !ops || flags)
    return cuemu__graph_fail(cudaErrorInvalidValue,
                             "cuStreamBatchMemOp: %s",
                             flags ? "flags must be 0"
                             : !ops ? "the operations are NULL"
                                    : "the count must be 1 to 255");
  for (unsigned i = 0; i < count; ++i) {
    int code = check_op(&ops[i], i);
    if (code)
      return code;
  }
  return cudaSuccess;
}

/* The value at a wait's address, of its width. */
static unsigned long long load(const cuemu_memop *m) {
  if (width_of(m->operation) == 8)
    return __atomic_load_n((const unsigned long long *)(uintptr_t)
                               m->value.address,
                           __ATOMIC_ACQUIRE);
  return __atomic_load_n((const uint32_t *)(uintptr_t)m->value.address,
                         __ATOMIC_ACQUIRE);
}

/* Whether a wait's condition holds for `current`. */
static int satisfied(const cuemu_memop *m, unsigned long long current) {
  int wide = width_of(m->operation) == 8;
  unsigned long long want =
      wide ? m->value.value : (unsigned long long)(uint32_t)m->value.value;
  unsigned long long mask = wide ? ~0ull : 0xffffffffull;
  switch (m->value.flags & WAIT_CONDITION_MASK) {
  case 0: /* GEQ: a cyclic comparison, as CUDA's */
    return wide ? (int64_t)(current - want) >= 0
                : (int32_t)(uint32_t)(current - want) >= 0;
  case 1: /* EQ */
    return current == want;
  case 2: /* AND */
    return (current & want) != 0;
  default: /* NOR */
    return (~(current | want) & mask) != 0;
  }
}

/* Non-zero when `p` lies in a mapping shared with other processes (or
 * when that cannot be told). */
static int shared_mapping(const void *p) {
  char line[512];
  unsigned long lo, hi;
  char perms[8];
  if (cuemu__maps_line((uintptr_t)p, line, sizeof line) != 1 ||
      sscanf(line, "%lx-%lx %7s", &lo, &hi, perms) != 3)
    return 1;
  return perms[3] == 's';
}

static int wait_failed(const cuemu_memop *m, unsigned long long current,
                       int code, const char *why, long seconds) {
  int wide = width_of(m->operation) == 8;
  unsigned long long want =
      wide ? m->value.value : (unsigned long long)(uint32_t)m->value.value;
  code = cuemu__graph_fail(
      code,
      "%s: the value at %p is %#llx, waiting for value %s %#llx; %s%.0ld%s",
      name_of(m->operation), (void *)(uintptr_t)m->value.address, current,
      conditions[m->value.flags & WAIT_CONDITION_MASK], want, why, seconds,
      seconds ? " s (CUEMU_EXT_WAIT_SECONDS)" : "");
  if (!cuemu__config_quiet())
    fprintf(stderr, "cuemu: %s\n", cuemu_last_message());
  return code;
}

/* A wait on a stream's execution thread lasts until the host finds that
 * nothing left can satisfy it (cuemu__stream_wait_abandoned()). A wait
 * that runs where it is issued (CUEMU_STREAMS=sync) blocks the issuing
 * thread, and fails at once when the process has no other host thread and
 * the memory is not shared with another process. */
static int wait_value(const cuemu_memop *m) {
  unsigned long long current = load(m);
  if (satisfied(m, current))
    return cudaSuccess;
  const void *p = (const void *)(uintptr_t)m->value.address;
  int shared = shared_mapping(p);
  if (!cuemu__stream_executing() && !shared &&
      cuemu__stream_host_threads() == 1)
    return wait_failed(m, current, cudaErrorNotSupported,
                       "the process has no other host thread and the memory "
                       "is not shared with another process, so nothing can "
                       "change it (with CUEMU_STREAMS=sync, stream work runs "
                       "when it is issued, so a write that this thread "
                       "issues later cannot come first)",
                       0);
  cuemu__stream_waiting_for_memory(shared ? 2 : 1);
  long limit = cuemu__rt_wait_limit();
  struct timespec start;
  clock_gettime(CLOCK_MONOTONIC, &start);
  long pause_ns = 1000;
  int code = cudaSuccess;
  for (;;) {
    current = load(m);
    if (satisfied(m, current))
      break;
    if (cuemu__stream_wait_abandoned()) {
      code = wait_failed(m, current, cudaErrorNotSupported,
                         "the host waits for it, it has no other host "
                         "thread, and no work left on any stream can change "
                         "the value, so nothing ever will", 0);
      break;
    }
    if (cuemu__rt_waited_past(&start, limit)) {
      code = wait_failed(m, current, cudaErrorTimeout,
                         "nothing satisfied it in ", limit);
      break;
    }
    struct timespec tick = {0, pause_ns};
    nanosleep(&tick, NULL);
    if (pause_ns < 1000000)
      pause_ns *= 2;
  }
  cuemu__stream_waiting_for_memory(0);
  return code;
}

static void write_value(const cuemu_memop *m) {
  if (width_of(m->operation) == 8)
    __atomic_store_n((unsigned long long *)(uintptr_t)m->value.address,
                     m->value.value, __ATOMIC_RELEASE);
  else
    __atomic_store_n((uint32_t *)(uintptr_t)m->value.address,
                     (uint32_t)m->value.value, __ATOMIC_RELEASE);
}

/* Runs checked operations in order; a CUDA code, recorded. */
static int run(unsigned count, const cuemu_memop *ops) {
  for (unsigned i = 0; i < count; ++i) {
    const cuemu_memop *m = &ops[i];
    if (is_wait(m->operation)) {
      int code = wait_value(m);
      if (code)
        return code;
    } else if (is_value(m->operation)) {
      write_value(m);
    } else {
      /* A barrier: the host's memory is coherent already. */
      __atomic_thread_fence(__ATOMIC_SEQ_CST);
    }
  }
  return cudaSuccess;
}

int cuemu_drv_stream_batch_mem_op(void *stream, unsigned count,
                                  const cuemu_memop *ops, unsigned flags) {
  int code = cuemu__rt_check_sticky_stream(stream);
  if (code)
    return code;
  code = check_ops(count, ops, flags);
  if (code)
    return code;
  cuemu_rt_graph_node_params p = {.type = CUEMU_RT_NODE_BATCH_MEM_OP};
  p.u.memop.ops = ops;
  p.u.memop.count = count;
  p.u.memop.flags = flags;
  code = cuemu__rt_capture_node(stream, &p);
  if (code != CUEMU__RT_NOT_CAPTURED)
    return code;
  if (!cuemu__stream_inline())
    return cuemu__stream_defer_node(stream, &p);
  return run(count, ops);
}

int cuemu__graph_memop_assign(cuemu_rt_graph_node *node,
                              const cuemu_rt_graph_node_params *p) {
  const cuemu_memop *ops = p->u.memop.ops;
  int code = check_ops(p->u.memop.count, ops, p->u.memop.flags);
  if (code)
    return code;
  size_t bytes = (size_t)p->u.memop.count * sizeof *ops;
  unsigned char *blob = malloc(bytes);
  if (!blob)
    return cuemu_rt_error(cudaErrorMemoryAllocation);
  memcpy(blob, ops, bytes);
  free(node->arg_blob);
  node->arg_blob = blob;
  node->p = *p;
  node->p.u.memop.ops = blob;
  return cudaSuccess;
}

int cuemu__graph_memop_run(const cuemu_rt_graph_node *node) {
  return run(node->p.u.memop.count, node->p.u.memop.ops);
}
