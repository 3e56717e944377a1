/*
 * cuemu_drv_vmm.c: the driver API's virtual memory management (see
 * cuemu/cuemu_vmm.h and docs/vmm.md): physical allocations (anonymous
 * files), reservations of address space, mappings of the one into the
 * other, their access, and the sharing of physical memory between
 * processes through file descriptors. One lock guards the three lists.
 */
#define _GNU_SOURCE
#include <cuemu/cuemu_vmm.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cuemu/cuemu.h>
#include <cuemu/cuemu_driver_api.h>
#include <cuemu/cuemu_driver_errors.h>
#include <cuemu/cuemu_runtime.h>

#include "base/cuemu_report.h"
#include "core/cuemu_access_limits.h"
#include "core/cuemu_allocations.h"
#include "device/cuemu_device_model.h"
#include "runtime/cuemu_drv_vmm.h"
#include "runtime/cuemu_rt_pool_arena.h"

enum {
#define CUEMU_DRV_ENUM_(name, value, text) DRV_##name = value,
  CUEMU_DRIVER_ERROR_MAP(CUEMU_DRV_ENUM_)
#undef CUEMU_DRV_ENUM_
};

/* cuda.h's values. */
enum {
  ALLOCATION_PINNED = 1,
  LOCATION_DEVICE = 1,
  HANDLE_POSIX_FD = 1,
  HANDLE_ALL = 0x1 | 0x2 | 0x4 | 0x8, /* fd, Win32, Win32 KMT, fabric */
  ACCESS_NONE = CUEMU_MEM_ACCESS_NONE,
  ACCESS_READ = CUEMU_MEM_ACCESS_READ,
  ACCESS_READWRITE = CUEMU_MEM_ACCESS_READWRITE
};

/* The name of cuMemCreate's memory files, followed by the device. */
#define MEMFD_PREFIX "cuemu-vmm-device"

/* Access is kept for this many devices (CUEMU_DEVICE allows fewer). */
#define MAX_DEVICES CUEMU_MEM_ACCESS_DEVICES

/* The granularity: CUDA's 2 MiB, the pools' chunk size. */
#define GRANULE CUEMU_POOL_GRANULE

/* A physical allocation: its handle is its address. */
typedef struct phys {
  int fd;
  size_t size;
  cuemu_vmm_prop prop;
  unsigned handles; /* references: cuMemCreate, import, retain */
  unsigned maps;    /* mappings of it */
  struct phys *next;
} phys;

/* A run: back-to-back mappings, tracked as one allocation, so that a
 * copy or a kernel may cross from one physical allocation into the next,
 * as on a GPU. */
typedef struct run {
  char *base;
  size_t size;
} run;

typedef struct reservation {
  char *base;
  size_t size;
  run *runs; /* tracked in the table of allocations */
  size_t nruns;
  struct reservation *next;
} reservation;

/* A mapping. Its access is set per granule, as cuMemSetAccess may set it
 * on part of the mapping: for each granule, MAX_DEVICES CUmemAccess_flags
 * (one per device), also recorded in the table of access limits
 * (core/cuemu_access_limits.h) for memcheck. */
typedef struct mapping {
  char *base;
  size_t size;
  phys *memory;
  unsigned char *access;
  struct mapping *next;
} mapping;

/* The access flags of `device` in the granule of `m` that holds `p`. */
static unsigned char *access_at(const mapping *m, const char *p, int device) {
  return &m->access[(size_t)(p - m->base) / GRANULE * MAX_DEVICES +
                    (size_t)device];
}

/* Forgets mapping `m` (unlinked, its range unmapped by the caller). */
static void mapping_free(mapping *m) {
  cuemu__access_limits_clear(m->base);
  m->memory->maps--;
  free(m->access);
  free(m);
}

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static phys *allocations;
static reservation *reservations;
static mapping *mappings;

