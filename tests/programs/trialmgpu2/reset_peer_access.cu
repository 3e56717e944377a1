// reset_peer_access.cu: cudaDeviceReset destroys the device's primary
// context, and the peer access it gave and was given goes with it: after
// resetting device 0, device 0 enables access to device 1 again
// (cudaSuccess, not cudaErrorPeerAccessAlreadyEnabled), and device 1,
// whose access to the old context of device 0 is gone, enables it again
// too; disabling a peer never enabled since is
// cudaErrorPeerAccessNotEnabled. cuemu kept the access across the reset.
// Reduced from a trial program that resets a device in the middle.
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t e_ = (call);                                                   \
    if (e_ != cudaSuccess) {                                                   \
      printf("%s:%d: %s: %s\n", __FILE__, __LINE__, #call,                     \
             cudaGetErrorString(e_));                                          \
      return 1;                                                                \
    }                                                                          \
  } while (0)

__global__ void read_peer(const int *p, int *out) { *out = *p; }

int main() {
  setenv("CUEMU_DEVICE", "count=3", 1); // before the first CUDA call
  setenv("CUEMU_QUIET", "1", 1);
  int *one = NULL, *zero = NULL;
  CHECK(cudaSetDevice(1));
  CHECK(cudaMalloc(&one, sizeof(int)));
  CHECK(cudaMemset(one, 0, sizeof(int)));
  CHECK(cudaDeviceEnablePeerAccess(0, 0));
  CHECK(cudaDeviceEnablePeerAccess(2, 0));
  CHECK(cudaSetDevice(0));
  CHECK(cudaDeviceEnablePeerAccess(1, 0));
  CHECK(cudaDeviceReset());
  // A new context of device 0: no peer access yet.
  cudaError_t again = cudaDeviceEnablePeerAccess(1, 0);
  cudaError_t off = cudaDeviceDisablePeerAccess(2);
  (void)cudaGetLastError();
  CHECK(cudaMalloc(&zero, sizeof(int)));
  read_peer<<<1, 1>>>(one, zero);
  CHECK(cudaDeviceSynchronize());
  // Device 1's access to the old context of device 0 went with it; its
  // access to device 2 stays.
  CHECK(cudaSetDevice(1));
  cudaError_t from1 = cudaDeviceEnablePeerAccess(0, 0);
  cudaError_t to2 = cudaDeviceEnablePeerAccess(2, 0);
  (void)cudaGetLastError();
  printf("after reset: 0->1 %s, disable 0->2 %s, 1->0 %s, 1->2 %s\n",
         cudaGetErrorName(again), cudaGetErrorName(off),
         cudaGetErrorName(from1), cudaGetErrorName(to2));
  int ok = again == cudaSuccess && off == cudaErrorPeerAccessNotEnabled &&
           from1 == cudaSuccess && to2 == cudaErrorPeerAccessAlreadyEnabled;
  CHECK(cudaFree(one));
  CHECK(cudaSetDevice(0));
  CHECK(cudaFree(zero));
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
