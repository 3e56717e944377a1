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
 * unknown attribute. */
inline cudaError_t cudaDeviceGetP2PAttribute(int *value,
                                             enum cudaDeviceP2PAttr attrib,
                                             int srcDevice, int dstDevice) {
  int count = 0;
  cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess)
    return e;
  if (srcDevice < 0 || srcDevice >= count || dstDevice < 0 ||
      dstDevice >= count || srcDevice == dstDevice)
    return static_cast<cudaError_t>(cuemu_rt_error(cudaErrorInvalidDevice));
  int access = 0;
  if (!value || attrib < cudaDevP2PAttrPerformanceRank ||
      attrib > cudaDevP2PAttrOnlyPartialNativeAtomicSupported)
    return static_cast<cudaError_t>(cuemu_rt_error(cudaErrorInvalidValue));
  e = static_cast<cudaError_t>(
      cuemu_rt_device_can_access_peer(&access, srcDevice, dstDevice));
  if (e != cudaSuccess)
    return e;
  if (attrib == cudaDevP2PAttrPerformanceRank)
    *value = 0;
  else if (attrib == cudaDevP2PAttrOnlyPartialNativeAtomicSupported)
    *value = 0;
  else
    *value = access;
  return cudaSuccess;
}

#endif
