// multi_device.cu: two emulated devices (CUEMU_DEVICE=count=2), used the
// way multi-GPU samples use them: the current device per host thread, one
// buffer and one stream per device, a pipeline of kernels joined by peer
// copies, peer access rules and their errors, pointer attributes naming
// the device, and a kernel fault that makes one device's error sticky while
// the other device keeps working.
#include <cstdlib>
#include <cstring>
#include <thread>

#include "../check.cuh"

template <typename T> __global__ void iota(T *p, int n, T start) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] = start + T(i);
}

template <typename T> __global__ void scale(T *p, int n, T factor) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] *= factor;
}

// Reads a buffer of another device (needs peer access on a GPU).
__global__ void add_from(float *dst, const float *peer, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    dst[i] += peer[i];
}

__global__ void wild_store(int *p) {
  if (threadIdx.x == 3)
    p[1 << 28] = 1; // far outside any allocation: an illegal address
}

static void check_peer_rules() {
  int can = -1;
  CHECK(cudaDeviceCanAccessPeer(&can, 0, 1) == cudaSuccess && can == 1);
  CHECK(cudaDeviceCanAccessPeer(&can, 1, 0) == cudaSuccess && can == 1);
  CHECK(cudaDeviceCanAccessPeer(&can, 0, 0) == cudaSuccess && can == 0);
  CHECK(cudaDeviceCanAccessPeer(&can, 0, 2) == cudaErrorInvalidDevice);
  CHECK(cudaSetDevice(0) == cudaSuccess);
  CHECK(cudaDeviceEnablePeerAccess(0, 0) == cudaErrorInvalidDevice);
  CHECK(cudaDeviceEnablePeerAccess(1, 7) == cudaErrorInvalidValue);
  CHECK(cudaDeviceDisablePeerAccess(1) == cudaErrorPeerAccessNotEnabled);
  CHECK(cudaDeviceEnablePeerAccess(1, 0) == cudaSuccess);
  CHECK(cudaDeviceEnablePeerAccess(1, 0) ==
        cudaErrorPeerAccessAlreadyEnabled);
  CHECK(cudaGetLastError() == cudaErrorPeerAccessAlreadyEnabled);
  CHECK(cudaGetLastError() == cudaSuccess);
}