/* Records and prints (unless CUEMU_QUIET) a message for `code`, a driver
 * code; gives `code`. */
#define fail(code, ...)                                                        \
  (cuemu__report(CUEMU_INVALID_VALUE, __VA_ARGS__),                            \
   cuemu__report_print(cuemu_last_message()), (code))

/* The driver must be initialised; no context need be current, as with
 * CUDA, whose address space and physical allocations belong to the
 * process (memMapIPCDrv calls cuMemCreate and cuMemUnmap with none). */
static int ready(void) {
  int e = cuemu_drv_check_context();
  return e == DRV_CUDA_ERROR_INVALID_CONTEXT ? DRV_CUDA_SUCCESS : e;
}

/* Every call starts here; takes the lock on success. */
static int begin(void) {
  int e = ready();
  if (e)
    return e;
  pthread_mutex_lock(&lock);
  return DRV_CUDA_SUCCESS;
}

static int end(int code) {
  pthread_mutex_unlock(&lock);
  return code;
}

static int aligned(uintptr_t v) { return v % GRANULE == 0; }

/* The live allocation whose handle is `handle` (a reference left). */
static phys *phys_of(unsigned long long handle) {
  for (phys *p = allocations; p; p = p->next)
    if ((uintptr_t)p == handle && p->handles)
      return p;
  return NULL;
}

/* Frees `p` once nothing refers to it. */
static void phys_drop(phys *p) {
  if (p->handles || p->maps)
    return;
  for (phys **link = &allocations; *link; link = &(*link)->next)
    if (*link == p) {
      *link = p->next;
      break;
    }
  close(p->fd);
  free(p);
}

static phys *phys_new(int fd, size_t size, const cuemu_vmm_prop *prop) {
  phys *p = calloc(1, sizeof *p);
  if (!p)
    return NULL;
  p->fd = fd;
  p->size = size;
  p->prop = *prop;
  p->handles = 1;
  p->next = allocations;
  allocations = p;
  return p;
}

static reservation *reservation_of(const char *p, size_t size) {
  for (reservation *r = reservations; r; r = r->next)
    if (p >= r->base && size <= r->size &&
        (size_t)(p - r->base) <= r->size - size)
      return r;
  return NULL;
}

static mapping *mapping_of(const char *p) {
  for (mapping *m = mappings; m; m = m->next)
    if (p >= m->base && p < m->base + m->size)
      return m;
  return NULL;
}

/* Whether [p, p + size) is made of whole, back-to-back mappings. */
static int whole_mappings(char *p, size_t size) {
  for (char *at = p; at < p + size;) {
    mapping *m = mapping_of(at);
    if (!m || m->base != at || m->size > (size_t)(p + size - at))
      return 0;
    at += m->size;
  }
  return size > 0;
}

/* Tracks the mappings of reservation `r` as runs in the table of
 * allocations, in place of its former runs (which stay remembered as
 * freed where nothing is mapped now, so that a late use is told as one).
 * Returns 0 when the table cannot grow. */
static int retrack(reservation *r) {
  if (!r)
    return 1;
  for (size_t i = 0; i < r->nruns; ++i) {
    cuemu__allocation_release(r->runs[i].base, 1u << CUEMU_RT_MEMORY_DEVICE,
                              1);
    cuemu__allocation_freed(r->runs[i].base);
  }
  r->nruns = 0;
  int ok = 1;
  for (char *at = r->base; at < r->base + r->size;) {
    mapping *m = mapping_of(at);
    if (!m) {
      at += GRANULE;
      continue;
    }
    /* The run is the first mapping's device's memory to
     * cudaPointerGetAttributes (its stripes may lie on several devices,
     * as vectorAddMMAP's). */
    int device = m->memory->prop.location.id;
    char *start = at;
    while (m) {
      at = m->base + m->size;
      m = at < r->base + r->size ? mapping_of(at) : NULL;
    }
    size_t size = (size_t)(at - start);
    run *grown = realloc(r->runs, (r->nruns + 1) * sizeof *grown);
    unsigned owner = (unsigned)device << CUEMU_RT_MEMORY_DEVICE_SHIFT;
    if (!grown ||
        cuemu__allocation_insert(start, size, CUEMU_RT_MEMORY_DEVICE,
                                 owner) != 0) {
      ok = 0;
      if (grown)
        r->runs = grown;
      continue;
    }
    r->runs = grown;
    r->runs[r->nruns++] = (run){start, size};
    /* Physical memory may be written through another mapping or
     * process: its bytes count as written (initcheck). */
    cuemu__allocation_note(start, size, CUEMU_RT_MEMORY_DEVICE,
                           __builtin_return_address(0));
    cuemu__allocation_written(start, size);
  }
  return ok;
}

