/*
 * cuemu_rt_device.c: device management of the runtime API: the emulated
 * devices (CUEMU_DEVICE count=N; the current one is per host thread),
 * described by cudaGetDeviceProperties and cudaDeviceGetAttribute
 * (see cuemu_runtime.h for CUEMU_DEVICE), the device flags, the versions,
 * cudaMemGetInfo, cudaDeviceReset and the profiler calls.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cuemu/cuemu.h>
#include <cuemu/cuemu_runtime.h>

#include "base/cuemu_config.h"
#include "base/cuemu_visible_devices.h"
#include "core/cuemu_allocations.h"
#include "core/cuemu_device_heap.h"
#include "device/cuemu_device_model.h"
#include "device/cuemu_handles.h"
#include "device/cuemu_limits.h"
#include "runtime/cuemu_drv_internal.h"
#include "runtime/cuemu_rt_array.h"
#include "runtime/cuemu_rt_capture.h"
#include "runtime/cuemu_rt_internal.h"
#include "runtime/cuemu_rt_stream_queue.h"

/* The CUDA version the runtime API follows (CUDART_VERSION). */
#define CUEMU_RT_CUDA_VERSION 13000

unsigned cuemu_rt_sm_count(void) { return cuemu__device_model()->sms; }

unsigned cuemu_rt_max_threads_per_block(void) {
  return cuemu__device_model()->max_threads_per_block;
}

size_t cuemu_rt_max_shared_optin(void) {
  return cuemu__device_model()->shared_per_block_optin;
}

int cuemu_rt_get_device_count(int *count) {
  cuemu__drv_init_by_runtime();
  if (!count)
    return cuemu_rt_error(cudaErrorInvalidValue);
  *count = cuemu__device_count();
  /* CUDA_VISIBLE_DEVICES may hide them all. */
  return *count ? cudaSuccess : cuemu_rt_error(cudaErrorNoDevice);
}

/* A multi-GPU program (the training exercises' "use 4 GPUs") asks for a
 * device past the emulated ones: CUDA's error is the same on a machine
 * with fewer GPUs, but the emulator can have more, so it says how, once. */
static void note_more_devices(int device) {
  static atomic_int noted;
  int count = cuemu__device_count();
  if (device < count || device >= CUEMU_MAX_DEVICES ||
      cuemu__config_quiet() || atomic_exchange(&noted, 1))
    return;
  fprintf(stderr,
          "cuemu: note: cudaSetDevice(%d): %d device%s emulated; "
          "CUEMU_DEVICE=count=N emulates N, up to %d (docs/driver-api.md)\n",
          device, count, count == 1 ? " is" : "s are", CUEMU_MAX_DEVICES);
}

int cuemu_rt_set_device(int device) {
  if (cuemu__device_count() == 0)
    return cuemu_rt_error(cudaErrorNoDevice);
  if (device < 0 || device >= cuemu__device_count()) {
    note_more_devices(device);
    return cuemu_rt_error(cudaErrorInvalidDevice);
  }
  cuemu__device_select(device);
  cuemu__drv_runtime_set_device(device);
  return cuemu__rt_check_sticky();
}

int cuemu_rt_set_valid_devices(const int *devices, int len) {
  int count = cuemu__device_count();
  if (len < 0 || (len > 0 && !devices) || len > count)
    return cuemu_rt_error(cudaErrorInvalidValue);
  for (int i = 0; i < len; ++i)
    if (devices[i] < 0 || devices[i] >= count)
      return cuemu_rt_error(cudaErrorInvalidDevice);
  /* CUDA tries the listed devices in order until one works: here the
   * first does. */
  cuemu__device_set_default(len > 0 ? devices[0] : 0);
  return cudaSuccess;
}

