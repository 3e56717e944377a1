// managed_devices.cu (trial of public-style multi-GPU samples, issue 16).
// Unified memory on several devices, on the path each device allows: with
// concurrentManagedAccess, prefetches to each device, advice (read-mostly,
// preferred location, accessed-by) and range attributes; without it,
// allocations attached to a stream (cudaStreamAttachMemAsync) that the host
// touches only when that stream is idle, no prefetch.
#include <vector>
// Device 1 has no concurrent managed access.
#define MG_EMULATED_DEVICES "count=2,1:cma=0"
#include "mg_check.h"

__global__ void axpy_managed(float *y, const float *x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] += a * x[i];
}

static const int N = 1 << 12;

static bool run_device(int dev, float *x) {
  MG_CHECK(cudaSetDevice(dev));
  int cma = 0, pageable = 0, managed = 0;
  MG_CHECK(cudaDeviceGetAttribute(&cma, cudaDevAttrConcurrentManagedAccess, dev));
  MG_CHECK(cudaDeviceGetAttribute(&pageable, cudaDevAttrPageableMemoryAccess, dev));
  MG_CHECK(cudaDeviceGetAttribute(&managed, cudaDevAttrManagedMemory, dev));
  cudaDeviceProp prop;
  MG_CHECK(cudaGetDeviceProperties(&prop, dev));
  std::printf("device %d: managed %d concurrentManagedAccess %d (prop %d) pageable %d\n", dev, managed, cma,
              prop.concurrentManagedAccess, pageable);
  bool ok = managed == 1 && cma == prop.concurrentManagedAccess;
  cudaStream_t s;
  MG_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  float *y = nullptr;
  cudaMemLocation here = {};
  here.type = cudaMemLocationTypeDevice;
  here.id = dev;
  if (cma) {
    MG_CHECK(cudaMallocManaged(&y, N * sizeof(float)));
    for (int i = 0; i < N; ++i) y[i] = 1.0f;
    MG_CHECK(cudaMemAdvise(x, N * sizeof(float), cudaMemAdviseSetReadMostly, here));
    MG_CHECK(cudaMemAdvise(y, N * sizeof(float), cudaMemAdviseSetPreferredLocation, here));
    cudaMemLocation host = {};
    host.type = cudaMemLocationTypeHost;
    MG_CHECK(cudaMemAdvise(y, N * sizeof(float), cudaMemAdviseSetAccessedBy, host));
    MG_CHECK(cudaMemPrefetchAsync(y, N * sizeof(float), here, 0, s));
    MG_CHECK(cudaMemPrefetchAsync(x, N * sizeof(float), here, 0, s));
    int where = -7;
    MG_CHECK(cudaMemRangeGetAttribute(&where, sizeof where, cudaMemRangeAttributePreferredLocation, y,
                                      N * sizeof(float)));
    int last = -7;
    MG_CHECK(cudaMemRangeGetAttribute(&last, sizeof last, cudaMemRangeAttributeLastPrefetchLocation, y,
                                      N * sizeof(float)));
    ok = ok && where == dev && last == dev;
  } else {
    // Host-attached until given to the stream; no prefetch on this device.
    MG_CHECK(cudaMallocManaged(&y, N * sizeof(float), cudaMemAttachHost));
    for (int i = 0; i < N; ++i) y[i] = 1.0f;
    MG_CHECK(cudaStreamAttachMemAsync(s, y, 0, cudaMemAttachSingle));
    cudaError_t e = cudaMemPrefetchAsync(y, N * sizeof(float), here, 0, s);
    std::printf("device %d: prefetch without concurrent access gave %s\n", dev, cudaGetErrorName(e));
    ok = ok && e == cudaErrorInvalidDevice;
    (void)cudaGetLastError();
  }
  axpy_managed<<<N / 256, 256, 0, s>>>(y, x, 2.0f, N);
  MG_CHECK(cudaGetLastError());
  MG_CHECK(cudaStreamSynchronize(s));
  for (int i = 0; i < N; ++i)
    if (y[i] != 1.0f + 2.0f * x[i]) { std::printf("device %d: y[%d] = %g\n", dev, i, y[i]); ok = false; break; }
  MG_CHECK(cudaFree(y));
  MG_CHECK(cudaStreamDestroy(s));
  return ok;
}

int main() {
  int ndev = mg_device_count(2);
  float *x = nullptr;
  MG_CHECK(cudaMallocManaged(&x, N * sizeof(float)));
  for (int i = 0; i < N; ++i) x[i] = (float)(i % 9);
  bool ok = true;
  for (int d = 0; d < ndev; ++d) ok = run_device(d, x) && ok;
  // A managed variable allocated with the device that is current.
  cudaPointerAttributes a;
  MG_CHECK(cudaPointerGetAttributes(&a, x));
  ok = ok && a.type == cudaMemoryTypeManaged;
  MG_CHECK(cudaFree(x));
  return mg_finish(ok, "managed_devices");
}