static int device_location(int type, int id) {
  return type == LOCATION_DEVICE && id >= 0 && id < cuemu__device_count() &&
         id < MAX_DEVICES;
}

/* The device named by the memory file behind `fd`, as cuMemCreate named
 * it; `fallback` for a file of no device of this process. */
static int device_of_file(int fd, int fallback) {
  char link[64], target[128];
  snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
  ssize_t n = readlink(link, target, sizeof target - 1);
  if (n <= 0)
    return fallback;
  target[n] = '\0';
  const char *name = strstr(target, "memfd:" MEMFD_PREFIX);
  int device;
  if (!name ||
      sscanf(name + strlen("memfd:" MEMFD_PREFIX), "%d", &device) != 1 ||
      !device_location(LOCATION_DEVICE, device))
    return fallback;
  return device;
}

/* Checks `prop` for cuMemCreate and cuMemGetAllocationGranularity. */
static int check_prop(const cuemu_vmm_prop *prop, const char *call) {
  if (!prop)
    return fail(DRV_CUDA_ERROR_INVALID_VALUE, "%s: prop is NULL", call);
  if (prop->type != ALLOCATION_PINNED)
    return fail(DRV_CUDA_ERROR_INVALID_VALUE,
                "%s: prop->type %d is not CU_MEM_ALLOCATION_TYPE_PINNED",
                call, prop->type);
  if (prop->location.type != LOCATION_DEVICE)
    return fail(DRV_CUDA_ERROR_INVALID_VALUE,
                "%s: prop->location.type %d is not "
                "CU_MEM_LOCATION_TYPE_DEVICE (the emulator makes device "
                "memory only)",
                call, prop->location.type);
  if (!device_location(prop->location.type, prop->location.id))
    return fail(DRV_CUDA_ERROR_INVALID_DEVICE,
                "%s: prop->location.id %d is no device", call,
                prop->location.id);
  if (prop->requested_handle_types & ~HANDLE_ALL)
    return fail(DRV_CUDA_ERROR_INVALID_VALUE,
                "%s: requestedHandleTypes %#x has unknown bits", call,
                (unsigned)prop->requested_handle_types);
  if (prop->requested_handle_types & ~HANDLE_POSIX_FD)
    return fail(DRV_CUDA_ERROR_NOT_SUPPORTED,
                "%s: only CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR is "
                "supported on Linux (requestedHandleTypes %#x)",
                call, (unsigned)prop->requested_handle_types);
  return DRV_CUDA_SUCCESS;
}

int cuemu_vmm_granularity(size_t *granularity, const cuemu_vmm_prop *prop,
                          int flags) {
  int e = ready();
  if (e)
    return e;
  if (!granularity || (flags != 0 && flags != 1))
    return fail(DRV_CUDA_ERROR_INVALID_VALUE,
                "cuMemGetAllocationGranularity: %s",
                granularity ? "option is neither MINIMUM nor RECOMMENDED"
                            : "granularity is NULL");
  e = check_prop(prop, "cuMemGetAllocationGranularity");
  if (e)
    return e;
  *granularity = GRANULE;
  return DRV_CUDA_SUCCESS;
}

