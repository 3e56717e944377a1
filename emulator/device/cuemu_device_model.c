/*
 * cuemu_device_model.c: the emulated devices (see cuemu_device_model.h)
 * and cuemu_device_get_property() of the public API.
 */
#include "device/cuemu_device_model.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cuemu/cuemu.h>
#include <cuemu/cuemu_device.h>

#include "base/cuemu_config.h"
#include "base/cuemu_report.h"
#include "core/cuemu_core.h"
#include "device/cuemu_child_grids.h"

static cuemu_device_model models[CUEMU_MAX_DEVICES];
static pthread_once_t model_once = PTHREAD_ONCE_INIT;

/* The host's physical memory, or 16 GiB when it cannot be read. */
static size_t host_memory(void) {
  long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || size <= 0)
    return (size_t)16 << 30;
  return (size_t)pages * (size_t)size;
}

/* The model of one device from its settings. */
static void build_one(cuemu_device_model *m, const cuemu_device_config *c) {
  m->major = c->major;
  m->minor = c->minor;
  m->sms = c->sms;
  m->total_memory = c->memory ? c->memory : host_memory();
  m->max_threads_per_block = c->max_threads;
  m->max_block_dim[0] = c->max_threads < CUEMU_MAX_BLOCK_DIM_X
                               ? c->max_threads
                               : CUEMU_MAX_BLOCK_DIM_X;
  m->max_block_dim[1] = c->max_threads < CUEMU_MAX_BLOCK_DIM_Y
                               ? c->max_threads
                               : CUEMU_MAX_BLOCK_DIM_Y;
  m->max_block_dim[2] = CUEMU_MAX_BLOCK_DIM_Z;
  m->max_grid_dim[0] = CUEMU_MAX_GRID_DIM_X;
  m->max_grid_dim[1] = CUEMU_MAX_GRID_DIM_Y;
  m->max_grid_dim[2] = CUEMU_MAX_GRID_DIM_Z;
  m->shared_per_block = CUEMU_DEFAULT_DYNAMIC_SHARED;
  m->shared_per_block_optin = c->shared_optin;
  m->shared_per_sm = 228 * 1024;
  m->reserved_shared_per_block = 1024;
  m->threads_per_sm = 2048;
  m->blocks_per_sm = 32;
  m->regs_per_block = 65536;
  m->regs_per_sm = 65536;
  m->const_memory = 64 * 1024;
  m->l2_cache = 50 * 1024 * 1024;
  m->memory_bus_width = 5120;
  m->clock_khz = 1755000;
  m->memory_clock_khz = 2619000;
  m->warp_size = 32;
  /* As an H100: three quarters of the L2 may persist, a window spans at
   * most 128 MiB less a page, four sync domains, clusters of 8 blocks (16
   * where a kernel allows it). */
  m->persisting_l2_max = m->l2_cache / 4 * 3;
  m->access_policy_max_window = 134213632;
  m->sync_domains = 4;
  m->max_cluster_portable = 8;
  m->max_cluster_nonportable = 16;
}

static void build(void) {
  for (int d = 0; d < CUEMU_MAX_DEVICES; ++d)
    build_one(&models[d], cuemu__config_device_of(d));
}

const cuemu_device_model *cuemu__device_model_of(int device) {
  pthread_once(&model_once, build);
  if (device < 0 || device >= CUEMU_MAX_DEVICES)
    device = 0;
  return &models[device];
}

const cuemu_device_model *cuemu__device_model(void) {
  return cuemu__device_model_of(cuemu__device_current());
}

int cuemu__device_count(void) { return (int)cuemu__config_device()->count; }

/* The host thread's device, -1 until it selects one: then the default
 * device (cudaSetValidDevices). */
static __thread int current_device = -1;
static int default_device;

int cuemu__device_current(void) {
  /* Kernel code runs on the device of its grid. */
  if (cuemu_thread_in_kernel()) {
    const cuemu_grid_children *grid = cuemu__core_grid_context();
    if (grid)
      return grid->device;
  }
  return current_device >= 0 ? current_device
                             : __atomic_load_n(&default_device, __ATOMIC_RELAXED);
}

void cuemu__device_set_default(int device) {
  __atomic_store_n(&default_device, device, __ATOMIC_RELAXED);
}

void cuemu__device_select(int device) { current_device = device; }

