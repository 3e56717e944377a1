/*
 * cuemu_rt_peer.c: several devices in the runtime API: peer access
 * (cudaDeviceCanAccessPeer, cudaDeviceEnablePeerAccess,
 * cudaDeviceDisablePeerAccess) and peer copies (cudaMemcpyPeer). The
 * devices share the host's memory, so a peer copy is a copy; what the
 * emulator keeps is CUDA's rules: which device a buffer belongs to (its
 * allocation's flags, cuemu_runtime.h) and which devices may touch which
 * (device/cuemu_device_model.h; memcheck reports a kernel that touches
 * another device's memory without peer access).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cuemu/cuemu_runtime.h>
#include <cuemu/cuemu_runtime_graph.h>
#include <cuemu/cuemu_runtime_peer.h>
#include <cuemu/cuemu_rt_texture.h>

#include "core/cuemu_allocations.h"
#include "device/cuemu_device_model.h"
#include "runtime/cuemu_drv_vmm.h"
#include "runtime/cuemu_rt_internal.h"
#include "runtime/cuemu_rt_stream_queue.h"

static int valid_device(int device) {
  return device >= 0 && device < cuemu__device_count();
}

int cuemu_rt_device_can_access_peer(int *can_access, int device, int peer) {
  if (!can_access)
    return cuemu_rt_error(cudaErrorInvalidValue);
  if (!valid_device(device) || !valid_device(peer))
    return cuemu_rt_error(cudaErrorInvalidDevice);
  /* Every pair of distinct emulated devices can; a device is not its own
   * peer (CUDA answers 0). */
  *can_access = device != peer;
  return cudaSuccess;
}

int cuemu_rt_device_enable_peer_access(int peer, unsigned flags) {
  int device = cuemu__device_current();
  if (!valid_device(peer) || peer == device)
    return cuemu_rt_error(cudaErrorInvalidDevice);
  if (flags != 0)
    return cuemu_rt_error(cudaErrorInvalidValue);
  int sticky = cuemu__rt_check_sticky();
  if (sticky)
    return sticky;
  if (cuemu__device_peer_set(device, peer, 1))
    return cuemu_rt_error(cudaErrorPeerAccessAlreadyEnabled);
  return cudaSuccess;
}

int cuemu_rt_device_disable_peer_access(int peer) {
  int device = cuemu__device_current();
  if (!valid_device(peer) || peer == device)
    return cuemu_rt_error(cudaErrorInvalidDevice);
  int sticky = cuemu__rt_check_sticky();
  if (sticky)
    return sticky;
  if (!cuemu__device_peer_set(device, peer, 0))
    return cuemu_rt_error(cudaErrorPeerAccessNotEnabled);
  return cudaSuccess;
}

int cuemu_rt_memory_device(const void *p) {
  cuemu_rt_allocation a;
  if (!cuemu__allocation_find(p, &a) || a.state != CUEMU_RT_MEMORY_LIVE)
    return -1;
  if (a.kind != CUEMU_RT_MEMORY_DEVICE)
    return -1;
  return (int)(a.flags >> CUEMU_RT_MEMORY_DEVICE_SHIFT);
}

/* 0 when the `count` bytes at `p` lie in one live allocation that `device`
 * can reach (its own device memory, or managed, pinned or registered
 * memory), else cudaErrorInvalidValue. */
static int check_peer_range(const void *p, size_t count, int device) {
  cuemu_rt_allocation a;
  if (!p || !cuemu__allocation_find(p, &a) || a.state != CUEMU_RT_MEMORY_LIVE)
    return cudaErrorInvalidValue;
  size_t offset = (size_t)((uintptr_t)p - (uintptr_t)a.base);
  if (count > a.size - offset)
    return cudaErrorInvalidValue;
  if (a.kind == CUEMU_RT_MEMORY_DEVICE &&
      (int)(a.flags >> CUEMU_RT_MEMORY_DEVICE_SHIFT) != device)
    return cudaErrorInvalidValue;
  return 0;
}

/* The checks of both peer copies: 0 when the copy may go. */
static int check_peer_copy(void *dst, int dst_device, const void *src,
                           int src_device, size_t count) {
  if (!valid_device(dst_device) || !valid_device(src_device))
    return cuemu_rt_error(cudaErrorInvalidDevice);
  int sticky = cuemu__rt_check_sticky();
  if (sticky || count == 0)
    return sticky;
  int code = check_peer_range(dst, count, dst_device);
  if (!code)
    code = check_peer_range(src, count, src_device);
  return code ? cuemu_rt_error(code) : 0;
}

