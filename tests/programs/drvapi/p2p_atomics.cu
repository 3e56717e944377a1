// p2p_atomics.cu: cuDeviceGetP2PAtomicCapabilities and
// cudaDeviceGetP2PAtomicCapabilities (CUDA 13) on two emulated devices
// (CUEMU_DEVICE=count=2): the devices share the host's memory, so every
// form of every atomic operation is native over their link, as
// CU_DEVICE_P2P_ATTRIBUTE_NATIVE_ATOMIC_SUPPORTED says; and CUDA's errors
// for a device paired with itself, a device out of range, null arrays, a
// count of 0 and an unknown operation. cuDeviceGetHostAtomicCapabilities
// and cudaDeviceGetHostAtomicCapabilities answer the same for a device and
// the host. On a GPU system the answers are the link's; the program checks
// them only against each other there.
// CUEMU_OPTIONS: -lcuda
// NVCC_OPTIONS: -lcuda
#include <cstdlib>

#include <cuda.h>

#include "../check.cuh"

int main() {
  setenv("CUEMU_DEVICE", "count=2", 1); // before the first CUDA call
  CHECK(cuInit(0) == CUDA_SUCCESS);
  int count = 0;
  CHECK(cuDeviceGetCount(&count) == CUDA_SUCCESS);
  if (count < 2) {
    std::printf("needs two devices, has %d\nFAIL\n", count);
    return 1;
  }
  const CUatomicOperation ops[] = {
      CU_ATOMIC_OPERATION_INTEGER_ADD, CU_ATOMIC_OPERATION_INTEGER_MIN,
      CU_ATOMIC_OPERATION_INTEGER_MAX, CU_ATOMIC_OPERATION_INTEGER_INCREMENT,
      CU_ATOMIC_OPERATION_INTEGER_DECREMENT, CU_ATOMIC_OPERATION_AND,
      CU_ATOMIC_OPERATION_OR, CU_ATOMIC_OPERATION_XOR,
      CU_ATOMIC_OPERATION_EXCHANGE, CU_ATOMIC_OPERATION_CAS,
      CU_ATOMIC_OPERATION_FLOAT_ADD, CU_ATOMIC_OPERATION_FLOAT_MIN,
      CU_ATOMIC_OPERATION_FLOAT_MAX};
  const unsigned n = sizeof ops / sizeof ops[0];
  unsigned drv[n], rt[n];
  for (unsigned i = 0; i < n; ++i)
    drv[i] = rt[i] = 0xdeadu;
  CHECK(cuDeviceGetP2PAtomicCapabilities(drv, ops, n, 0, 1) == CUDA_SUCCESS);
  CHECK(cudaDeviceGetP2PAtomicCapabilities(
            rt, reinterpret_cast<const cudaAtomicOperation *>(ops), n, 0,
            1) == cudaSuccess);
  int native = -1, partial = -1;
  CHECK(cuDeviceGetP2PAttribute(
            &native, CU_DEVICE_P2P_ATTRIBUTE_NATIVE_ATOMIC_SUPPORTED, 0, 1) ==
        CUDA_SUCCESS);
  CHECK(cuDeviceGetP2PAttribute(
            &partial, CU_DEVICE_P2P_ATTRIBUTE_ONLY_PARTIAL_NATIVE_ATOMIC_SUPPORTED,
            0, 1) == CUDA_SUCCESS);
  const unsigned all =
      CU_ATOMIC_CAPABILITY_SIGNED | CU_ATOMIC_CAPABILITY_UNSIGNED |
      CU_ATOMIC_CAPABILITY_REDUCTION | CU_ATOMIC_CAPABILITY_SCALAR_32 |
      CU_ATOMIC_CAPABILITY_SCALAR_64 | CU_ATOMIC_CAPABILITY_SCALAR_128 |
      CU_ATOMIC_CAPABILITY_VECTOR_32x4;
  for (unsigned i = 0; i < n; ++i) {
    CHECK(drv[i] == rt[i]);
    CHECK((drv[i] & ~all) == 0);
#ifdef __CUEMU__
    // Emulated devices: every form is native.
    CHECK(drv[i] == all);
#endif
  }
#ifdef __CUEMU__
  CHECK(native == 1 && partial == 0);
#endif

  // The other direction, one operation.
  unsigned one = 0;
  CHECK(cuDeviceGetP2PAtomicCapabilities(&one, ops + 9, 1, 1, 0) ==
        CUDA_SUCCESS);
  CHECK(one == drv[9]);

  // CUDA's errors: the devices first, then the arrays, the count and the
  // operations.
  CHECK(cuDeviceGetP2PAtomicCapabilities(drv, ops, n, 1, 1) ==
        CUDA_ERROR_INVALID_DEVICE);
  CHECK(cuDeviceGetP2PAtomicCapabilities(drv, ops, n, 0, count) ==
        CUDA_ERROR_INVALID_DEVICE);
  CHECK(cuDeviceGetP2PAtomicCapabilities(nullptr, ops, n, 0, 1) ==
        CUDA_ERROR_INVALID_VALUE);
  CHECK(cuDeviceGetP2PAtomicCapabilities(drv, nullptr, n, 0, 1) ==
        CUDA_ERROR_INVALID_VALUE);
  CHECK(cuDeviceGetP2PAtomicCapabilities(drv, ops, 0, 0, 1) ==
        CUDA_ERROR_INVALID_VALUE);
  const CUatomicOperation bad[] = {CU_ATOMIC_OPERATION_AND,
                                   CU_ATOMIC_OPERATION_MAX};
  CHECK(cuDeviceGetP2PAtomicCapabilities(drv, bad, 2, 0, 1) ==
        CUDA_ERROR_INVALID_VALUE);
  CHECK(cudaDeviceGetP2PAtomicCapabilities(
            rt, reinterpret_cast<const cudaAtomicOperation *>(ops), n, 0,
            0) == cudaErrorInvalidDevice);
  CHECK(cudaGetLastError() == cudaErrorInvalidDevice);
  CHECK(cudaDeviceGetP2PAtomicCapabilities(nullptr, nullptr, 1, 0, 1) ==
        cudaErrorInvalidValue);
  CHECK(cudaGetLastError() == cudaErrorInvalidValue);

  // Between a device and the host (cudaDeviceGetHostAtomicCapabilities):
  // the host shares the emulated device's memory, so every form again;
  // the same errors, with one device.
  unsigned host_drv[n], host_rt[n];
  CHECK(cuDeviceGetHostAtomicCapabilities(host_drv, ops, n, 1) == CUDA_SUCCESS);
  CHECK(cudaDeviceGetHostAtomicCapabilities(
            host_rt, reinterpret_cast<const cudaAtomicOperation *>(ops), n,
            0) == cudaSuccess);
  for (unsigned i = 0; i < n; ++i) {
    CHECK((host_drv[i] & ~all) == 0);
#ifdef __CUEMU__
    CHECK(host_drv[i] == all && host_rt[i] == all);
#endif
  }
  CHECK(cuDeviceGetHostAtomicCapabilities(host_drv, ops, n, count) ==
        CUDA_ERROR_INVALID_DEVICE);
  CHECK(cuDeviceGetHostAtomicCapabilities(host_drv, bad, 2, 0) ==
        CUDA_ERROR_INVALID_VALUE);
  CHECK(cudaDeviceGetHostAtomicCapabilities(
            host_rt, reinterpret_cast<const cudaAtomicOperation *>(ops), 0,
            0) == cudaErrorInvalidValue);
  CHECK(cudaGetLastError() == cudaErrorInvalidValue);
  CHECK(cudaDeviceGetHostAtomicCapabilities(
            host_rt, reinterpret_cast<const cudaAtomicOperation *>(ops), n,
            -1) == cudaErrorInvalidDevice);
  CHECK(cudaGetLastError() == cudaErrorInvalidDevice);
  return finish();
}
