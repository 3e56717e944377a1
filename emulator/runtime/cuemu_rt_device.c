/*
 * cuemu_rt_device.c: device management of the runtime API: one emulated
 * device, described by cudaGetDeviceProperties and cudaDeviceGetAttribute
 * (see cuemu_runtime.h for CUEMU_DEVICE), the device flags, the versions,
 * cudaMemGetInfo, cudaDeviceReset and the profiler calls.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cuemu/cuemu.h>
#include <cuemu/cuemu_runtime.h>

#include "runtime/cuemu_rt_internal.h"

/* The CUDA version the runtime API follows (CUDART_VERSION). */
#define CUEMU_RT_CUDA_VERSION 13000

#define CUEMU_RT_DEFAULT_SM 90
#define CUEMU_RT_DEFAULT_SMS 8u

/* The configuration of the emulated device, read once. */
typedef struct device_config {
  int major, minor;
  unsigned sms;
  size_t mem; /* 0: the host's memory */
  unsigned threads;     /* most threads per block */
  size_t shared_optin;  /* most dynamic shared memory per block, opted in */
} device_config;

static device_config config;
static pthread_once_t config_once = PTHREAD_ONCE_INIT;

/* Parses an unsigned decimal number in [lo, hi] from [s, e); 0 on error. */
static int parse_number(const char *s, const char *e, unsigned long lo,
                        unsigned long hi, unsigned long *out) {
  if (s == e)
    return 0;
  unsigned long n = 0;
  for (; s < e; ++s) {
    if (*s < '0' || *s > '9' || n > hi)
      return 0;
    n = n * 10 + (unsigned long)(*s - '0');
  }
  if (n < lo || n > hi)
    return 0;
  *out = n;
  return 1;
}

static void read_config(void) {
  config.major = CUEMU_RT_DEFAULT_SM / 10;
  config.minor = CUEMU_RT_DEFAULT_SM % 10;
  config.sms = CUEMU_RT_DEFAULT_SMS;
  config.threads = CUEMU_MAX_THREADS_PER_BLOCK;
  config.shared_optin = CUEMU_MAX_DYNAMIC_SHARED_OPTIN;
  unsigned long n;
  const char *v = getenv("CUEMU_SM_COUNT");
  if (v && *v && parse_number(v, v + strlen(v), 1, 1024, &n))
    config.sms = (unsigned)n;
  v = getenv("CUEMU_DEVICE");
  if (!v)
    return;
  /* A comma-separated list of key=value; an item that is not understood is
   * reported and ignored. */
  while (*v) {
    const char *end = strchr(v, ',');
    if (!end)
      end = v + strlen(v);
    const char *eq = memchr(v, '=', (size_t)(end - v));
    int ok = 0;
    if (eq) {
      size_t key = (size_t)(eq - v);
      if (key == 2 && !strncmp(v, "sm", 2) &&
          parse_number(eq + 1, end, 10, 199, &n)) {
        config.major = (int)(n / 10);
        config.minor = (int)(n % 10);
        ok = 1;
      } else if (key == 3 && !strncmp(v, "sms", 3) &&
                 parse_number(eq + 1, end, 1, 1024, &n)) {
        config.sms = (unsigned)n;
        ok = 1;
      } else if (key == 3 && !strncmp(v, "mem", 3) &&
                 parse_number(eq + 1, end, 1, 1ul << 24, &n)) {
        config.mem = (size_t)n << 20;
        ok = 1;
      } else if (key == 7 && !strncmp(v, "threads", 7) &&
                 parse_number(eq + 1, end, 32, CUEMU_MAX_THREADS_PER_BLOCK,
                              &n)) {
        config.threads = (unsigned)n;
        ok = 1;
      } else if (key == 4 && !strncmp(v, "smem", 4) &&
                 parse_number(eq + 1, end, 1,
                              CUEMU_MAX_DYNAMIC_SHARED_OPTIN / 1024, &n)) {
        config.shared_optin = (size_t)n * 1024;
        ok = 1;
      }
    }
    if (!ok && end > v)
      fprintf(stderr, "cuemu: CUEMU_DEVICE: ignored \"%.*s\" (keys: sm=90, "
                      "sms=8, mem=MiB, threads=1024, smem=KiB up to 227)\n",
              (int)(end - v), v);
    v = *end ? end + 1 : end;
  }
}

static const device_config *get_config(void) {
  pthread_once(&config_once, read_config);
  return &config;
}

unsigned cuemu_rt_sm_count(void) { return get_config()->sms; }

unsigned cuemu_rt_max_threads_per_block(void) {
  return get_config()->threads;
}

