/*
 * cuemu_peer_api.h: several devices in the runtime API: peer access, peer
 * copies and IPC handles. Each call forwards to libcuemu's cuemu_rt_*
 * function (<cuemu/cuemu_runtime_peer.h>, which documents what they do).
 * The devices are CUEMU_DEVICE's (count=N); see docs/driver-api.md.
 */
#ifndef CUEMU_PEER_API_H
#define CUEMU_PEER_API_H

#include <cuemu/cuemu_runtime_peer.h>

#include "cuda_runtime_api.h"

/* cudaEvent_t is cuemu_streams_api.h's, which may be on its way in: the
 * event calls below name its structure. */
struct CUevent_st;

#include "cuemu_peer_types.h"

/* Peer access. */

inline cudaError_t cudaDeviceCanAccessPeer(int *canAccessPeer, int device,
                                           int peerDevice) {
  return static_cast<cudaError_t>(
      cuemu_rt_device_can_access_peer(canAccessPeer, device, peerDevice));
}

inline cudaError_t cudaDeviceEnablePeerAccess(int peerDevice,
                                              unsigned int flags) {
  return static_cast<cudaError_t>(
      cuemu_rt_device_enable_peer_access(peerDevice, flags));
}

inline cudaError_t cudaDeviceDisablePeerAccess(int peerDevice) {
  return static_cast<cudaError_t>(
      cuemu_rt_device_disable_peer_access(peerDevice));
}

/* Peer copies. */

inline cudaError_t cudaMemcpyPeer(void *dst, int dstDevice, const void *src,
                                  int srcDevice, size_t count) {
  return static_cast<cudaError_t>(
      cuemu_rt_memcpy_peer(dst, dstDevice, src, srcDevice, count));
}

/* Runs in the stream's order, as cudaMemcpyAsync. */
inline cudaError_t cudaMemcpyPeerAsync(void *dst, int dstDevice,
                                       const void *src, int srcDevice,
                                       size_t count, cudaStream_t stream = 0) {
  return static_cast<cudaError_t>(cuemu_rt_memcpy_peer_async(
      dst, dstDevice, src, srcDevice, count, stream));
}

/* 3-D copies between devices: cudaMemcpy3D's, with each side's device
 * checked; the Async form in the stream's order, as cudaMemcpy3DAsync. */
inline cudaError_t cudaMemcpy3DPeer(const struct cudaMemcpy3DPeerParms *p) {
  return static_cast<cudaError_t>(cuemu_rt_memcpy_3d_peer(p));
}

inline cudaError_t cudaMemcpy3DPeerAsync(const struct cudaMemcpy3DPeerParms *p,
                                         cudaStream_t stream = 0) {
  return static_cast<cudaError_t>(cuemu_rt_memcpy_3d_peer_async(p, stream));
}

/* IPC. */

inline cudaError_t cudaIpcGetMemHandle(cudaIpcMemHandle_t *handle,
                                       void *devPtr) {
  return static_cast<cudaError_t>(
      cuemu_rt_ipc_get_mem_handle(handle ? handle->reserved : nullptr,
                                  devPtr));
}

CUEMU_AT_CALLER inline cudaError_t
cudaIpcOpenMemHandle(void **devPtr, cudaIpcMemHandle_t handle,
                     unsigned int flags) {
  return static_cast<cudaError_t>(
      cuemu_rt_ipc_open_mem_handle(devPtr, handle.reserved, flags));
}

template <class T>
CUEMU_AT_CALLER inline cudaError_t
cudaIpcOpenMemHandle(T **devPtr, cudaIpcMemHandle_t handle,
                     unsigned int flags) {
  return cudaIpcOpenMemHandle(reinterpret_cast<void **>(devPtr), handle,
                              flags);
}

inline cudaError_t cudaIpcCloseMemHandle(void *devPtr) {
  return static_cast<cudaError_t>(cuemu_rt_ipc_close_mem_handle(devPtr));
}

inline cudaError_t cudaIpcGetEventHandle(cudaIpcEventHandle_t *handle,
                                         CUevent_st *event) {
  return static_cast<cudaError_t>(cuemu_rt_ipc_get_event_handle(
      handle ? handle->reserved : nullptr, event));
}

inline cudaError_t cudaIpcOpenEventHandle(CUevent_st **event,
                                          cudaIpcEventHandle_t handle) {
  return static_cast<cudaError_t>(cuemu_rt_ipc_open_event_handle(
      reinterpret_cast<void **>(event), handle.reserved));
}

#endif /* CUEMU_PEER_API_H */