int cuemu_vmm_create(unsigned long long *handle, size_t size,
                     const cuemu_vmm_prop *prop, unsigned long long flags) {
  int e = ready();
  if (e)
    return e;
  if (!handle || flags || size == 0 || !aligned(size))
    return fail(DRV_CUDA_ERROR_INVALID_VALUE,
                "cuMemCreate: %s", !handle ? "handle is NULL"
                : flags ? "flags must be 0"
                        : "size must be a non-zero multiple of the "
                          "granularity (cuMemGetAllocationGranularity: "
                          "2 MiB)");
  e = check_prop(prop, "cuMemCreate");
  if (e)
    return e;
  if (size > cuemu__device_model_of(prop->location.id)->total_memory)
    return fail(DRV_CUDA_ERROR_OUT_OF_MEMORY,
                "cuMemCreate: %zu bytes exceed the device's memory", size);
  /* The file's name carries the device, so that an import (in this
   * process or another) reports the allocation's own location. */
  char name[32];
  snprintf(name, sizeof name, MEMFD_PREFIX "%d", prop->location.id);
  int fd = memfd_create(name, MFD_CLOEXEC);
  if (fd < 0 || ftruncate(fd, (off_t)size) != 0) {
    if (fd >= 0)
      close(fd);
    return fail(DRV_CUDA_ERROR_OUT_OF_MEMORY,
                "cuMemCreate: no memory file of %zu bytes: %s", size,
                strerror(errno));
  }
  pthread_mutex_lock(&lock);
  phys *p = phys_new(fd, size, prop);
  if (!p)
    close(fd);
  else
    *handle = (uintptr_t)p;
  return end(p ? DRV_CUDA_SUCCESS : DRV_CUDA_ERROR_OUT_OF_MEMORY);
}

int cuemu_vmm_release(unsigned long long handle) {
  int e = begin();
  if (e)
    return e;
  phys *p = phys_of(handle);
  if (!p)
    return end(fail(DRV_CUDA_ERROR_INVALID_VALUE,
                    "cuMemRelease: %#llx is no live allocation handle",
                    handle));
  p->handles--;
  phys_drop(p);
  return end(DRV_CUDA_SUCCESS);
}

int cuemu_vmm_address_reserve(unsigned long long *ptr, size_t size,
                              size_t alignment, unsigned long long addr,
                              unsigned long long flags) {
  int e = ready();
  if (e)
    return e;
  if (alignment == 0)
    alignment = GRANULE;
  if (!ptr || flags || size == 0 || !aligned(size) ||
      (alignment & (alignment - 1)) || !aligned(alignment) ||
      !aligned((uintptr_t)addr))
    return fail(DRV_CUDA_ERROR_INVALID_VALUE,
                "cuMemAddressReserve: %s",
                !ptr    ? "ptr is NULL"
                : flags ? "flags must be 0"
                : !aligned(size) || size == 0
                    ? "size must be a non-zero multiple of the granularity "
                      "(2 MiB)"
                    : "alignment and addr must be multiples of the "
                      "granularity (2 MiB), alignment a power of two");
  char *base = MAP_FAILED;
  int flags_map = MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE;
  if (addr) /* the hint, taken only when the range is free */
    base = mmap((void *)(uintptr_t)addr, size, PROT_NONE,
                flags_map | MAP_FIXED_NOREPLACE, -1, 0);
  if (base == MAP_FAILED) {
    size_t over = size + alignment;
    char *m = over < size ? MAP_FAILED
                          : mmap(NULL, over, PROT_NONE, flags_map, -1, 0);
    if (m == MAP_FAILED)
      return fail(DRV_CUDA_ERROR_OUT_OF_MEMORY,
                  "cuMemAddressReserve: no %zu bytes of address space",
                  size);
    base = (char *)(((uintptr_t)m + alignment - 1) / alignment * alignment);
    if (base > m)
      munmap(m, (size_t)(base - m));
    if (m + over > base + size)
      munmap(base + size, (size_t)(m + over - (base + size)));
  }
  reservation *r = calloc(1, sizeof *r);
  if (!r) {
    munmap(base, size);
    return DRV_CUDA_ERROR_OUT_OF_MEMORY;
  }
  pthread_mutex_lock(&lock);
  *r = (reservation){base, size, NULL, 0, reservations};
  reservations = r;
  *ptr = (uintptr_t)base;
  return end(DRV_CUDA_SUCCESS);
}

