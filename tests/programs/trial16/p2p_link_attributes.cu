// p2p_link_attributes.cu: the topology query of multi-GPU programs
// (topologyQuery and the P2P samples): cudaDeviceGetP2PAttribute for every
// pair of three devices, then peer access enabled where the link reports
// it, and atomics over the link where it reports native atomics: each
// device adds into a counter that lives on device 0. cuemu once lacked
// cudaDeviceGetP2PAttribute (the program did not build). The errors are
// CUDA's: a device paired with itself or out of range is
// cudaErrorInvalidDevice; a null value or unknown attribute is
// cudaErrorInvalidValue.
#include <cstdlib>

#include "../check.cuh"

constexpr int kDevices = 3;

__global__ void add_to_peer(unsigned long long *counter, int times) {
  for (int i = 0; i < times; ++i)
    atomicAdd(counter, 1ull);
}

int main() {
  setenv("CUEMU_DEVICE", "count=3", 1); // before the first CUDA call
  int count = 0;
  CHECK(cudaGetDeviceCount(&count) == cudaSuccess && count == kDevices);
  if (count != kDevices)
    return finish();

  int links = 0;
  for (int a = 0; a < kDevices; ++a)
    for (int b = 0; b < kDevices; ++b) {
      if (a == b)
        continue;
      int access = -1, rank = -1, atomics = -1, arrays = -1, partial = -1;
      CHECK(cudaDeviceGetP2PAttribute(&access, cudaDevP2PAttrAccessSupported,
                                      a, b) == cudaSuccess);
      CHECK(cudaDeviceGetP2PAttribute(&rank, cudaDevP2PAttrPerformanceRank,
                                      a, b) == cudaSuccess);
      CHECK(cudaDeviceGetP2PAttribute(&atomics,
                                      cudaDevP2PAttrNativeAtomicSupported, a,
                                      b) == cudaSuccess);
      CHECK(cudaDeviceGetP2PAttribute(&arrays,
                                      cudaDevP2PAttrCudaArrayAccessSupported,
                                      a, b) == cudaSuccess);
      CHECK(cudaDeviceGetP2PAttribute(
                &partial, cudaDevP2PAttrOnlyPartialNativeAtomicSupported, a,
                b) == cudaSuccess);
      int can = -1;
      CHECK(cudaDeviceCanAccessPeer(&can, a, b) == cudaSuccess);
      // The attribute agrees with cudaDeviceCanAccessPeer.
      CHECK(access == can);
      CHECK(rank >= 0);
      CHECK(atomics == 0 || atomics == 1);
      CHECK(arrays == 0 || arrays == 1);
      CHECK(!(atomics && partial));
      links += access;
    }

  int value = 7;
  CHECK(cudaDeviceGetP2PAttribute(&value, cudaDevP2PAttrAccessSupported, 1,
                                  1) == cudaErrorInvalidDevice);
  CHECK(cudaGetLastError() == cudaErrorInvalidDevice);
  CHECK(cudaDeviceGetP2PAttribute(&value, cudaDevP2PAttrAccessSupported, 0,
                                  kDevices) == cudaErrorInvalidDevice);
  CHECK(cudaDeviceGetP2PAttribute(nullptr, cudaDevP2PAttrAccessSupported, 0,
                                  1) == cudaErrorInvalidValue);
  CHECK(cudaDeviceGetP2PAttribute(&value, static_cast<cudaDeviceP2PAttr>(99),
                                  0, 1) == cudaErrorInvalidValue);
  CHECK(value == 7);
  cudaGetLastError();

  // Devices whose link to device 0 has access and native atomics add into
  // device 0's counter.
  CHECK(cudaSetDevice(0) == cudaSuccess);
  unsigned long long *counter = nullptr;
  CHECK(cudaMalloc(&counter, sizeof *counter) == cudaSuccess);
  CHECK(cudaMemset(counter, 0, sizeof *counter) == cudaSuccess);
  unsigned long long expect = 0;
  for (int d = 1; d < kDevices; ++d) {
    int access = 0, atomics = 0;
    cudaDeviceGetP2PAttribute(&access, cudaDevP2PAttrAccessSupported, d, 0);
    cudaDeviceGetP2PAttribute(&atomics, cudaDevP2PAttrNativeAtomicSupported,
                              d, 0);
    if (!access || !atomics)
      continue;
    CHECK(cudaSetDevice(d) == cudaSuccess);
    CHECK(cudaDeviceEnablePeerAccess(0, 0) == cudaSuccess);
    add_to_peer<<<2, 64>>>(counter, 10);
    CHECK(cudaDeviceSynchronize() == cudaSuccess);
    expect += 2ull * 64 * 10;
  }
  CHECK(links == kDevices * (kDevices - 1));
  unsigned long long got = 0;
  CHECK(cudaSetDevice(0) == cudaSuccess);
  CHECK(cudaMemcpy(&got, counter, sizeof got, cudaMemcpyDeviceToHost) ==
        cudaSuccess);
  CHECK(got == expect && expect > 0);
  CHECK(cudaFree(counter) == cudaSuccess);
  return finish();
}