int cuemu_rt_memcpy_peer_async(void *dst, int dst_device, const void *src,
                               int src_device, size_t count, void *stream) {
  int code = cuemu__rt_stream_valid(stream);
  if (!code)
    code = check_peer_copy(dst, dst_device, src, src_device, count);
  if (code || count == 0)
    return code;
  return cuemu_rt_memcpy_async(dst, src, count, cudaMemcpyDeviceToDevice,
                               stream);
}

int cuemu_rt_memcpy_peer(void *dst, int dst_device, const void *src,
                         int src_device, size_t count) {
  int code = check_peer_copy(dst, dst_device, src, src_device, count);
  if (code || count == 0)
    return code;
  /* Serialised with the work of the devices concerned. */
  int devices[3] = {cuemu__device_current(), src_device, dst_device};
  for (int i = 0; i < 3 && !code; ++i)
    code = cuemu__stream_drain_device(devices[i]);
  if (code)
    return code;
  cuemu__rt_sync_point(); /* a blocking copy: the kernels' printf output */
  memmove(dst, src, count);
  cuemu__allocation_written(dst, count);
  return cudaSuccess;
}

/* The checks of cudaMemcpy3DPeer: 0 and the copy as cudaMemcpy3D's
 * in *q, or a CUDA code. A side's pointer to device memory must be its
 * device's (an array side carries no device to check). */
static int peer_3d_parms(const struct cudaMemcpy3DPeerParms *p,
                         struct cudaMemcpy3DParms *q) {
  if (!p)
    return cuemu_rt_error(cudaErrorInvalidValue);
  if (!valid_device(p->srcDevice) || !valid_device(p->dstDevice))
    return cuemu_rt_error(cudaErrorInvalidDevice);
  int sticky = cuemu__rt_check_sticky();
  if (sticky)
    return sticky;
  int src = p->srcArray ? -1 : cuemu_rt_memory_device(p->srcPtr.ptr);
  int dst = p->dstArray ? -1 : cuemu_rt_memory_device(p->dstPtr.ptr);
  if ((src >= 0 && src != p->srcDevice) || (dst >= 0 && dst != p->dstDevice))
    return cuemu_rt_error(cudaErrorInvalidValue);
  memset(q, 0, sizeof *q);
  q->srcArray = p->srcArray;
  q->srcPos = p->srcPos;
  q->srcPtr = p->srcPtr;
  q->dstArray = p->dstArray;
  q->dstPos = p->dstPos;
  q->dstPtr = p->dstPtr;
  q->extent = p->extent;
  q->kind = cudaMemcpyDefault;
  return 0;
}

int cuemu_rt_memcpy_3d_peer(const struct cudaMemcpy3DPeerParms *p) {
  struct cudaMemcpy3DParms q;
  int code = peer_3d_parms(p, &q);
  /* Serialised with the work of the devices concerned. */
  int devices[3] = {cuemu__device_current(), code ? 0 : p->srcDevice,
                    code ? 0 : p->dstDevice};
  for (int i = 0; i < 3 && !code; ++i)
    code = cuemu__stream_drain_device(devices[i]);
  return code ? code : cuemu_rt_memcpy_3d(&q);
}

int cuemu_rt_memcpy_3d_peer_async(const struct cudaMemcpy3DPeerParms *p,
                                  void *stream) {
  int code = cuemu__rt_stream_valid(stream);
  struct cudaMemcpy3DParms q;
  if (!code)
    code = peer_3d_parms(p, &q);
  return code ? code : cuemu_rt_memcpy_3d_async(&q, stream);
}

void cuemu__rt_memory_reset_device(int device) {
  cuemu__rt_pool_reset(device); /* first: the pools hold their memory */
  cuemu__vmm_reset(device);
  cuemu_rt_allocation *all = NULL;
  size_t n = cuemu__allocation_snapshot(&all);
  for (size_t i = 0; i < n; ++i) {
    cuemu_rt_allocation *a = &all[i];
    if (a->kind != CUEMU_RT_MEMORY_DEVICE || a->state != CUEMU_RT_MEMORY_LIVE ||
        (int)(a->flags >> CUEMU_RT_MEMORY_DEVICE_SHIFT) != device)
      continue;
    if (cuemu__allocation_release(a->base, 1u << CUEMU_RT_MEMORY_DEVICE, 1)) {
      cuemu__allocation_freed(a->base);
      cuemu__allocation_memory_free(a->base, a->size);
    }
  }
  free(all);
}
