/*
 * cuemu_rt_peer_ipc.c: IPC handles of the runtime API (see
 * cuemu_runtime_peer.h). Exporting an allocation moves its pages into a
 * POSIX shared-memory object, at the same address and with the same
 * contents, so that the exporter and every process that opens the handle
 * see one memory; the objects are unlinked when the exporter exits.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cuemu/cuemu_runtime.h>
#include <cuemu/cuemu_runtime_peer.h>
#include <cuemu/cuemu_runtime_streams.h>

#include "core/cuemu_allocations.h"
#include "device/cuemu_device_model.h"
#include "device/cuemu_handles.h"
#include "runtime/cuemu_rt_internal.h"
#include "runtime/cuemu_rt_ipc_event.h"
#include "runtime/cuemu_rt_stream_queue.h"

/* What a 64-byte handle holds. */
typedef struct ipc_handle {
  char magic[8]; /* "cuemuIPC" or "cuemuEVT" */
  uint32_t pid;  /* the exporter */
  uint32_t serial; /* an event's: the exporter's descriptor of its file */
  uint64_t size; /* bytes of the allocation; an event's file's identity */
} ipc_handle;

_Static_assert(sizeof(ipc_handle) <= 64, "a CUDA IPC handle has 64 bytes");

#define EVENT_INTERPROCESS 0x4u
/* cudaIpcMemLazyEnablePeerAccess, the one flag of cudaIpcOpenMemHandle. */
#define IPC_LAZY_ENABLE_PEER_ACCESS 0x1u

/* Exported allocations (by base) and opened mappings, one list each. */
typedef struct ipc_entry {
  void *base;
  size_t bytes;
  uint32_t serial;
} ipc_entry;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static ipc_entry *exported, *opened;
static size_t nexported, nopened, cap_exported, cap_opened;
static uint32_t next_serial;

static void object_name(char *buf, size_t size, uint32_t pid,
                        uint32_t serial) {
  snprintf(buf, size, "/cuemu-ipc-%u-%u", (unsigned)pid, (unsigned)serial);
}

static size_t page_bytes(size_t size) {
  size_t page = (size_t)sysconf(_SC_PAGESIZE);
  return (size ? size + page - 1 : page) / page * page;
}

/* Unlinks the exporter's shared-memory objects at exit. */
static void unlink_exported(void) {
  char name[64];
  for (size_t i = 0; i < nexported; ++i) {
    object_name(name, sizeof name, (uint32_t)getpid(), exported[i].serial);
    shm_unlink(name);
  }
}

static int push(ipc_entry **list, size_t *n, size_t *cap, ipc_entry e) {
  if (*n == *cap) {
    size_t c = *cap ? *cap * 2 : 8;
    ipc_entry *grown = realloc(*list, c * sizeof *grown);
    if (!grown)
      return 0;
    *list = grown;
    *cap = c;
  }
  (*list)[(*n)++] = e;
  return 1;
}

/* Moves the pages of [base, base + bytes) into a new shared-memory object
 * `name`, in place. Returns 0 or -1. */
static int share_in_place(void *base, size_t bytes, const char *name) {
  int fd = shm_open(name, O_RDWR | O_CREAT | O_EXCL, 0600);
  if (fd < 0)
    return -1;
  void *copy = MAP_FAILED;
  if (ftruncate(fd, (off_t)bytes) == 0)
    copy = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (copy == MAP_FAILED) {
    close(fd);
    shm_unlink(name);
    return -1;
  }
  memcpy(copy, base, bytes);
  munmap(copy, bytes);
  void *p = mmap(base, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED,
                 fd, 0);
  close(fd);
  if (p != base) {
    shm_unlink(name);
    return -1;
  }
  return 0;
}

int cuemu_rt_ipc_get_mem_handle(void *handle64, void *ptr) {
  if (!handle64 || !ptr)
    return cuemu_rt_error(cudaErrorInvalidValue);
  int sticky = cuemu__rt_check_sticky();
  if (sticky)
    return sticky;
  cuemu_rt_allocation a;
  if (!cuemu__allocation_find(ptr, &a) || a.base != ptr ||
      a.state != CUEMU_RT_MEMORY_LIVE || a.kind != CUEMU_RT_MEMORY_DEVICE ||
      (a.flags & CUEMU__RT_MEMORY_POOLED)) /* a pool's: not exportable */
    return cuemu_rt_error(cudaErrorInvalidValue);
  ipc_handle h;
  memset(&h, 0, sizeof h);
  memcpy(h.magic, "cuemuIPC", 8);
  h.pid = (uint32_t)getpid();
  h.size = a.size;
  int code = cudaSuccess;
  pthread_mutex_lock(&lock);
  size_t i = 0;
  while (i < nexported && exported[i].base != ptr)
    i++;
  if (i < nexported) {
    h.serial = exported[i].serial; /* exported before: the same handle */
  } else {
    char name[64];
    h.serial = ++next_serial;
    object_name(name, sizeof name, h.pid, h.serial);
    ipc_entry e = {ptr, page_bytes(a.size), h.serial};
    if (share_in_place(ptr, e.bytes, name) != 0) {
      code = cudaErrorMapBufferObjectFailed;
    } else if (!push(&exported, &nexported, &cap_exported, e)) {
      shm_unlink(name);
      code = cudaErrorMemoryAllocation;
    } else if (nexported == 1) {
      atexit(unlink_exported);
    }
  }
  pthread_mutex_unlock(&lock);
  if (code)
    return cuemu_rt_error(code);
  memset(handle64, 0, 64);
  memcpy(handle64, &h, sizeof h);
  return cudaSuccess;
}

