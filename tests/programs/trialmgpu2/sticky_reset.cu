// sticky_reset.cu (trial of public-style multi-GPU samples, issue 16).
// A kernel fault on one device: its error is sticky on that device only,
// the other device keeps working (kernels, copies, peer copies from the
// healthy device), cudaDeviceReset of the faulty device clears it and the
// program goes on; then cudaDeviceReset of a healthy device in the middle
// of the program, after which its old objects are gone and new ones work.
#include <vector>
#include "mg_check.h"
#include "graph_kernels.cuh"

__global__ void write_through(int *p, int v) { *p = v; }

int main() {
  mg_device_count(2);
  bool ok = true;
  const int N = 256;
  float *good = nullptr, *bad_dev_buf = nullptr;
  cudaStream_t s1;
  MG_CHECK(cudaSetDevice(0));
  MG_CHECK(cudaMalloc(&good, N * sizeof(float)));
  MG_CHECK(cudaSetDevice(1));
  MG_CHECK(cudaMalloc(&bad_dev_buf, N * sizeof(float)));
  MG_CHECK(cudaStreamCreate(&s1));

  // Fault on device 1.
  write_through<<<1, 1, 0, s1>>>((int *)0x10, 1);
  MG_CHECK(cudaGetLastError());  // the launch itself succeeded
  cudaError_t e = cudaStreamSynchronize(s1);
  std::printf("device 1 after fault: %s\n", cudaGetErrorName(e));
  ok = ok && e == cudaErrorIllegalAddress;
  MG_EXPECT(cudaMemset(bad_dev_buf, 0, 4), cudaErrorIllegalAddress);
  MG_EXPECT(cudaGetLastError(), cudaErrorIllegalAddress);  // sticky: not cleared
  MG_EXPECT(cudaPeekAtLastError(), cudaErrorIllegalAddress);

  // Device 0 is healthy (the thread's last error is the thread's: drained).
  MG_CHECK(cudaSetDevice(0));
  (void)cudaGetLastError();
  set_value<<<1, N>>>(good, 4.0f, N);
  MG_CHECK(cudaGetLastError());
  MG_CHECK(cudaDeviceSynchronize());
  float h = 0;
  MG_CHECK(cudaMemcpy(&h, good, sizeof h, cudaMemcpyDeviceToHost));
  ok = ok && h == 4.0f;
  // Selecting device 1 reports its error.
  e = cudaSetDevice(1);
  std::printf("cudaSetDevice(1): %s\n", cudaGetErrorName(e));
  ok = ok && e == cudaErrorIllegalAddress;
  int cur = -1;
  MG_CHECK(cudaGetDevice(&cur));
  ok = ok && cur == 1;

  // Reset device 1: the error goes, its memory and streams with it.
  MG_CHECK(cudaDeviceReset());
  MG_CHECK(cudaGetLastError());
  float *again = nullptr;
  MG_CHECK(cudaMalloc(&again, N * sizeof(float)));
  set_value<<<1, N>>>(again, 9.0f, N);
  MG_CHECK(cudaDeviceSynchronize());
  MG_CHECK(cudaMemcpy(&h, again, sizeof h, cudaMemcpyDeviceToHost));
  ok = ok && h == 9.0f;
  // The old allocation of device 1 is gone; device 0's is not.
  cudaPointerAttributes attr;
  e = cudaPointerGetAttributes(&attr, bad_dev_buf);
  std::printf("old device-1 pointer after reset: %s, type %d\n", cudaGetErrorName(e), (int)attr.type);
  (void)cudaGetLastError();
  MG_EXPECT(cudaStreamSynchronize(s1), cudaErrorInvalidResourceHandle);
  (void)cudaGetLastError();
  MG_CHECK(cudaPointerGetAttributes(&attr, good));
  ok = ok && attr.type == cudaMemoryTypeDevice && attr.device == 0;

  // Peer copy from the reset device into device 0's buffer.
  MG_CHECK(cudaMemcpyPeer(good, 0, again, 1, N * sizeof(float)));
  MG_CHECK(cudaSetDevice(0));
  MG_CHECK(cudaMemcpy(&h, good + N - 1, sizeof h, cudaMemcpyDeviceToHost));
  ok = ok && h == 9.0f;

  // Reset device 0 in the middle: its memory is freed, peer access is gone.
  MG_CHECK(cudaDeviceEnablePeerAccess(1, 0));
  MG_CHECK(cudaDeviceReset());
  MG_EXPECT(cudaFree(good), cudaErrorInvalidValue);
  (void)cudaGetLastError();
  MG_CHECK(cudaDeviceEnablePeerAccess(1, 0));  // a new context has no peer access
  float *fresh = nullptr;
  MG_CHECK(cudaMalloc(&fresh, N * sizeof(float)));
  MG_CHECK(cudaMemcpyPeer(fresh, 0, again, 1, N * sizeof(float)));
  MG_CHECK(cudaMemcpy(&h, fresh, sizeof h, cudaMemcpyDeviceToHost));
  ok = ok && h == 9.0f;
  MG_CHECK(cudaFree(fresh));
  MG_CHECK(cudaSetDevice(1));
  MG_CHECK(cudaFree(again));
  return mg_finish(ok, "sticky_reset");
}
