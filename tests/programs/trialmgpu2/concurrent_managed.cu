// concurrent_managed.cu: CUEMU_DEVICE's cma=0 makes a device without
// concurrentManagedAccess (nor pageable memory access), as on systems
// where the host must not touch managed memory while kernels run: its
// properties and attributes say 0 (device 1 here; device 0 keeps 1), and
// cudaMemPrefetchAsync to it, or on a stream of it (even to the host), is
// cudaErrorInvalidDevice, as CUDA requires both to have the attribute; a
// batched prefetch needs it on every device. Such programs take their
// other path: memory attached to a stream, synchronised before the host
// reads it. cuemu reported 1 for every device, so that path was never
// taken. Made for a trial program that runs both paths.
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

__global__ void twice(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] *= 2;
}

int main() {
  setenv("CUEMU_DEVICE", "count=2,1:cma=0", 1); // before the first CUDA call
  setenv("CUEMU_QUIET", "1", 1);
  int ok = 1;
  for (int d = 0; d < 2; ++d) {
    int cma = -1, pageable = -1;
    cudaDeviceProp p;
    CHECK(cudaDeviceGetAttribute(&cma, cudaDevAttrConcurrentManagedAccess, d));
    CHECK(cudaDeviceGetAttribute(&pageable, cudaDevAttrPageableMemoryAccess, d));
    CHECK(cudaGetDeviceProperties(&p, d));
    printf("device %d: concurrentManagedAccess %d/%d pageable %d\n", d, cma,
           p.concurrentManagedAccess, pageable);
    ok = ok && cma == (d == 0) && p.concurrentManagedAccess == cma &&
         pageable == cma;
  }
  const int n = 256;
  int *m = NULL;
  CHECK(cudaMallocManaged(&m, n * sizeof(int), cudaMemAttachHost));
  for (int i = 0; i < n; ++i)
    m[i] = i;
  cudaMemLocation dev0 = {cudaMemLocationTypeDevice, 0};
  cudaMemLocation dev1 = {cudaMemLocationTypeDevice, 1};
  cudaMemLocation host = {cudaMemLocationTypeHost, 0};
  cudaStream_t s0, s1;
  CHECK(cudaStreamCreate(&s0));
  CHECK(cudaMemPrefetchAsync(m, n * sizeof(int), dev0, 0, s0));
  cudaError_t to1 = cudaMemPrefetchAsync(m, n * sizeof(int), dev1, 0, s0);
  CHECK(cudaSetDevice(1));
  CHECK(cudaStreamCreate(&s1));
  cudaError_t on1 = cudaMemPrefetchAsync(m, n * sizeof(int), host, 0, s1);
  void *ptrs[1] = {m};
  size_t sizes[1] = {n * sizeof(int)};
  size_t first[1] = {0};
  cudaError_t batch =
      cudaMemPrefetchBatchAsync(ptrs, sizes, 1, &host, first, 1, 0, s0);
  (void)cudaGetLastError();
  printf("prefetch to device 1 %s, on its stream %s, batch %s\n",
         cudaGetErrorName(to1), cudaGetErrorName(on1), cudaGetErrorName(batch));
  ok = ok && to1 == cudaErrorInvalidDevice && on1 == cudaErrorInvalidDevice &&
       batch == cudaErrorInvalidDevice;
  // Device 1's path: the allocation attached to its stream.
  CHECK(cudaStreamAttachMemAsync(s1, m, 0, cudaMemAttachSingle));
  twice<<<1, n, 0, s1>>>(m, n);
  CHECK(cudaStreamSynchronize(s1));
  for (int i = 0; i < n; ++i)
    ok = ok && m[i] == 2 * i;
  CHECK(cudaStreamDestroy(s1));
  CHECK(cudaSetDevice(0));
  CHECK(cudaStreamDestroy(s0));
  CHECK(cudaFree(m));
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