int cuemu_vmm_address_free(unsigned long long ptr, size_t size) {
  int e = begin();
  if (e)
    return e;
  char *p = (char *)(uintptr_t)ptr;
  reservation **link = &reservations;
  while (*link && ((*link)->base != p || (*link)->size != size))
    link = &(*link)->next;
  if (!*link)
    return end(fail(DRV_CUDA_ERROR_INVALID_VALUE,
                    "cuMemAddressFree: %p+%zu is not a reservation of "
                    "cuMemAddressReserve (pointer and size as reserved)",
                    (void *)p, size));
  for (mapping *m = mappings; m; m = m->next)
    if (m->base >= p && m->base < p + size)
      return end(fail(DRV_CUDA_ERROR_INVALID_VALUE,
                      "cuMemAddressFree: %p+%zu still has a mapping at %p; "
                      "cuMemUnmap it first",
                      (void *)p, size, (void *)m->base));
  reservation *r = *link;
  *link = r->next;
  munmap(r->base, r->size);
  free(r->runs);
  free(r);
  return end(DRV_CUDA_SUCCESS);
}

int cuemu_vmm_map(unsigned long long ptr, size_t size, size_t offset,
                  unsigned long long handle, unsigned long long flags) {
  int e = begin();
  if (e)
    return e;
  char *p = (char *)(uintptr_t)ptr;
  phys *m = phys_of(handle);
  if (!m)
    return end(fail(DRV_CUDA_ERROR_INVALID_VALUE,
                    "cuMemMap: %#llx is no live allocation handle", handle));
  if (flags || size == 0 || !aligned(ptr) || !aligned(size) ||
      !aligned(offset))
    return end(fail(DRV_CUDA_ERROR_INVALID_VALUE,
                    "cuMemMap: %s", flags ? "flags must be 0"
                    : "ptr, size and offset must be multiples of the "
                      "granularity (2 MiB), size non-zero"));
  if (offset > m->size || size > m->size - offset)
    return end(fail(DRV_CUDA_ERROR_INVALID_VALUE,
                    "cuMemMap: offset %zu + size %zu exceed the %zu bytes of "
                    "the allocation",
                    offset, size, m->size));
  if (!reservation_of(p, size))
    return end(fail(DRV_CUDA_ERROR_INVALID_VALUE,
                    "cuMemMap: %p+%zu does not lie in one reservation of "
                    "cuMemAddressReserve",
                    (void *)p, size));
  for (mapping *o = mappings; o; o = o->next)
    if (o->base < p + size && p < o->base + o->size)
      return end(fail(DRV_CUDA_ERROR_INVALID_VALUE,
                      "cuMemMap: %p+%zu overlaps the mapping at %p+%zu",
                      (void *)p, size, (void *)o->base, o->size));
  mapping *n = calloc(1, sizeof *n);
  unsigned char *access = calloc(size / GRANULE, MAX_DEVICES);
  /* Mapped without access until cuMemSetAccess, as on a GPU. */
  if (!n || !access ||
      cuemu__access_limits_set(p, size, GRANULE, access) != 0 ||
      mmap(p, size, PROT_NONE, MAP_SHARED | MAP_FIXED, m->fd,
           (off_t)offset) == MAP_FAILED) {
    if (n && access)
      cuemu__access_limits_clear(p);
    free(access);
    free(n);
    return end(fail(DRV_CUDA_ERROR_OUT_OF_MEMORY,
                    "cuMemMap: the memory cannot be mapped: %s",
                    strerror(errno)));
  }
  n->base = p;
  n->size = size;
  n->memory = m;
  n->access = access;
  n->next = mappings;
  mappings = n;
  m->maps++;
  if (!retrack(reservation_of(p, size))) {
    mappings = n->next;
    mmap(p, size, PROT_NONE,
         MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0);
    mapping_free(n);
    retrack(reservation_of(p, size));
    return end(DRV_CUDA_ERROR_OUT_OF_MEMORY);
  }
  return end(DRV_CUDA_SUCCESS);
}