int cuemu_rt_get_device(int *device) {
  cuemu__drv_init_by_runtime();
  if (!device)
    return cuemu_rt_error(cudaErrorInvalidValue);
  *device = cuemu__device_current();
  cuemu__allocation_written(device, sizeof *device);
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
  /* The work pending on the device's streams finishes first. */
  cuemu__stream_drain_all();
  cuemu__stream_reset(cuemu__device_current());
  cuemu__rt_texture_reset();
  /* The device's streams and events go, as CUDA destroys them. */
  cuemu__handle_destroy_device(cuemu__device_current());
  cuemu__device_peer_forget(cuemu__device_current());
  /* With several devices, only the current device's memory goes. */
  if (cuemu__device_count() > 1)
    cuemu__rt_memory_reset_device(cuemu__device_current());
  else
    cuemu__rt_memory_reset();
  cuemu__device_heap_reset();
  cuemu__limit_reset();
  cuemu__rt_config_reset();
  __atomic_store_n(&device_flags, 0u, __ATOMIC_RELAXED);
  cuemu__rt_error_reset();
  return cudaSuccess;
}

int cuemu_rt_device_synchronize(void) {
  int e = cuemu__rt_capture_device_sync();
  if (!e)
    e = cuemu__stream_drain_all();
  cuemu__rt_sync_point();
  int sticky = cuemu__rt_check_sticky();
  return sticky ? sticky : e;
}

int cuemu_rt_device_flush_rdma_writes(int target, int scope) {
  if (target != cudaFlushGPUDirectRDMAWritesTargetCurrentDevice ||
      (scope != cudaFlushGPUDirectRDMAWritesToOwner &&
       scope != cudaFlushGPUDirectRDMAWritesToAllDevices))
    return cuemu_rt_error(cudaErrorInvalidValue);
  int sticky = cuemu__rt_check_sticky();
  return sticky ? sticky : cudaSuccess;
}

/* cudaErrorUnsupportedLimit for a value that is no cudaLimit, and for
 * cudaLimitDevRuntimeSyncDepth: it bounds the depth of device-side
 * cudaDeviceSynchronize(), which devices of compute capability 9.0 and up
 * do not have, and CUDA refuses to set or get it on them. */
static int known_limit(int limit) {
  if (limit == cudaLimitDevRuntimeSyncDepth)
    return cuemu__device_model()->major < 9;
  return limit >= cudaLimitStackSize &&
         limit <= cudaLimitPersistingL2CacheSize;
}

int cuemu_rt_device_set_limit(int limit, size_t value) {
  if (!known_limit(limit))
    return cuemu_rt_error(cudaErrorUnsupportedLimit);
  int sticky = cuemu__rt_check_sticky();
  if (sticky)
    return sticky;
  cuemu_status st = cuemu__limit_set(limit, value);
  return cuemu_rt_error(cuemu_status_cuda_error(st));
}

int cuemu_rt_device_get_limit(size_t *value, int limit) {
  if (!value)
    return cuemu_rt_error(cudaErrorInvalidValue);
  if (!known_limit(limit))
    return cuemu_rt_error(cudaErrorUnsupportedLimit);
  cuemu__limit_get(limit, value);
  return cudaSuccess;
}