int main() {
#ifdef __CUEMU__
  setenv("CUEMU_DEVICE", "count=2", 1); // before the first CUDA call
#endif
  int count = 0;
  CHECK(cudaGetDeviceCount(&count) == cudaSuccess);
  if (count < 2) {
    std::printf("needs two devices\n");
    return finish();
  }
  cudaDeviceProp p0, p1;
  CHECK(cudaGetDeviceProperties(&p0, 0) == cudaSuccess);
  CHECK(cudaGetDeviceProperties(&p1, 1) == cudaSuccess);
  CHECK(std::memcmp(&p0.uuid, &p1.uuid, sizeof p0.uuid) != 0);
  CHECK(cudaSetDevice(2) == cudaErrorInvalidDevice);
  cudaGetLastError();

  // The current device belongs to the host thread.
  CHECK(cudaSetDevice(1) == cudaSuccess);
  int other = -1;
  std::thread([&other] { cudaGetDevice(&other); }).join();
  CHECK(other == 0);
  int mine = -1;
  CHECK(cudaGetDevice(&mine) == cudaSuccess && mine == 1);

  // One buffer and one stream per device.
  const int n = 1 << 12;
  float *buf[2];
  cudaStream_t stream[2];
  for (int d = 0; d < 2; ++d) {
    CHECK(cudaSetDevice(d) == cudaSuccess);
    CHECK(cudaMalloc(&buf[d], n * sizeof(float)) == cudaSuccess);
    CHECK(cudaStreamCreate(&stream[d]) == cudaSuccess);
    cudaPointerAttributes attr;
    CHECK(cudaPointerGetAttributes(&attr, buf[d]) == cudaSuccess);
    CHECK(attr.type == cudaMemoryTypeDevice && attr.device == d);
  }
  // Attributes name the owner, whatever the current device.
  cudaPointerAttributes attr;
  CHECK(cudaPointerGetAttributes(&attr, buf[0]) == cudaSuccess &&
        attr.device == 0);

  // Device 0 makes the data, device 1 scales it after a peer copy.
  CHECK(cudaSetDevice(0) == cudaSuccess);
  iota<<<n / 256, 256, 0, stream[0]>>>(buf[0], n, 1.0f);
  CHECK(cudaStreamSynchronize(stream[0]) == cudaSuccess);
  CHECK(cudaMemcpyPeerAsync(buf[1], 1, buf[0], 0, n * sizeof(float),
                            stream[0]) == cudaSuccess);
  // The copy runs in stream[0]'s order: device 1's stream waits for it.
  CHECK(cudaStreamSynchronize(stream[0]) == cudaSuccess);
  CHECK(cudaSetDevice(1) == cudaSuccess);
  scale<<<n / 256, 256, 0, stream[1]>>>(buf[1], n, 3.0f);
  CHECK(cudaStreamSynchronize(stream[1]) == cudaSuccess);
  // A peer copy names the devices of its buffers.
  CHECK(cudaMemcpyPeer(buf[1], 0, buf[0], 0, 16) == cudaErrorInvalidValue);
  CHECK(cudaMemcpyPeer(buf[1], 1, buf[0], 5, 16) == cudaErrorInvalidDevice);
  cudaGetLastError();

  // With peer access, a kernel of device 0 reads device 1's buffer.
  check_peer_rules();
  add_from<<<n / 256, 256, 0, stream[0]>>>(buf[0], buf[1], n);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  float *host = new float[n];
  CHECK(cudaMemcpy(host, buf[0], n * sizeof(float), cudaMemcpyDeviceToHost) ==
        cudaSuccess);
  bool ok = true;
  for (int i = 0; i < n; ++i)
    ok = ok && host[i] == 4.0f * (1.0f + i);
  CHECK(ok);
  CHECK(cudaDeviceDisablePeerAccess(1) == cudaSuccess);

  // A fault on device 1 is sticky there, and only there.
  CHECK(cudaSetDevice(1) == cudaSuccess);
  int *ints = nullptr;
  CHECK(cudaMalloc(&ints, 64 * sizeof(int)) == cudaSuccess);
  wild_store<<<1, 32>>>(ints);
  CHECK(cudaDeviceSynchronize() == cudaErrorIllegalAddress);
  CHECK(cudaMalloc(&ints, 64) == cudaErrorIllegalAddress);
  CHECK(cudaSetDevice(0) == cudaSuccess);
  CHECK(cudaGetLastError() == cudaErrorIllegalAddress); // the thread's last
  CHECK(cudaGetLastError() == cudaSuccess);             // device 0 is fine
  float *more = nullptr;
  CHECK(cudaMalloc(&more, 64) == cudaSuccess);
  scale<<<n / 256, 256>>>(buf[0], n, 0.5f);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(cudaMemcpy(host, buf[0], sizeof(float), cudaMemcpyDeviceToHost) ==
        cudaSuccess);
  CHECK(host[0] == 2.0f);
  // Resetting device 1 clears its error and frees its memory only.
  // (Selecting it reports its error, but selects it.)
  CHECK(cudaSetDevice(1) == cudaErrorIllegalAddress);
  CHECK(cudaGetDevice(&mine) == cudaSuccess && mine == 1);
  CHECK(cudaDeviceReset() == cudaSuccess);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(cudaPointerGetAttributes(&attr, buf[1]) == cudaSuccess &&
        attr.type == cudaMemoryTypeUnregistered);
  CHECK(cudaPointerGetAttributes(&attr, buf[0]) == cudaSuccess &&
        attr.type == cudaMemoryTypeDevice && attr.device == 0);
  CHECK(cudaSetDevice(0) == cudaSuccess);
  CHECK(cudaFree(more) == cudaSuccess);
  CHECK(cudaFree(buf[0]) == cudaSuccess);
  CHECK(cudaStreamDestroy(stream[0]) == cudaSuccess);
  delete[] host;
  return finish();
}