int cuemu_vmm_unmap(unsigned long long ptr, size_t size) {
  int e = begin();
  if (e)
    return e;
  char *p = (char *)(uintptr_t)ptr;
  if (!whole_mappings(p, size))
    return end(fail(DRV_CUDA_ERROR_INVALID_VALUE,
                    "cuMemUnmap: %p+%zu is not made of whole mappings of "
                    "cuMemMap (a part of a mapping cannot be unmapped)",
                    (void *)p, size));
  for (mapping **link = &mappings; *link;) {
    mapping *m = *link;
    if (m->base < p || m->base >= p + size) {
      link = &m->next;
      continue;
    }
    *link = m->next;
    /* The range goes back to the reservation, without access; the table
     * remembers it as freed, so that a late use is told as one. */
    mmap(m->base, m->size, PROT_NONE,
         MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0);
    phys *memory = m->memory;
    mapping_free(m);
    phys_drop(memory);
  }
  retrack(reservation_of(p, size));
  return end(DRV_CUDA_SUCCESS);
}

/* The protection of the granule of `m` at `p`: the widest access of any
 * device (the emulated devices share one address space; memcheck tells a
 * device's access without its own, core/cuemu_access_limits.h). */
static int protection(const mapping *m, const char *p) {
  int widest = ACCESS_NONE;
  for (int d = 0; d < MAX_DEVICES; ++d)
    widest |= *access_at(m, p, d);
  return widest == ACCESS_READWRITE ? PROT_READ | PROT_WRITE
         : widest == ACCESS_READ    ? PROT_READ
                                    : PROT_NONE;
}

int cuemu_vmm_set_access(unsigned long long ptr, size_t size,
                         const cuemu_vmm_access *desc, size_t count) {
  int e = begin();
  if (e)
    return e;
  char *p = (char *)(uintptr_t)ptr;
  if (!desc || count == 0)
    return end(fail(DRV_CUDA_ERROR_INVALID_VALUE,
                    "cuMemSetAccess: no access descriptors"));
  for (size_t i = 0; i < count; ++i) {
    int f = desc[i].flags;
    if (!device_location(desc[i].location.type, desc[i].location.id))
      return end(fail(DRV_CUDA_ERROR_INVALID_DEVICE,
                      "cuMemSetAccess: descriptor %zu: location {type %d, id "
                      "%d} is no device",
                      i, desc[i].location.type, desc[i].location.id));
    if (f != ACCESS_NONE && f != ACCESS_READ && f != ACCESS_READWRITE)
      return end(fail(DRV_CUDA_ERROR_INVALID_VALUE,
                      "cuMemSetAccess: descriptor %zu: flags %d are no "
                      "CUmemAccess_flags",
                      i, f));
  }
  if (size == 0 || !aligned(ptr) || !aligned(size))
    return end(fail(DRV_CUDA_ERROR_INVALID_VALUE,
                    "cuMemSetAccess: %p+%zu: ptr and size must be multiples "
                    "of the granularity (2 MiB), size non-zero",
                    (void *)p, size));
  /* CUDA's rule: the range must be fully mapped; it may cover parts of
   * mappings and several of them. */
  for (char *at = p; at < p + size; at += GRANULE)
    if (!mapping_of(at))
      return end(fail(DRV_CUDA_ERROR_INVALID_VALUE,
                      "cuMemSetAccess: %p (in %p+%zu) is not mapped",
                      (void *)at, (void *)p, size));
  for (char *at = p; at < p + size; at += GRANULE) {
    mapping *m = mapping_of(at);
    for (size_t i = 0; i < count; ++i)
      *access_at(m, at, desc[i].location.id) = (unsigned char)desc[i].flags;
    mprotect(at, GRANULE, protection(m, at));
    /* The mapping's access as a whole, once its last granule here is set. */
    if (at + GRANULE == m->base + m->size || at + GRANULE == p + size)
      if (cuemu__access_limits_set(m->base, m->size, GRANULE, m->access) != 0)
        return end(fail(DRV_CUDA_ERROR_OUT_OF_MEMORY,
                        "cuMemSetAccess: no memory"));
  }
  return end(DRV_CUDA_SUCCESS);
}