int cuemu_rt_get_device_properties(struct cudaDeviceProp *p, int device) {
  cuemu__drv_init_by_runtime();
  if (!p)
    return cuemu_rt_error(cudaErrorInvalidValue);
  if (cuemu__device_count() == 0)
    return cuemu_rt_error(cudaErrorNoDevice);
  if (device < 0 || device >= cuemu__device_count())
    return cuemu_rt_error(cudaErrorInvalidDevice);
  const cuemu_device_model *m = cuemu__device_model_of(device);
  memset(p, 0, sizeof *p);
  snprintf(p->name, sizeof p->name, "cuemu emulated device (sm_%d%d)",
           m->major, m->minor);
  /* Each device has its own UUID ("cuemu-device-00N") and PCI bus, those
   * of its index among CUEMU_DEVICE's devices (CUDA_VISIBLE_DEVICES
   * renumbers the devices, not their properties). */
  int physical = cuemu__config_device_physical(device);
  cuemu__device_uuid_bytes(physical, (unsigned char *)p->uuid.bytes);
  p->pciBusID = physical;
  p->totalGlobalMem = m->total_memory;
  p->sharedMemPerBlock = m->shared_per_block;
  p->regsPerBlock = (int)m->regs_per_block;
  p->warpSize = (int)m->warp_size;
  p->memPitch = 2147483647;
  p->maxThreadsPerBlock = (int)m->max_threads_per_block;
  for (int i = 0; i < 3; ++i) {
    p->maxThreadsDim[i] = (int)m->max_block_dim[i];
    p->maxGridSize[i] = (int)m->max_grid_dim[i];
  }
  p->totalConstMem = m->const_memory;
  p->major = m->major;
  p->minor = m->minor;
  p->textureAlignment = 512;
  p->texturePitchAlignment = 32;
  p->multiProcessorCount = (int)m->sms;
  p->canMapHostMemory = 1;
  p->surfaceAlignment = 512;
  p->concurrentKernels = 1;
  p->asyncEngineCount = 2;
  p->unifiedAddressing = 1;
  p->memoryBusWidth = (int)m->memory_bus_width;
  p->l2CacheSize = (int)m->l2_cache;
  p->maxThreadsPerMultiProcessor = (int)m->threads_per_sm;
  p->streamPrioritiesSupported = 1;
  p->globalL1CacheSupported = 1;
  p->localL1CacheSupported = 1;
  p->sharedMemPerMultiprocessor = m->shared_per_sm;
  p->regsPerMultiprocessor = (int)m->regs_per_sm;
  p->managedMemory = 1;
  /* CUEMU_DEVICE's cma=0 makes a device of a system without concurrent
   * managed access (nor, then, pageable memory access): programs take
   * their other path (cudaStreamAttachMemAsync, no prefetch). */
  int cma = cuemu__config_device_of(device)->concurrent_managed;
  p->pageableMemoryAccess = cma;
  p->concurrentManagedAccess = cma;
  p->computePreemptionSupported = 1;
  p->canUseHostPointerForRegisteredMem = 1;
  p->cooperativeLaunch = 1;
  p->sharedMemPerBlockOptin = m->shared_per_block_optin;
  p->pageableMemoryAccessUsesHostPageTables = cma;
  p->directManagedMemAccessFromHost = cma;
  p->maxBlocksPerMultiProcessor = (int)m->blocks_per_sm;
  p->reservedSharedMemPerBlock = m->reserved_shared_per_block;
  p->hostRegisterSupported = 1;
  p->hostRegisterReadOnlySupported = 1;
  p->deviceNumaId = -1;
  p->hostNumaId = -1;
  /* Compute capability 9.0's texture and surface limits (the emulator has
   * no textures, but programs size their data by them). */
  p->maxTexture1D = 131072;
  p->maxTexture1DMipmap = 32768;
  p->maxTexture2D[0] = 131072;
  p->maxTexture2D[1] = 65536;
  p->maxTexture2DMipmap[0] = p->maxTexture2DMipmap[1] = 32768;
  p->maxTexture2DLinear[0] = 131072;
  p->maxTexture2DLinear[1] = 65000;
  p->maxTexture2DLinear[2] = 2097120;
  p->maxTexture2DGather[0] = p->maxTexture2DGather[1] = 32768;
  p->maxTexture3D[0] = p->maxTexture3D[1] = p->maxTexture3D[2] = 16384;
  p->maxTexture3DAlt[0] = p->maxTexture3DAlt[1] = 8192;
  p->maxTexture3DAlt[2] = 32768;
  p->maxTextureCubemap = 32768;
  p->maxTexture1DLayered[0] = 32768;
  p->maxTexture1DLayered[1] = 2048;
  p->maxTexture2DLayered[0] = p->maxTexture2DLayered[1] = 32768;
  p->maxTexture2DLayered[2] = 2048;
  p->maxTextureCubemapLayered[0] = 32768;
  p->maxTextureCubemapLayered[1] = 2046;
  p->maxSurface1D = 32768;
  p->maxSurface2D[0] = 131072;
  p->maxSurface2D[1] = 65536;
  p->maxSurface3D[0] = p->maxSurface3D[1] = p->maxSurface3D[2] = 16384;
  p->maxSurface1DLayered[0] = 32768;
  p->maxSurface1DLayered[1] = 2048;
  p->maxSurface2DLayered[0] = p->maxSurface2DLayered[1] = 32768;
  p->maxSurface2DLayered[2] = 2048;
  p->maxSurfaceCubemap = 32768;
  p->maxSurfaceCubemapLayered[0] = 32768;
  p->maxSurfaceCubemapLayered[1] = 2046;
  /* What the emulated device does: host-native atomics (one memory),
   * stream-ordered pools (without shareable handles), clusters on 9.0,
   * function pointers; no ECC, RDMA, interop, sparse arrays or MPS. */
  p->persistingL2CacheMaxSize = (int)m->persisting_l2_max;
  p->accessPolicyMaxWindowSize = (int)m->access_policy_max_window;
  p->hostNativeAtomicSupported = 1;
  /* Remote writes land in the one coherent memory: the flush call is
   * there (cudaDeviceFlushGPUDirectRDMAWrites) and every scope is ordered
   * already, which by CUDA's rule makes it a no-op. */
  p->gpuDirectRDMAFlushWritesOptions = cudaFlushGPUDirectRDMAWritesOptionHost;
  p->gpuDirectRDMAWritesOrdering = cudaGPUDirectRDMAWritesOrderingAllDevices;
  p->memoryPoolsSupported = 1;
  p->memoryPoolSupportedHandleTypes = 1; /* cudaMemHandleTypePosixFileDescriptor (cuemu_pool_ipc.h) */
  p->clusterLaunch = m->major >= 9;
  p->unifiedFunctionPointers = 1;
  return cudaSuccess;
}