/* peer[d][p]: device d may touch device p's memory. */
static unsigned char peer[CUEMU_MAX_DEVICES][CUEMU_MAX_DEVICES];

int cuemu__device_peer_enabled(int device, int peer_device) {
  return device == peer_device ||
         __atomic_load_n(&peer[device][peer_device], __ATOMIC_RELAXED);
}

int cuemu__device_peer_set(int device, int peer_device, int enabled) {
  return __atomic_exchange_n(&peer[device][peer_device],
                             (unsigned char)(enabled != 0), __ATOMIC_SEQ_CST);
}

void cuemu__device_peer_forget(int device) {
  for (int d = 0; d < CUEMU_MAX_DEVICES; ++d) {
    __atomic_store_n(&peer[device][d], (unsigned char)0, __ATOMIC_SEQ_CST);
    __atomic_store_n(&peer[d][device], (unsigned char)0, __ATOMIC_SEQ_CST);
  }
}

unsigned cuemu__device_blocks_per_sm(unsigned nthreads, size_t shared) {
  const cuemu_device_model *m = cuemu__device_model();
  if (nthreads == 0 || nthreads > m->max_threads_per_block)
    return 0;
  unsigned warps = (nthreads + m->warp_size - 1) / m->warp_size;
  unsigned n = m->threads_per_sm / (warps * m->warp_size);
  if (n > m->blocks_per_sm)
    n = m->blocks_per_sm;
  if (shared && m->shared_per_sm / shared < n)
    n = (unsigned)(m->shared_per_sm / shared);
  return n;
}

size_t cuemu__device_free_memory(void) {
  const cuemu_device_model *m = cuemu__device_model();
  if (cuemu__config_device_of(cuemu__device_current())->memory)
    return m->total_memory;
  long pages = sysconf(_SC_AVPHYS_PAGES), size = sysconf(_SC_PAGESIZE);
  if (pages > 0 && size > 0 && (size_t)pages * (size_t)size < m->total_memory)
    return (size_t)pages * (size_t)size;
  return m->total_memory;
}

cuemu_status cuemu_device_get_property(const char *name, long long *value) {
  if (!name || !value)
    return cuemu__report(CUEMU_INVALID_VALUE,
                         "cuemu_device_get_property: name and value must not "
                         "be NULL");
  const cuemu_device_model *m = cuemu__device_model();
  /* cudaDeviceProp's field names; arrays by element. */
  const struct {
    const char *name;
    long long value;
  } table[] = {
      {"major", m->major},
      {"minor", m->minor},
      {"multiProcessorCount", m->sms},
      {"totalGlobalMem", (long long)m->total_memory},
      {"maxThreadsPerBlock", m->max_threads_per_block},
      {"maxThreadsDim[0]", m->max_block_dim[0]},
      {"maxThreadsDim[1]", m->max_block_dim[1]},
      {"maxThreadsDim[2]", m->max_block_dim[2]},
      {"maxGridSize[0]", m->max_grid_dim[0]},
      {"maxGridSize[1]", m->max_grid_dim[1]},
      {"maxGridSize[2]", m->max_grid_dim[2]},
      {"sharedMemPerBlock", (long long)m->shared_per_block},
      {"sharedMemPerBlockOptin", (long long)m->shared_per_block_optin},
      {"sharedMemPerMultiprocessor", (long long)m->shared_per_sm},
      {"reservedSharedMemPerBlock", (long long)m->reserved_shared_per_block},
      {"maxThreadsPerMultiProcessor", m->threads_per_sm},
      {"maxBlocksPerMultiProcessor", m->blocks_per_sm},
      {"regsPerBlock", m->regs_per_block},
      {"regsPerMultiprocessor", m->regs_per_sm},
      {"totalConstMem", (long long)m->const_memory},
      {"l2CacheSize", (long long)m->l2_cache},
      {"memoryBusWidth", m->memory_bus_width},
      {"clockRate", m->clock_khz},
      {"memoryClockRate", m->memory_clock_khz},
      {"warpSize", m->warp_size},
  };
  for (size_t i = 0; i < sizeof table / sizeof table[0]; ++i)
    if (strcmp(table[i].name, name) == 0) {
      *value = table[i].value;
      return CUEMU_SUCCESS;
    }
  return cuemu__report(CUEMU_INVALID_VALUE,
                       "cuemu_device_get_property: no property named '%s'",
                       name);
}