int cuemu_vmm_get_access(unsigned long long *flags, const void *location,
                         unsigned long long ptr) {
  int e = begin();
  if (e)
    return e;
  int where[2] = {0, -1};
  if (location)
    memcpy(where, location, sizeof where);
  mapping *m = mapping_of((const char *)(uintptr_t)ptr);
  if (!flags || !location || !m)
    return end(fail(DRV_CUDA_ERROR_INVALID_VALUE, "cuMemGetAccess: %s",
                    !m ? "the address is not mapped by cuMemMap"
                       : "flags or location is NULL"));
  if (!device_location(where[0], where[1]))
    return end(fail(DRV_CUDA_ERROR_INVALID_DEVICE,
                    "cuMemGetAccess: location {type %d, id %d} is no device",
                    where[0], where[1]));
  *flags = *access_at(m, (const char *)(uintptr_t)ptr, where[1]);
  return end(DRV_CUDA_SUCCESS);
}

int cuemu_vmm_export(void *shareable, unsigned long long handle,
                     int handle_type, unsigned long long flags) {
  int e = begin();
  if (e)
    return e;
  phys *p = phys_of(handle);
  if (!p || !shareable || flags)
    return end(fail(DRV_CUDA_ERROR_INVALID_VALUE,
                    "cuMemExportToShareableHandle: %s",
                    !p ? "no live allocation handle"
                    : flags ? "flags must be 0"
                            : "shareableHandle is NULL"));
  if (handle_type != HANDLE_POSIX_FD)
    return end(fail(DRV_CUDA_ERROR_NOT_SUPPORTED,
                    "cuMemExportToShareableHandle: handle type %d: only "
                    "CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR is supported on "
                    "Linux",
                    handle_type));
  if (!(p->prop.requested_handle_types & HANDLE_POSIX_FD))
    return end(fail(DRV_CUDA_ERROR_INVALID_VALUE,
                    "cuMemExportToShareableHandle: the allocation was made "
                    "without CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR in "
                    "requestedHandleTypes"));
  int fd = dup(p->fd);
  if (fd < 0)
    return end(fail(DRV_CUDA_ERROR_OUT_OF_MEMORY,
                    "cuMemExportToShareableHandle: %s", strerror(errno)));
  *(int *)shareable = fd;
  return end(DRV_CUDA_SUCCESS);
}

