/*
 * cuemu_p2p_attribute_api.h: cudaDeviceGetP2PAttribute, the attributes of
 * the link between two emulated devices (topologyQuery and the multi-GPU
 * samples ask it before they enable peer access). The devices share the
 * host's memory, so every pair of distinct devices has the best link:
 * rank 0, peer access, native atomics and CUDA array access, as
 * cudaDeviceCanAccessPeer reports, and every form of every atomic
 * operation native (cudaDeviceGetP2PAtomicCapabilities). Included by
 * cuda_runtime_api.h.
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

/* The atomic operations and their forms that
 * cudaDeviceGetP2PAtomicCapabilities asks about (CUDA 13). */
enum cudaAtomicOperation {
  cudaAtomicOperationIntegerAdd = 0,
  cudaAtomicOperationIntegerMin = 1,
  cudaAtomicOperationIntegerMax = 2,
  cudaAtomicOperationIntegerIncrement = 3,
  cudaAtomicOperationIntegerDecrement = 4,
  cudaAtomicOperationAnd = 5,
  cudaAtomicOperationOr = 6,
  cudaAtomicOperationXOR = 7,
  cudaAtomicOperationExchange = 8,
  cudaAtomicOperationCAS = 9,
  cudaAtomicOperationFloatAdd = 10,
  cudaAtomicOperationFloatMin = 11,
  cudaAtomicOperationFloatMax = 12
};

enum cudaAtomicOperationCapability {
  cudaAtomicCapabilitySigned = 1u << 0,
  cudaAtomicCapabilityUnsigned = 1u << 1,
  cudaAtomicCapabilityReduction = 1u << 2,
  cudaAtomicCapabilityScalar32 = 1u << 3,
  cudaAtomicCapabilityScalar64 = 1u << 4,
  cudaAtomicCapabilityScalar128 = 1u << 5,
  cudaAtomicCapabilityVector32x4 = 1u << 6
};

/* CUDA's errors: cudaErrorInvalidDevice for a device out of range or a
 * device paired with itself, cudaErrorInvalidValue for a null array, a
 * count of 0 or an unknown operation. */
inline cudaError_t cudaDeviceGetP2PAtomicCapabilities(
    unsigned int *capabilities, const enum cudaAtomicOperation *operations,
    unsigned int count, int srcDevice, int dstDevice) {
  return static_cast<cudaError_t>(cuemu_rt_device_get_p2p_atomic_capabilities(
      capabilities, reinterpret_cast<const int *>(operations), count,
      srcDevice, dstDevice));
}

/* The host shares the device's memory: every form of every operation is
 * native (cudaDeviceGetHostAtomicCapabilities). */
inline cudaError_t cudaDeviceGetHostAtomicCapabilities(
    unsigned int *capabilities, const enum cudaAtomicOperation *operations,
    unsigned int count, int device) {
  return static_cast<cudaError_t>(cuemu_rt_device_get_host_atomic_capabilities(
      capabilities, reinterpret_cast<const int *>(operations), count, device));
}

#endif
