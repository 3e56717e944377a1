/*
 * cuemu_rt_p2p_attribute.c: cudaDeviceGetP2PAttribute and, through the
 * driver's conversion of codes, cuDeviceGetP2PAttribute: the attributes of
 * the link between two emulated devices. The devices share the host's
 * memory, so every pair of distinct devices has the best link: rank 0,
 * peer access, native atomics and CUDA array access, as
 * cudaDeviceCanAccessPeer reports, and no partial atomics. Its atomics
 * are the host's, on the memory both devices use, so each CUDA-valid
 * atomic operation is native over it in every form
 * (cudaDeviceGetP2PAtomicCapabilities, cuDeviceGetP2PAtomicCapabilities).
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

/* cudaAtomicOperation and CUatomicOperation (which share their values):
 * integer add to float max, 0 to 12. */
enum { ATOMIC_OPERATION_COUNT = 13 };

/* Every cudaAtomicOperationCapability (CUatomicOperationCapability):
 * signed, unsigned, reduction, 32, 64 and 128-bit scalars, 32x4 vectors. */
enum { ATOMIC_CAPABILITIES_ALL = 0x7f };

/* Every form of each of the `count` operations, after CUDA's checks of the
 * arrays, the count and each operation (cudaErrorInvalidValue). */
static int all_capabilities(unsigned *capabilities, const int *operations,
                            unsigned count) {
  if (!capabilities || !operations || count == 0)
    return cuemu_rt_error(cudaErrorInvalidValue);
  for (unsigned i = 0; i < count; ++i)
    if (operations[i] < 0 || operations[i] >= ATOMIC_OPERATION_COUNT)
      return cuemu_rt_error(cudaErrorInvalidValue);
  for (unsigned i = 0; i < count; ++i)
    capabilities[i] = ATOMIC_CAPABILITIES_ALL;
  return cudaSuccess;
}

int cuemu_rt_device_get_p2p_atomic_capabilities(unsigned *capabilities,
                                                const int *operations,
                                                unsigned count, int src,
                                                int dst) {
  int count_devices = 0;
  int code = cuemu_rt_get_device_count(&count_devices);
  if (code)
    return code;
  /* CUDA documents the devices' check first, then the arrays, the count
   * and each operation. */
  if (src < 0 || src >= count_devices || dst < 0 || dst >= count_devices ||
      src == dst)
    return cuemu_rt_error(cudaErrorInvalidDevice);
  return all_capabilities(capabilities, operations, count);
}

int cuemu_rt_device_get_host_atomic_capabilities(unsigned *capabilities,
                                                 const int *operations,
                                                 unsigned count, int device) {
  int count_devices = 0;
  int code = cuemu_rt_get_device_count(&count_devices);
  if (code)
    return code;
  if (device < 0 || device >= count_devices)
    return cuemu_rt_error(cudaErrorInvalidDevice);
  return all_capabilities(capabilities, operations, count);
}
