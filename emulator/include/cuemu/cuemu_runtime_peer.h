/*
 * cuemu_runtime_peer.h: several devices in the runtime API: peer access,
 * peer copies and IPC handles. shims/cuda_builtins/cuemu_peer_api.h
 * forwards each CUDA call here; the functions return CUDA's error codes as
 * int and record a failure as the calling thread's last error, as every
 * cuemu_rt_* function does (cuemu_runtime.h). docs/driver-api.md describes
 * the devices (CUEMU_DEVICE count=N).
 */
#ifndef CUEMU_RUNTIME_PEER_H
#define CUEMU_RUNTIME_PEER_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* cudaDeviceCanAccessPeer: 1 for two distinct valid devices, 0 for a
 * device and itself; cudaErrorInvalidDevice for an invalid one. */
int cuemu_rt_device_can_access_peer(int *can_access, int device, int peer);

/* cudaDeviceGetP2PAttribute (and cuDeviceGetP2PAttribute): the link's
 * attribute `attribute` (cudaDeviceP2PAttr) from `src` to `dst`;
 * cudaErrorInvalidDevice for an invalid device or a device paired with
 * itself, cudaErrorInvalidValue for a null value or an unknown attribute
 * (cuemu_rt_p2p_attribute.c). */
int cuemu_rt_device_get_p2p_attribute(int *value, int attribute, int src,
                                      int dst);

/* cudaDeviceGetP2PAtomicCapabilities (and the driver's
 * cuDeviceGetP2PAtomicCapabilities): for each of the `count` operations
 * (cudaAtomicOperation), the cudaAtomicOperationCapability bits the link
 * from `src` to `dst` carries natively: all of them, on emulated devices;
 * cudaErrorInvalidDevice for an invalid device or a device paired with
 * itself, cudaErrorInvalidValue for a null array, a count of 0 or an
 * unknown operation (cuemu_rt_p2p_attribute.c). */
int cuemu_rt_device_get_p2p_atomic_capabilities(unsigned *capabilities,
                                                const int *operations,
                                                unsigned count, int src,
                                                int dst);

/* cudaDeviceGetHostAtomicCapabilities (and the driver's
 * cuDeviceGetHostAtomicCapabilities): the same between `device` and the
 * host, which share one memory: every form of every operation;
 * cudaErrorInvalidDevice for an invalid device, then the checks above. */
int cuemu_rt_device_get_host_atomic_capabilities(unsigned *capabilities,
                                                 const int *operations,
                                                 unsigned count, int device);

/* cudaDeviceEnablePeerAccess / cudaDeviceDisablePeerAccess, from the
 * calling thread's current device: cudaErrorInvalidDevice for an invalid
 * peer or the current device itself, cudaErrorInvalidValue for flags other
 * than 0, cudaErrorPeerAccessAlreadyEnabled when enabled twice,
 * cudaErrorPeerAccessNotEnabled when disabling what was never enabled. */
int cuemu_rt_device_enable_peer_access(int peer, unsigned flags);
int cuemu_rt_device_disable_peer_access(int peer);

/* cudaMemcpyPeer: both ranges must lie in live allocations, device memory
 * on the device named (cudaErrorInvalidValue otherwise); no peer access is
 * needed. It waits for the work issued to the current device, the source's
 * and the destination's, as CUDA's is serialised with it.
 * cudaMemcpyPeerAsync is checked the same way when issued, then runs in
 * the stream's order, as cudaMemcpyAsync (docs/streams.md). */
int cuemu_rt_memcpy_peer(void *dst, int dst_device, const void *src,
                         int src_device, size_t count);
int cuemu_rt_memcpy_peer_async(void *dst, int dst_device, const void *src,
                               int src_device, size_t count, void *stream);

/* cudaMemcpy3DPeer and cudaMemcpy3DPeerAsync: cudaMemcpy3D's copy (pitched
 * memory or a CUDA array on either side) between the devices named; a
 * pointer to device memory must be memory of the device named for its
 * side (cudaErrorInvalidValue otherwise), no peer access is needed. The
 * blocking form waits for the work of the current device and of both
 * devices, as cudaMemcpyPeer; the other runs in the stream's order (a
 * memcpy node when the stream captures). */
struct cudaMemcpy3DPeerParms;
int cuemu_rt_memcpy_3d_peer(const struct cudaMemcpy3DPeerParms *p);
int cuemu_rt_memcpy_3d_peer_async(const struct cudaMemcpy3DPeerParms *p,
                                  void *stream);

/* The device whose device memory (cudaMalloc) holds `p`, or -1 when `p` is
 * in no live device allocation. */
int cuemu_rt_memory_device(const void *p);

/* IPC (emulator/runtime/cuemu_rt_peer_ipc.c). A memory handle names a POSIX
 * shared-memory object that the exporting process moves its allocation
 * into (same address, same contents); another process maps it. The handle
 * is 64 bytes, as cudaIpcMemHandle_t.
 *
 * cudaIpcGetMemHandle: `ptr` must be the base of a live cudaMalloc
 * allocation (cudaErrorInvalidValue); cudaErrorMapBufferObjectFailed when
 * the shared memory cannot be made. */
int cuemu_rt_ipc_get_mem_handle(void *handle64, void *ptr);
/* cudaIpcOpenMemHandle: maps the exporter's memory, tracked as device
 * memory of the current device. cudaErrorDeviceUninitialized for a handle
 * of this very process (as CUDA), cudaErrorInvalidValue for flags other
 * than cudaIpcMemLazyEnablePeerAccess, cudaErrorMapBufferObjectFailed when
 * the memory is gone. */
int cuemu_rt_ipc_open_mem_handle(void **ptr, const void *handle64,
                                 unsigned flags);
/* cudaIpcCloseMemHandle: unmaps memory opened by the above
 * (cudaErrorInvalidValue for any other pointer). */
int cuemu_rt_ipc_close_mem_handle(void *ptr);
/* cudaIpcGetEventHandle / cudaIpcOpenEventHandle: the event must have been
 * created with cudaEventInterprocess | cudaEventDisableTiming
 * (cudaErrorInvalidResourceHandle otherwise). Work is done when it is
 * issued, so an opened event is a new event (cudaEventDisableTiming) that
 * is always complete. */
int cuemu_rt_ipc_get_event_handle(void *handle64, void *event);
int cuemu_rt_ipc_open_event_handle(void **event, const void *handle64);

#ifdef __cplusplus
}
#endif

#endif /* CUEMU_RUNTIME_PEER_H */