int cuemu_rt_ipc_open_mem_handle(void **ptr, const void *handle64,
                                 unsigned flags) {
  if (!ptr || !handle64 || (flags & ~IPC_LAZY_ENABLE_PEER_ACCESS))
    return cuemu_rt_error(cudaErrorInvalidValue);
  int sticky = cuemu__rt_check_sticky();
  if (sticky)
    return sticky;
  ipc_handle h;
  memcpy(&h, handle64, sizeof h);
  if (memcmp(h.magic, "cuemuIPC", 8) != 0 || h.size == 0)
    return cuemu_rt_error(cudaErrorInvalidValue);
  /* CUDA refuses a handle of the process itself. */
  if (h.pid == (uint32_t)getpid())
    return cuemu_rt_error(cudaErrorDeviceUninitialized);
  char name[64];
  object_name(name, sizeof name, h.pid, h.serial);
  int fd = shm_open(name, O_RDWR, 0);
  if (fd < 0)
    return cuemu_rt_error(cudaErrorMapBufferObjectFailed);
  size_t bytes = page_bytes((size_t)h.size);
  void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  close(fd);
  if (p == MAP_FAILED)
    return cuemu_rt_error(cudaErrorMapBufferObjectFailed);
  unsigned owner = (unsigned)cuemu__device_current()
                   << CUEMU_RT_MEMORY_DEVICE_SHIFT;
  ipc_entry e = {p, bytes, h.serial};
  pthread_mutex_lock(&lock);
  int ok = push(&opened, &nopened, &cap_opened, e);
  pthread_mutex_unlock(&lock);
  if (!ok || cuemu__allocation_insert(p, (size_t)h.size,
                                      CUEMU_RT_MEMORY_DEVICE, owner) != 0) {
    munmap(p, bytes);
    return cuemu_rt_error(cudaErrorMemoryAllocation);
  }
  /* The exporter's data counts as written (initcheck). */
  cuemu__allocation_note(p, (size_t)h.size, CUEMU_RT_MEMORY_DEVICE,
                         __builtin_return_address(0));
  cuemu__allocation_written(p, (size_t)h.size);
  *ptr = p;
  return cudaSuccess;
}

int cuemu_rt_ipc_close_mem_handle(void *ptr) {
  if (!ptr)
    return cuemu_rt_error(cudaErrorInvalidValue);
  pthread_mutex_lock(&lock);
  size_t i = 0;
  while (i < nopened && opened[i].base != ptr)
    i++;
  ipc_entry e = {NULL, 0, 0};
  if (i < nopened) {
    e = opened[i];
    opened[i] = opened[--nopened];
  }
  pthread_mutex_unlock(&lock);
  if (!e.base)
    return cuemu_rt_error(cudaErrorInvalidValue);
  /* The work issued before the close may still use the memory (CUDA's
   * simpleIPC closes right after launching a kernel on it): wait for it,
   * as cudaFree does, before the mapping goes. */
  cuemu__stream_drain_all();
  cuemu__allocation_release(ptr, 1u << CUEMU_RT_MEMORY_DEVICE, 0);
  cuemu__allocation_freed(ptr);
  munmap(ptr, e.bytes);
  return cudaSuccess;
}

int cuemu_rt_ipc_get_event_handle(void *handle64, void *event) {
  if (!handle64)
    return cuemu_rt_error(cudaErrorInvalidValue);
  cuemu_handle_state state;
  if (!cuemu__handle_get(CUEMU_HANDLE_EVENT, event, &state) ||
      !(state.flags & EVENT_INTERPROCESS))
    return cuemu_rt_error(cudaErrorInvalidResourceHandle);
  uint32_t pid = 0;
  int32_t fd = -1;
  uint64_t identity = 0;
  if (!cuemu__ipc_event_name(event, &pid, &fd, &identity))
    return cuemu_rt_error(cudaErrorInvalidResourceHandle);
  ipc_handle h;
  memset(&h, 0, sizeof h);
  memcpy(h.magic, "cuemuEVT", 8);
  h.pid = pid;
  h.serial = (uint32_t)fd;
  h.size = identity;
  memset(handle64, 0, 64);
  memcpy(handle64, &h, sizeof h);
  return cuemu__rt_check_sticky();
}

int cuemu_rt_ipc_open_event_handle(void **event, const void *handle64) {
  if (!event || !handle64)
    return cuemu_rt_error(cudaErrorInvalidValue);
  ipc_handle h;
  memcpy(&h, handle64, sizeof h);
  if (memcmp(h.magic, "cuemuEVT", 8) != 0)
    return cuemu_rt_error(cudaErrorInvalidValue);
  /* An event of this process that shares the exporter's counters. */
  int err = cuemu__rt_event_create_opened(event);
  if (err)
    return err;
  err = cuemu__ipc_event_open(*event, h.pid, (int32_t)h.serial, h.size);
  if (err) {
    cuemu_rt_event_destroy(*event);
    *event = NULL;
    return cuemu_rt_error(err);
  }
  return cudaSuccess;
}
