/*
 * cuemu_p2p_attribute_api.h: cudaDeviceGetP2PAttribute, the attributes of
 * the link between two emulated devices (topologyQuery and the multi-GPU
 * samples ask it before they enable peer access). The devices share the
 * host's memory, so every pair of distinct devices has the best link:
 * rank 0, peer access, native atomics and CUDA array access, as
 * cudaDeviceCanAccessPeer reports. Included by cuda_runtime_api.h.
 */
#ifndef CUEMU_P2P_ATTRIBUTE_API_H
#define CUEMU_P2P_ATTRIBUTE_API_H

#include <cuemu/cuemu_runtime.h>
#include <cuemu/cuemu_runtime_peer.h>

#include "cuemu_peer_api.h"

enum cudaDeviceP2PAttr {
  cudaDevP2PAttrPerformanceRank = 1,
  cudaDevP2PAttrAccessSupported = 2,
  cudaDevP2PAttrNativeAtomicSupported = 3,
  cudaDevP2PAttrCudaArrayAccessSupported = 4,
  cudaDevP2PAttrOnlyPartialNativeAtomicSupported = 5
};

/* CUDA's errors: cudaErrorInvalidDevice for a device out of range or a
 * device paired with itself, cudaErrorInvalidValue for a null value or an
 * unknown attribute (emulator/runtime/cuemu_rt_p2p_attribute.c). */
inline cudaError_t cudaDeviceGetP2PAttribute(int *value,
                                             enum cudaDeviceP2PAttr attrib,
                                             int srcDevice, int dstDevice) {
  return static_cast<cudaError_t>(cuemu_rt_device_get_p2p_attribute(
      value, static_cast<int>(attrib), srcDevice, dstDevice));
}

#endif