size_t cuemu_rt_max_shared_optin(void) { return get_config()->shared_optin; }

/* The host's physical memory, or CUEMU_DEVICE's mem. */
static size_t total_memory(void) {
  if (get_config()->mem)
    return get_config()->mem;
  long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || size <= 0)
    return (size_t)16 << 30;
  return (size_t)pages * (size_t)size;
}

int cuemu_rt_get_device_count(int *count) {
  if (!count)
    return cuemu_rt_error(cudaErrorInvalidValue);
  *count = 1;
  return cudaSuccess;
}

int cuemu_rt_set_device(int device) {
  if (device != 0)
    return cuemu_rt_error(cudaErrorInvalidDevice);
  return cuemu__rt_check_sticky();
}

int cuemu_rt_get_device(int *device) {
  if (!device)
    return cuemu_rt_error(cudaErrorInvalidValue);
  *device = 0;
  return cudaSuccess;
}

static unsigned device_flags;

int cuemu_rt_set_device_flags(unsigned flags) {
  unsigned schedule = flags & cudaDeviceScheduleMask;
  if ((flags & ~(unsigned)cudaDeviceMask) ||
      (schedule != cudaDeviceScheduleAuto &&
       schedule != cudaDeviceScheduleSpin &&
       schedule != cudaDeviceScheduleYield &&
       schedule != cudaDeviceScheduleBlockingSync))
    return cuemu_rt_error(cudaErrorInvalidValue);
  int sticky = cuemu__rt_check_sticky();
  if (sticky)
    return sticky;
  __atomic_store_n(&device_flags, flags, __ATOMIC_RELAXED);
  return cudaSuccess;
}

int cuemu_rt_get_device_flags(unsigned *flags) {
  if (!flags)
    return cuemu_rt_error(cudaErrorInvalidValue);
  /* Mapped pinned memory is always supported, so CUDA reports MapHost. */
  *flags = __atomic_load_n(&device_flags, __ATOMIC_RELAXED) | cudaDeviceMapHost;
  return cudaSuccess;
}

int cuemu_rt_device_reset(void) {
  cuemu__rt_memory_reset();
  __atomic_store_n(&device_flags, 0u, __ATOMIC_RELAXED);
  cuemu__rt_error_reset();
  return cudaSuccess;
}

int cuemu_rt_device_synchronize(void) { return cuemu__rt_check_sticky(); }

/* The limits of the emulated device: an H100-like device whatever the
 * compute capability (the emulator enforces the per-block ones). */
#define CUEMU_RT_SHARED_PER_BLOCK 49152
#define CUEMU_RT_SHARED_PER_SM (228 * 1024)
#define CUEMU_RT_THREADS_PER_SM 2048
#define CUEMU_RT_BLOCKS_PER_SM 32
#define CUEMU_RT_REGS 65536
#define CUEMU_RT_CONST (64 * 1024)
#define CUEMU_RT_L2 (50 * 1024 * 1024)
#define CUEMU_RT_BUS_WIDTH 5120
#define CUEMU_RT_CLOCK_KHZ 1755000
#define CUEMU_RT_MEMORY_CLOCK_KHZ 2619000

