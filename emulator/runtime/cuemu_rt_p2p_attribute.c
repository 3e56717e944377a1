/*
 * cuemu_rt_p2p_attribute.c: cudaDeviceGetP2PAttribute and, through the
 * driver's conversion of codes, cuDeviceGetP2PAttribute: the attributes of
 * the link between two emulated devices. The devices share the host's
 * memory, so every pair of distinct devices has the best link: rank 0,
 * peer access, native atomics and CUDA array access, as
 * cudaDeviceCanAccessPeer reports, and no partial atomics.
 */
#include <cuemu/cuemu_runtime.h>
#include <cuemu/cuemu_runtime_peer.h>

#include "runtime/cuemu_rt_internal.h"

/* cudaDeviceP2PAttr and CUdevice_P2PAttribute, which share their values. */
enum {
  P2P_PERFORMANCE_RANK = 1,
  P2P_ACCESS_SUPPORTED = 2,
  P2P_NATIVE_ATOMIC_SUPPORTED = 3,
  P2P_CUDA_ARRAY_ACCESS_SUPPORTED = 4,
  P2P_ONLY_PARTIAL_NATIVE_ATOMIC_SUPPORTED = 5
};

int cuemu_rt_device_get_p2p_attribute(int *value, int attribute, int src,
                                      int dst) {
  int count = 0;
  int code = cuemu_rt_get_device_count(&count);
  if (code)
    return code;
  /* CUDA's order of checks: the devices (a device paired with itself
   * included), then the value and the attribute. */
  if (src < 0 || src >= count || dst < 0 || dst >= count || src == dst)
    return cuemu_rt_error(cudaErrorInvalidDevice);
  if (!value || attribute < P2P_PERFORMANCE_RANK ||
      attribute > P2P_ONLY_PARTIAL_NATIVE_ATOMIC_SUPPORTED)
    return cuemu_rt_error(cudaErrorInvalidValue);
  int access = 0;
  code = cuemu_rt_device_can_access_peer(&access, src, dst);
  if (code)
    return code;
  *value = attribute == P2P_PERFORMANCE_RANK ||
                   attribute == P2P_ONLY_PARTIAL_NATIVE_ATOMIC_SUPPORTED
               ? 0
               : access;
  return cudaSuccess;
}
