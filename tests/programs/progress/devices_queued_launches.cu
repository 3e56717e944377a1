// Launches on four emulated devices, one after the other from the host
// without waiting: on four GPUs they run side by side. The emulator runs
// them one after the other on its worker pool, so a launch waits for the
// others to end before any of its blocks starts. The watchdog must not take
// that wait for a hang: with a watchdog timeout (CUEMU_TIMEOUT) shorter
// than the launches before it, the last launch was reported as having run
// "without a block ending ... 0 of N blocks started" and the process ended
// (a four-GPU training exercise, trialolcf). The program sets four devices
// and a one-second timeout for itself; each launch computes for about half
// a second of processor time.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call)                                                        \
  do {                                                                     \
    cudaError_t err_ = (call);                                             \
    if (err_ != cudaSuccess) {                                             \
      printf("FAIL: %s: %s\n", #call, cudaGetErrorString(err_));           \
      return 1;                                                            \
    }                                                                      \
  } while (0)

enum { DEVICES = 4, TERMS = 40 };

// Each element is a short sum of exponentials, the same on every device
// but for a per-device offset.
__global__ void exp_sums(float *out, int n, int device) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float s = 0.0f;
    for (int k = 0; k < TERMS; ++k)
      s += expf(-0.01f * (float)((i + device) % 50 + k));
    out[i] = s;
  }
}

static float expected(int i, int device) {
  float s = 0.0f;
  for (int k = 0; k < TERMS; ++k)
    s += expf(-0.01f * (float)((i + device) % 50 + k));
  return s;
}

int main() {
  setenv("CUEMU_DEVICE", "count=4", 1);
  setenv("CUEMU_TIMEOUT", "1", 1);
  int count = 0;
  CHECK(cudaGetDeviceCount(&count));
  if (count != DEVICES) {
    printf("FAIL: %d devices, expected %d\n", count, DEVICES);
    return 1;
  }
  const int n = 1 << 20;
  float *out[DEVICES];
  for (int d = 0; d < DEVICES; ++d) {
    CHECK(cudaSetDevice(d));
    CHECK(cudaMalloc(&out[d], n * sizeof(float)));
  }
  for (int d = 0; d < DEVICES; ++d) {
    CHECK(cudaSetDevice(d));
    exp_sums<<<(n + 255) / 256, 256>>>(out[d], n, d);
    CHECK(cudaGetLastError());
  }
  float *host = (float *)malloc(n * sizeof(float));
  for (int d = 0; d < DEVICES; ++d) {
    CHECK(cudaSetDevice(d));
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(host, out[d], n * sizeof(float),
                     cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i += 997) {
      float want = expected(i, d);
      if (fabsf(host[i] - want) > 1e-4f * want) {
        printf("FAIL: device %d element %d: %g, expected %g\n", d, i,
               host[i], want);
        return 1;
      }
    }
  }
  free(host);
  printf("PASS\n");
  return 0;
}