int cuemu_vmm_import(unsigned long long *handle, void *shareable,
                     int handle_type) {
  int e = begin();
  if (e)
    return e;
  if (handle_type != HANDLE_POSIX_FD)
    return end(fail(handle_type & HANDLE_ALL ? DRV_CUDA_ERROR_NOT_SUPPORTED
                                              : DRV_CUDA_ERROR_INVALID_VALUE,
                    "cuMemImportFromShareableHandle: handle type %d: only "
                    "CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR is supported on "
                    "Linux",
                    handle_type));
  int fd = (int)(intptr_t)shareable;
  struct stat st;
  if (!handle || fd < 0 || fstat(fd, &st) != 0 || st.st_size <= 0 ||
      !aligned((uintptr_t)st.st_size))
    return end(fail(DRV_CUDA_ERROR_INVALID_VALUE,
                    "cuMemImportFromShareableHandle: %s",
                    !handle ? "handle is NULL"
                            : "the descriptor is no exported allocation of "
                              "cuMemExportToShareableHandle"));
  int own = fcntl(fd, F_DUPFD_CLOEXEC, 0);
  cuemu_vmm_prop prop;
  memset(&prop, 0, sizeof prop);
  prop.type = ALLOCATION_PINNED;
  prop.requested_handle_types = HANDLE_POSIX_FD;
  prop.location.type = LOCATION_DEVICE;
  prop.location.id = device_of_file(fd, cuemu__device_current());
  phys *p = own < 0 ? NULL : phys_new(own, (size_t)st.st_size, &prop);
  if (!p) {
    if (own >= 0)
      close(own);
    return end(DRV_CUDA_ERROR_OUT_OF_MEMORY);
  }
  *handle = (uintptr_t)p;
  return end(DRV_CUDA_SUCCESS);
}

int cuemu_vmm_retain(unsigned long long *handle, const void *addr) {
  int e = begin();
  if (e)
    return e;
  mapping *m = mapping_of(addr);
  if (!handle || !m)
    return end(fail(DRV_CUDA_ERROR_INVALID_VALUE,
                    "cuMemRetainAllocationHandle: %s",
                    handle ? "the address is not mapped by cuMemMap"
                           : "handle is NULL"));
  m->memory->handles++;
  *handle = (uintptr_t)m->memory;
  return end(DRV_CUDA_SUCCESS);
}

int cuemu_vmm_properties(cuemu_vmm_prop *prop, unsigned long long handle) {
  int e = begin();
  if (e)
    return e;
  phys *p = phys_of(handle);
  if (!prop || !p)
    return end(fail(DRV_CUDA_ERROR_INVALID_VALUE,
                    "cuMemGetAllocationPropertiesFromHandle: %s",
                    prop ? "no live allocation handle" : "prop is NULL"));
  *prop = p->prop;
  return end(DRV_CUDA_SUCCESS);
}

int cuemu_vmm_map_array(const void *list, unsigned count,
                        const void *stream) {
  (void)list;
  (void)count;
  (void)stream;
  int e = ready();
  return e ? e
           : fail(DRV_CUDA_ERROR_NOT_SUPPORTED,
                  "cuMemMapArrayAsync: sparse CUDA arrays are not supported "
                  "by cuemu (CU_DEVICE_ATTRIBUTE_SPARSE_CUDA_ARRAY_SUPPORTED "
                  "is 0)");
}

int cuemu__vmm_owns(const void *ptr) {
  pthread_mutex_lock(&lock);
  int owned = ptr && (mapping_of(ptr) || reservation_of(ptr, 1));
  pthread_mutex_unlock(&lock);
  return owned;
}

void cuemu__vmm_reset(int device) {
  pthread_mutex_lock(&lock);
  for (mapping **link = &mappings; *link;) {
    mapping *m = *link;
    if (device >= 0 && m->memory->prop.location.id != device) {
      link = &m->next;
      continue;
    }
    *link = m->next;
    mmap(m->base, m->size, PROT_NONE,
         MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0);
    mapping_free(m);
  }
  for (phys *p = allocations, *next; p; p = next) {
    next = p->next;
    if (device < 0 || p->prop.location.id == device) {
      p->handles = 0;
      phys_drop(p);
    }
  }
  for (reservation *r = reservations; r; r = r->next)
    retrack(r);
  pthread_mutex_unlock(&lock);
}