int cuemu_rt_get_device_properties(struct cudaDeviceProp *p, int device) {
  if (!p)
    return cuemu_rt_error(cudaErrorInvalidValue);
  if (device != 0)
    return cuemu_rt_error(cudaErrorInvalidDevice);
  const device_config *c = get_config();
  memset(p, 0, sizeof *p);
  snprintf(p->name, sizeof p->name, "cuemu emulated device (sm_%d%d)",
           c->major, c->minor);
  memcpy(p->uuid.bytes, "cuemu-device-000", 16);
  p->totalGlobalMem = total_memory();
  p->sharedMemPerBlock = CUEMU_RT_SHARED_PER_BLOCK;
  p->regsPerBlock = CUEMU_RT_REGS;
  p->warpSize = 32;
  p->memPitch = 2147483647;
  p->maxThreadsPerBlock = (int)c->threads;
  p->maxThreadsDim[0] = (int)c->threads;
  p->maxThreadsDim[1] = (int)c->threads;
  p->maxThreadsDim[2] = 64;
  p->maxGridSize[0] = 2147483647;
  p->maxGridSize[1] = 65535;
  p->maxGridSize[2] = 65535;
  p->totalConstMem = CUEMU_RT_CONST;
  p->major = c->major;
  p->minor = c->minor;
  p->textureAlignment = 512;
  p->texturePitchAlignment = 32;
  p->multiProcessorCount = (int)c->sms;
  p->canMapHostMemory = 1;
  p->surfaceAlignment = 512;
  p->concurrentKernels = 1;
  p->asyncEngineCount = 2;
  p->unifiedAddressing = 1;
  p->memoryBusWidth = CUEMU_RT_BUS_WIDTH;
  p->l2CacheSize = CUEMU_RT_L2;
  p->maxThreadsPerMultiProcessor = CUEMU_RT_THREADS_PER_SM;
  p->streamPrioritiesSupported = 1;
  p->globalL1CacheSupported = 1;
  p->localL1CacheSupported = 1;
  p->sharedMemPerMultiprocessor = CUEMU_RT_SHARED_PER_SM;
  p->regsPerMultiprocessor = CUEMU_RT_REGS;
  p->managedMemory = 1;
  p->pageableMemoryAccess = 1;
  p->concurrentManagedAccess = 1;
  p->computePreemptionSupported = 1;
  p->canUseHostPointerForRegisteredMem = 1;
  p->cooperativeLaunch = 1;
  p->sharedMemPerBlockOptin = c->shared_optin;
  p->pageableMemoryAccessUsesHostPageTables = 1;
  p->directManagedMemAccessFromHost = 1;
  p->maxBlocksPerMultiProcessor = CUEMU_RT_BLOCKS_PER_SM;
  p->reservedSharedMemPerBlock = 1024;
  p->hostRegisterSupported = 1;
  p->hostRegisterReadOnlySupported = 1;
  p->deviceNumaId = -1;
  p->hostNumaId = -1;
  return cudaSuccess;
}