int cuemu_rt_device_get_attribute(int *value, int attr, int device) {
  cuemu__drv_init_by_runtime();
  if (!value)
    return cuemu_rt_error(cudaErrorInvalidValue);
  if (cuemu__device_count() == 0)
    return cuemu_rt_error(cudaErrorNoDevice);
  if (device < 0 || device >= cuemu__device_count())
    return cuemu_rt_error(cudaErrorInvalidDevice);
  struct cudaDeviceProp p;
  cuemu_rt_get_device_properties(&p, device);
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
  case cudaDevAttrClockRate:
    v = (int)cuemu__device_model_of(device)->clock_khz;
    break;
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
  case cudaDevAttrMemoryClockRate:
    v = (int)cuemu__device_model_of(device)->memory_clock_khz;
    break;
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
  case cudaDevAttrMaxTexture1DWidth: v = p.maxTexture1D; break;
  case cudaDevAttrMaxTexture2DWidth: v = p.maxTexture2D[0]; break;
  case cudaDevAttrMaxTexture2DHeight: v = p.maxTexture2D[1]; break;
  case cudaDevAttrMaxTexture3DWidth: v = p.maxTexture3D[0]; break;
  case cudaDevAttrMaxTexture3DHeight: v = p.maxTexture3D[1]; break;
  case cudaDevAttrMaxTexture3DDepth: v = p.maxTexture3D[2]; break;
  case cudaDevAttrMaxTexture2DLayeredWidth: v = p.maxTexture2DLayered[0]; break;
  case cudaDevAttrMaxTexture2DLayeredHeight:
    v = p.maxTexture2DLayered[1];
    break;
  case cudaDevAttrMaxTexture2DLayeredLayers:
    v = p.maxTexture2DLayered[2];
    break;
  case cudaDevAttrMaxTexture1DLayeredWidth: v = p.maxTexture1DLayered[0]; break;
  case cudaDevAttrMaxTexture1DLayeredLayers:
    v = p.maxTexture1DLayered[1];
    break;
  case cudaDevAttrMaxTexture2DGatherWidth: v = p.maxTexture2DGather[0]; break;
  case cudaDevAttrMaxTexture2DGatherHeight: v = p.maxTexture2DGather[1]; break;
  case cudaDevAttrMaxTexture3DWidthAlt: v = p.maxTexture3DAlt[0]; break;
  case cudaDevAttrMaxTexture3DHeightAlt: v = p.maxTexture3DAlt[1]; break;
  case cudaDevAttrMaxTexture3DDepthAlt: v = p.maxTexture3DAlt[2]; break;
  case cudaDevAttrMaxTextureCubemapWidth: v = p.maxTextureCubemap; break;
  case cudaDevAttrMaxTextureCubemapLayeredWidth:
    v = p.maxTextureCubemapLayered[0];
    break;
  case cudaDevAttrMaxTextureCubemapLayeredLayers:
    v = p.maxTextureCubemapLayered[1];
    break;
  case cudaDevAttrMaxSurface1DWidth: v = p.maxSurface1D; break;
  case cudaDevAttrMaxSurface2DWidth: v = p.maxSurface2D[0]; break;
  case cudaDevAttrMaxSurface2DHeight: v = p.maxSurface2D[1]; break;
  case cudaDevAttrMaxSurface3DWidth: v = p.maxSurface3D[0]; break;
  case cudaDevAttrMaxSurface3DHeight: v = p.maxSurface3D[1]; break;
  case cudaDevAttrMaxSurface3DDepth: v = p.maxSurface3D[2]; break;
  case cudaDevAttrMaxSurface1DLayeredWidth: v = p.maxSurface1DLayered[0]; break;
  case cudaDevAttrMaxSurface1DLayeredLayers:
    v = p.maxSurface1DLayered[1];
    break;
  case cudaDevAttrMaxSurface2DLayeredWidth: v = p.maxSurface2DLayered[0]; break;
  case cudaDevAttrMaxSurface2DLayeredHeight:
    v = p.maxSurface2DLayered[1];
    break;
  case cudaDevAttrMaxSurface2DLayeredLayers:
    v = p.maxSurface2DLayered[2];
    break;
  case cudaDevAttrMaxSurfaceCubemapWidth: v = p.maxSurfaceCubemap; break;
  case cudaDevAttrMaxSurfaceCubemapLayeredWidth:
    v = p.maxSurfaceCubemapLayered[0];
    break;
  case cudaDevAttrMaxSurfaceCubemapLayeredLayers:
    v = p.maxSurfaceCubemapLayered[1];
    break;
  case cudaDevAttrMaxTexture1DLinearWidth:
    v = 268435456; /* 2^28 texels, compute capability 9.0 */
    break;
  case cudaDevAttrMaxTexture2DLinearWidth: v = p.maxTexture2DLinear[0]; break;
  case cudaDevAttrMaxTexture2DLinearHeight: v = p.maxTexture2DLinear[1]; break;
  case cudaDevAttrMaxTexture2DLinearPitch: v = p.maxTexture2DLinear[2]; break;
  case cudaDevAttrMaxTexture2DMipmappedWidth:
    v = p.maxTexture2DMipmap[0];
    break;
  case cudaDevAttrMaxTexture2DMipmappedHeight:
    v = p.maxTexture2DMipmap[1];
    break;
  case cudaDevAttrMaxTexture1DMipmappedWidth: v = p.maxTexture1DMipmap; break;
  case cudaDevAttrSingleToDoublePrecisionPerfRatio: v = 2; break;
  case cudaDevAttrCanFlushRemoteWrites: v = 0; break;
  case cudaDevAttrMaxPersistingL2CacheSize:
    v = p.persistingL2CacheMaxSize;
    break;
  case cudaDevAttrMaxAccessPolicyWindowSize:
    v = p.accessPolicyMaxWindowSize;
    break;
  case cudaDevAttrSparseCudaArraySupported: v = p.sparseCudaArraySupported; break;
  case cudaDevAttrTimelineSemaphoreInteropSupported:
    v = p.timelineSemaphoreInteropSupported;
    break;
  case cudaDevAttrMemoryPoolsSupported: v = p.memoryPoolsSupported; break;
  case cudaDevAttrGPUDirectRDMASupported: v = p.gpuDirectRDMASupported; break;
  case cudaDevAttrGPUDirectRDMAFlushWritesOptions:
    v = (int)p.gpuDirectRDMAFlushWritesOptions;
    break;
  case cudaDevAttrGPUDirectRDMAWritesOrdering:
    v = p.gpuDirectRDMAWritesOrdering;
    break;
  case cudaDevAttrMemoryPoolSupportedHandleTypes:
    v = (int)p.memoryPoolSupportedHandleTypes;
    break;
  case cudaDevAttrClusterLaunch: v = p.clusterLaunch; break;
  case cudaDevAttrDeferredMappingCudaArraySupported:
    v = p.deferredMappingCudaArraySupported;
    break;
  case cudaDevAttrIpcEventSupport: v = p.ipcEventSupported; break;
  case cudaDevAttrMemSyncDomainCount:
    v = (int)cuemu__device_model_of(device)->sync_domains;
    break;
  case cudaDevAttrNumaConfig: v = p.deviceNumaConfig; break;
  case cudaDevAttrNumaId: v = p.deviceNumaId; break;
  case cudaDevAttrMpsEnabled: v = p.mpsEnabled; break;
  case cudaDevAttrHostNumaId: v = p.hostNumaId; break;
  case cudaDevAttrD3D12CigSupported: v = 0; break;
  case cudaDevAttrVulkanCigSupported: v = 0; break;
  case cudaDevAttrGpuPciDeviceId: v = (int)p.gpuPciDeviceID; break;
  case cudaDevAttrGpuPciSubsystemId: v = (int)p.gpuPciSubsystemID; break;
  case cudaDevAttrHostNumaMemoryPoolsSupported: v = 0; break;
  case cudaDevAttrHostNumaMultinodeIpcSupported:
    v = p.hostNumaMultinodeIpcSupported;
    break;
  case cudaDevAttrHostMemoryPoolsSupported: v = 0; break;
  case cudaDevAttrOnlyPartialHostNativeAtomicSupported: v = 0; break;
  /* Reserved values are answered, as the driver answers them: 0. */
  case cudaDevAttrReserved92: case cudaDevAttrReserved93:
  case cudaDevAttrReserved94: case cudaDevAttrReserved96:
  case cudaDevAttrReserved122: case cudaDevAttrReserved123:
  case cudaDevAttrReserved124: case cudaDevAttrReserved127:
  case cudaDevAttrReserved128: case cudaDevAttrReserved129:
  case cudaDevAttrReserved132: case cudaDevAttrReserved141:
  case cudaDevAttrReserved145:
    v = 0;
    break;
  default:
    /* A value that names no attribute (gaps and reserved values). */
    return cuemu_rt_error(cudaErrorInvalidValue);
  }
  *value = v;
  cuemu__allocation_written(value, sizeof *value);
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
  /* Either output may be NULL, as with CUDA, which writes the other one
   * only: programs ask for the total alone with cudaMemGetInfo(NULL,
   * &total) (cuda-api-wrappers' device memory, llama.cpp's device list). */
  int sticky = cuemu__rt_check_sticky();
  if (sticky)
    return sticky;
  /* What the device has free (no more than the host has free) less the
   * device's live allocations, so that cudaMalloc(n) takes at least n
   * bytes from it and cudaFree gives them back, as on a GPU. (The pages of
   * an allocation that a program touched count twice, as they also left
   * the host's free memory: the figure only gets smaller.) */
  size_t total = cuemu__device_model()->total_memory;
  size_t available = cuemu__device_free_memory();
  size_t used = cuemu__allocation_device_bytes(cuemu__device_current());
  if (free_bytes)
    *free_bytes = used < available ? available - used : 0;
  if (total_bytes)
    *total_bytes = total;
  return cudaSuccess;
}

int cuemu_rt_profiler_start(void) { return cudaSuccess; }

int cuemu_rt_profiler_stop(void) { return cudaSuccess; }
