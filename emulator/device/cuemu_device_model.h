/*
 * cuemu_device_model.h: the emulated devices: each one's limits, SM model
 * and compute capability, from CUEMU_DEVICE and CUEMU_SM_COUNT
 * (base/cuemu_config.h). Every reader of a device limit (launch checks,
 * cudaGetDeviceProperties, cudaDeviceGetAttribute, function attributes,
 * occupancy, cooperative launches, Python) reads it here. Internal to
 * libcuemu; host code, any thread.
 */
#ifndef CUEMU_DEVICE_MODEL_H
#define CUEMU_DEVICE_MODEL_H

#include <stddef.h>

/* The emulated device, an H100-like part whatever the compute capability
 * (the emulator enforces the per-block limits). */
typedef struct cuemu_device_model {
  int major, minor;                /* compute capability */
  unsigned sms;                    /* multiprocessors */
  size_t total_memory;             /* bytes of global memory */
  unsigned max_threads_per_block;
  unsigned max_block_dim[3];
  unsigned max_grid_dim[3];
  size_t shared_per_block;         /* static + dynamic without opting in */
  size_t shared_per_block_optin;   /* the most a kernel may opt in to */
  size_t shared_per_sm;
  size_t reserved_shared_per_block;
  unsigned threads_per_sm;
  unsigned blocks_per_sm;
  unsigned regs_per_block, regs_per_sm;
  size_t const_memory;
  size_t l2_cache;
  unsigned memory_bus_width;
  unsigned clock_khz, memory_clock_khz;
  unsigned warp_size;
  size_t persisting_l2_max;        /* bytes of L2 that may persist */
  size_t access_policy_max_window; /* bytes of an access-policy window */
  unsigned sync_domains;           /* memory synchronization domains */
  unsigned max_cluster_portable;   /* blocks per cluster, portable */
  unsigned max_cluster_nonportable;
} cuemu_device_model;

/* The calling thread's current device (the settings are read once). */
const cuemu_device_model *cuemu__device_model(void);

/* Device `device` (0 to cuemu__device_count() - 1). */
const cuemu_device_model *cuemu__device_model_of(int device);

/* How many blocks of `nthreads` threads using `shared` bytes of shared
 * memory (static and dynamic) one SM holds at once: the residency rule of
 * occupancy and cooperative launches. 0 when none fits. */
unsigned cuemu__device_blocks_per_sm(unsigned nthreads, size_t shared);

/* The devices: CUEMU_DEVICE's count (1 unless count=N), alike unless
 * CUEMU_DEVICE gives one its own keys (N:key=value), and with their own
 * names and UUIDs. Each host thread has a current device
 * (cudaSetDevice, or the device of the driver API's current context), 0
 * until it selects another (kernel code: the device of its grid); launches, allocations, streams, events and the
 * sticky error belong to the current device. */
int cuemu__device_count(void);
int cuemu__device_current(void);
/* Makes `device` (0 to cuemu__device_count() - 1, unchecked) the calling
 * thread's current device. */
void cuemu__device_select(int device);
/* The device of host threads that have selected none (cudaSetValidDevices:
 * the first of its list; 0 by default). */
void cuemu__device_set_default(int device);

/* Peer access (cudaDeviceEnablePeerAccess): non-zero when kernels of
 * `device` may touch the memory of `peer`; setting returns the previous
 * state. Devices are unchecked. */
int cuemu__device_peer_enabled(int device, int peer);
int cuemu__device_peer_set(int device, int peer, int enabled);
/* cudaDeviceReset: the device's context goes, and with it the peer access
 * it gave and was given (a new context has none). */
void cuemu__device_peer_forget(int device);

/* The bytes of memory the host has free now (cudaMemGetInfo), at most the
 * device's total. */
size_t cuemu__device_free_memory(void);

#endif /* CUEMU_DEVICE_MODEL_H */