int cuemu_rt_device_get_attribute(int *value, int attr, int device) {
  if (!value)
    return cuemu_rt_error(cudaErrorInvalidValue);
  if (device != 0)
    return cuemu_rt_error(cudaErrorInvalidDevice);
  struct cudaDeviceProp p;
  cuemu_rt_get_device_properties(&p, 0);
  int v;
  switch (attr) {
  case cudaDevAttrMaxThreadsPerBlock: v = p.maxThreadsPerBlock; break;
  case cudaDevAttrMaxBlockDimX: v = p.maxThreadsDim[0]; break;
  case cudaDevAttrMaxBlockDimY: v = p.maxThreadsDim[1]; break;
  case cudaDevAttrMaxBlockDimZ: v = p.maxThreadsDim[2]; break;
  case cudaDevAttrMaxGridDimX: v = p.maxGridSize[0]; break;
  case cudaDevAttrMaxGridDimY: v = p.maxGridSize[1]; break;
  case cudaDevAttrMaxGridDimZ: v = p.maxGridSize[2]; break;
  case cudaDevAttrMaxSharedMemoryPerBlock: v = (int)p.sharedMemPerBlock; break;
  case cudaDevAttrTotalConstantMemory: v = (int)p.totalConstMem; break;
  case cudaDevAttrWarpSize: v = p.warpSize; break;
  case cudaDevAttrMaxPitch: v = (int)p.memPitch; break;
  case cudaDevAttrMaxRegistersPerBlock: v = p.regsPerBlock; break;
  case cudaDevAttrClockRate: v = CUEMU_RT_CLOCK_KHZ; break;
  case cudaDevAttrTextureAlignment: v = (int)p.textureAlignment; break;
  case cudaDevAttrGpuOverlap: v = 1; break;
  case cudaDevAttrMultiProcessorCount: v = p.multiProcessorCount; break;
  case cudaDevAttrKernelExecTimeout: v = 0; break;
  case cudaDevAttrIntegrated: v = p.integrated; break;
  case cudaDevAttrCanMapHostMemory: v = p.canMapHostMemory; break;
  case cudaDevAttrComputeMode: v = cudaComputeModeDefault; break;
  case cudaDevAttrSurfaceAlignment: v = (int)p.surfaceAlignment; break;
  case cudaDevAttrConcurrentKernels: v = p.concurrentKernels; break;
  case cudaDevAttrEccEnabled: v = p.ECCEnabled; break;
  case cudaDevAttrPciBusId: v = p.pciBusID; break;
  case cudaDevAttrPciDeviceId: v = p.pciDeviceID; break;
  case cudaDevAttrPciDomainId: v = p.pciDomainID; break;
  case cudaDevAttrTccDriver: v = p.tccDriver; break;
  case cudaDevAttrMemoryClockRate: v = CUEMU_RT_MEMORY_CLOCK_KHZ; break;
  case cudaDevAttrGlobalMemoryBusWidth: v = p.memoryBusWidth; break;
  case cudaDevAttrL2CacheSize: v = p.l2CacheSize; break;
  case cudaDevAttrMaxThreadsPerMultiProcessor:
    v = p.maxThreadsPerMultiProcessor;
    break;
  case cudaDevAttrAsyncEngineCount: v = p.asyncEngineCount; break;
  case cudaDevAttrUnifiedAddressing: v = p.unifiedAddressing; break;
  case cudaDevAttrTexturePitchAlignment:
    v = (int)p.texturePitchAlignment;
    break;
  case cudaDevAttrComputeCapabilityMajor: v = p.major; break;
  case cudaDevAttrComputeCapabilityMinor: v = p.minor; break;
  case cudaDevAttrStreamPrioritiesSupported:
    v = p.streamPrioritiesSupported;
    break;
  case cudaDevAttrGlobalL1CacheSupported: v = p.globalL1CacheSupported; break;
  case cudaDevAttrLocalL1CacheSupported: v = p.localL1CacheSupported; break;
  case cudaDevAttrMaxSharedMemoryPerMultiprocessor:
    v = (int)p.sharedMemPerMultiprocessor;
    break;
  case cudaDevAttrMaxRegistersPerMultiprocessor:
    v = p.regsPerMultiprocessor;
    break;
  case cudaDevAttrManagedMemory: v = p.managedMemory; break;
  case cudaDevAttrIsMultiGpuBoard: v = p.isMultiGpuBoard; break;
  case cudaDevAttrMultiGpuBoardGroupID: v = p.multiGpuBoardGroupID; break;
  case cudaDevAttrHostNativeAtomicSupported:
    v = p.hostNativeAtomicSupported;
    break;
  case cudaDevAttrPageableMemoryAccess: v = p.pageableMemoryAccess; break;
  case cudaDevAttrConcurrentManagedAccess: v = p.concurrentManagedAccess; break;
  case cudaDevAttrComputePreemptionSupported:
    v = p.computePreemptionSupported;
    break;
  case cudaDevAttrCanUseHostPointerForRegisteredMem:
    v = p.canUseHostPointerForRegisteredMem;
    break;
  case cudaDevAttrCooperativeLaunch: v = p.cooperativeLaunch; break;
  case cudaDevAttrMaxSharedMemoryPerBlockOptin:
    v = (int)p.sharedMemPerBlockOptin;
    break;
  case cudaDevAttrPageableMemoryAccessUsesHostPageTables:
    v = p.pageableMemoryAccessUsesHostPageTables;
    break;
  case cudaDevAttrDirectManagedMemAccessFromHost:
    v = p.directManagedMemAccessFromHost;
    break;
  case cudaDevAttrMaxBlocksPerMultiprocessor:
    v = p.maxBlocksPerMultiProcessor;
    break;
  case cudaDevAttrReservedSharedMemoryPerBlock:
    v = (int)p.reservedSharedMemPerBlock;
    break;
  case cudaDevAttrHostRegisterSupported: v = p.hostRegisterSupported; break;
  case cudaDevAttrHostRegisterReadOnlySupported:
    v = p.hostRegisterReadOnlySupported;
    break;
  default:
    /* An attribute CUDA has but the emulated device lacks: 0 (texture,
     * surface, interop and cluster limits, ...). */
    if (attr <= 0 || attr >= cudaDevAttrMax)
      return cuemu_rt_error(cudaErrorInvalidValue);
    v = 0;
    break;
  }
  *value = v;
  return cudaSuccess;
}

int cuemu_rt_driver_get_version(int *version) {
  if (!version)
    return cuemu_rt_error(cudaErrorInvalidValue);
  *version = CUEMU_RT_CUDA_VERSION;
  return cudaSuccess;
}

int cuemu_rt_runtime_get_version(int *version) {
  if (!version)
    return cuemu_rt_error(cudaErrorInvalidValue);
  *version = CUEMU_RT_CUDA_VERSION;
  return cudaSuccess;
}

int cuemu_rt_mem_get_info(size_t *free_bytes, size_t *total_bytes) {
  if (!free_bytes || !total_bytes)
    return cuemu_rt_error(cudaErrorInvalidValue);
  int sticky = cuemu__rt_check_sticky();
  if (sticky)
    return sticky;
  size_t total = total_memory();
  size_t free_now = total;
  if (!get_config()->mem) {
    long pages = sysconf(_SC_AVPHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    if (pages > 0 && size > 0 && (size_t)pages * (size_t)size < total)
      free_now = (size_t)pages * (size_t)size;
  }
  *free_bytes = free_now;
  *total_bytes = total;
  return cudaSuccess;
}

int cuemu_rt_profiler_start(void) { return cudaSuccess; }

int cuemu_rt_profiler_stop(void) { return cudaSuccess; }
