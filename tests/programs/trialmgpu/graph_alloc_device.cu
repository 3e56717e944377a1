// graph_alloc_device.cu: a graph memory allocation node makes its memory
// on the device its poolProps name (here device 1, while device 0 is
// current), cudaGraphMemAllocNodeGetParams reads that device back, and
// memcheck checks kernels against the node's accessDescs, not peer
// access, as CUDA does: device 0, given read-write access, copies out of
// it; without an access descriptor for device 0 the copy is stopped.
// cuemu made the memory on the current device (so the device-1 kernel was
// reported as touching device 0's memory without peer access) and read
// back device 0. Reduced from a graph spanning two devices.
// CUEMU_OPTIONS: --check=mem
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t e_ = (call);                                                   \
    if (e_ != cudaSuccess) {                                                   \
      printf("%s:%d: %s: %s\n", __FILE__, __LINE__, #call,                     \
             cudaGetErrorString(e_));                                          \
      return -1;                                                               \
    }                                                                          \
  } while (0)

__global__ void fill(int *p, int n, int v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] = v + i;
}

__global__ void copy(int *d, const int *s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] = s[i];
}

// Builds and runs alloc (device 1) -> fill (device 1) -> copy (device 0)
// -> free; device 0 gets access when `shared`. Returns the launch's
// status, or -1 when a step before it fails.
static int run(int shared, int *out, int n, int *device_read_back) {
  cudaGraph_t g;
  CHECK(cudaGraphCreate(&g, 0));
  cudaMemAllocNodeParams mp = {};
  mp.poolProps.allocType = cudaMemAllocationTypePinned;
  mp.poolProps.location.type = cudaMemLocationTypeDevice;
  mp.poolProps.location.id = 1;
  mp.bytesize = n * sizeof(int);
  cudaMemAccessDesc acc = {};
  acc.location.type = cudaMemLocationTypeDevice;
  acc.location.id = 0;
  acc.flags = cudaMemAccessFlagsProtReadWrite;
  mp.accessDescs = shared ? &acc : NULL;
  mp.accessDescCount = shared ? 1 : 0;
  cudaGraphNode_t alloc, k1, k2, fr;
  CHECK(cudaSetDevice(0));
  CHECK(cudaGraphAddMemAllocNode(&alloc, g, NULL, 0, &mp));
  cudaMemAllocNodeParams back;
  CHECK(cudaGraphMemAllocNodeGetParams(alloc, &back));
  *device_read_back = back.poolProps.location.id;
  int *buf = (int *)mp.dptr;
  int v = 5;
  void *a1[] = {&buf, &n, &v};
  cudaKernelNodeParams kp = {};
  kp.func = (void *)fill;
  kp.gridDim = dim3(n / 256);
  kp.blockDim = dim3(256);
  kp.kernelParams = a1;
  CHECK(cudaSetDevice(1));
  CHECK(cudaGraphAddKernelNode(&k1, g, &alloc, 1, &kp));
  CHECK(cudaSetDevice(0));
  void *a2[] = {&out, &buf, &n};
  kp.func = (void *)copy;
  kp.kernelParams = a2;
  CHECK(cudaGraphAddKernelNode(&k2, g, &k1, 1, &kp));
  CHECK(cudaGraphAddMemFreeNode(&fr, g, &k2, 1, buf));
  cudaGraphExec_t ex;
  CHECK(cudaGraphInstantiate(&ex, g, 0));
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  CHECK(cudaGraphLaunch(ex, s));
  int status = (int)cudaStreamSynchronize(s);
  cudaGetLastError();
  return status;
}

int main() {
#ifdef __CUEMU__
  /* Its memcheck reports are expected: they leave the exit status 0
   * (they count for it otherwise, docs/checkers.md). */
  setenv("CUEMU_CHECK_EXIT_STATUS", "0", 1);
#endif
#ifdef __CUEMU__
  setenv("CUEMU_DEVICE", "count=2", 1); // before the first CUDA call
  setenv("CUEMU_QUIET", "1", 1);
#endif
  const int n = 1024;
  int *out;
  CHECK(cudaSetDevice(0));
  CHECK(cudaMalloc(&out, n * sizeof(int)));
  int device = -1, ok = 1;
  int status = run(1, out, n, &device);
  int h[2] = {0, 0};
  if (status == cudaSuccess)
    CHECK(cudaMemcpy(h, out + 10, sizeof h, cudaMemcpyDeviceToHost));
  if (status != cudaSuccess || device != 1 || h[0] != 15 || h[1] != 16) {
    printf("shared: status %d, device read back %d, out %d %d\n", status,
           device, h[0], h[1]);
    ok = 0;
  }
#ifdef __CUEMU__
  // Without access for device 0, memcheck stops the copy (a GPU faults).
  status = run(0, out, n, &device);
  if (status == cudaSuccess) {
    printf("device 0 read graph memory of device 1 without access\n");
    ok = 0;
  }
#endif
  puts(ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
