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

#include "cuemu_peer_types.h"

/* CUDA's errors: cudaErrorInvalidDevice for a device out of range or a
 * device paired with itself, cudaErrorInvalidValue for a null value or an
 * unknown attribute (emulator/runtime/cuemu_rt_p2p_attribute.c). */
inline cudaError_t cudaDeviceGetP2PAttribute(int *value,
                                             enum cudaDeviceP2PAttr attrib,
                                             int srcDevice, int dstDevice) {
  return static_cast<cudaError_t>(cuemu_rt_device_get_p2p_attribute(
      value, static_cast<int>(attrib), srcDevice, dstDevice));
}


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
