// graph_mem_footprint.cu (trial of public-style multi-GPU samples, issue 16).
// Graph memory nodes on two devices and the devices' graph memory
// footprint: allocation nodes added explicitly and captured, a free node,
// AutoFreeOnLaunch, cudaDeviceGetGraphMemAttribute before and after
// launches, cudaDeviceGraphMemTrim and resetting the high marks.
#include <vector>
#include <cstdint>
#include "mg_check.h"
#include "graph_kernels.cuh"

static const size_t kBytes = 4 << 20;
static const int N = (int)(kBytes / sizeof(float));

struct Footprint {
  uint64_t used, used_high, reserved, reserved_high;
};

static Footprint footprint(int dev) {
  Footprint f;
  MG_CHECK(cudaDeviceGetGraphMemAttribute(dev, cudaGraphMemAttrUsedMemCurrent, &f.used));
  MG_CHECK(cudaDeviceGetGraphMemAttribute(dev, cudaGraphMemAttrUsedMemHigh, &f.used_high));
  MG_CHECK(cudaDeviceGetGraphMemAttribute(dev, cudaGraphMemAttrReservedMemCurrent, &f.reserved));
  MG_CHECK(cudaDeviceGetGraphMemAttribute(dev, cudaGraphMemAttrReservedMemHigh, &f.reserved_high));
  return f;
}

static void show(const char *when, int dev) {
  Footprint f = footprint(dev);
  std::printf("%-28s dev %d: used %3llu MiB (high %3llu) reserved %3llu MiB (high %3llu)\n", when, dev,
              (unsigned long long)(f.used >> 20), (unsigned long long)(f.used_high >> 20),
              (unsigned long long)(f.reserved >> 20), (unsigned long long)(f.reserved_high >> 20));
}

int main() {
  mg_device_count(2);
  bool ok = true;
  float *result[2];
  cudaStream_t stream[2];
  for (int d = 0; d < 2; ++d) {
    MG_CHECK(cudaSetDevice(d));
    MG_CHECK(cudaMalloc(&result[d], sizeof(float)));
    MG_CHECK(cudaStreamCreateWithFlags(&stream[d], cudaStreamNonBlocking));
    Footprint f = footprint(d);
    ok = ok && f.used == 0 && f.reserved == 0;
  }

  // Device 0: explicit graph alloc -> set -> dot -> free.
  MG_CHECK(cudaSetDevice(0));
  cudaGraph_t g0;
  MG_CHECK(cudaGraphCreate(&g0, 0));
  cudaMemAllocNodeParams ap = {};
  ap.poolProps.allocType = cudaMemAllocationTypePinned;
  ap.poolProps.location.type = cudaMemLocationTypeDevice;
  ap.poolProps.location.id = 0;
  ap.bytesize = kBytes;
  cudaGraphNode_t alloc, set, dot, freen, clear;
  MG_CHECK(cudaGraphAddMemAllocNode(&alloc, g0, nullptr, 0, &ap));
  float *buf = (float *)ap.dptr;
  cudaMemsetParams mp = {};
  mp.dst = result[0];
  mp.elementSize = 4;
  mp.width = 1;
  mp.height = 1;
  mp.value = 0;
  MG_CHECK(cudaGraphAddMemsetNode(&clear, g0, nullptr, 0, &mp));
  float two = 2.0f;
  int n = N;
  void *set_args[] = {&buf, &two, &n};
  cudaKernelNodeParams kp = {};
  kp.func = (void *)set_value;
  kp.gridDim = dim3((N + 255) / 256);
  kp.blockDim = dim3(256);
  kp.kernelParams = set_args;
  MG_CHECK(cudaGraphAddKernelNode(&set, g0, &alloc, 1, &kp));
  void *dot_args[] = {&buf, &buf, &result[0], &n};
  kp.func = (void *)dot_atomic;
  kp.kernelParams = dot_args;
  cudaGraphNode_t dot_deps[] = {set, clear};
  MG_CHECK(cudaGraphAddKernelNode(&dot, g0, dot_deps, 2, &kp));
  MG_CHECK(cudaGraphAddMemFreeNode(&freen, g0, &dot, 1, buf));
  cudaMemAllocNodeParams back;
  MG_CHECK(cudaGraphMemAllocNodeGetParams(alloc, &back));
  ok = ok && back.bytesize == kBytes && back.dptr == buf;
  void *freed = nullptr;
  MG_CHECK(cudaGraphMemFreeNodeGetParams(freen, &freed));
  ok = ok && freed == buf;
  cudaGraphExec_t e0;
  MG_CHECK(cudaGraphInstantiate(&e0, g0, 0));
  show("instantiated", 0);
  ok = ok && footprint(0).used == 0;
  for (int l = 0; l < 3; ++l) MG_CHECK(cudaGraphLaunch(e0, stream[0]));
  MG_CHECK(cudaStreamSynchronize(stream[0]));
  show("launched x3 (freed inside)", 0);
  Footprint f0 = footprint(0);
  ok = ok && f0.reserved >= kBytes && f0.used_high >= kBytes;
  float r = 0;
  MG_CHECK(cudaMemcpy(&r, result[0], sizeof r, cudaMemcpyDeviceToHost));
  ok = ok && r == 4.0f * N;

  // Device 1: capture an allocation that outlives the graph (no free node),
  // instantiated with AutoFreeOnLaunch.
  MG_CHECK(cudaSetDevice(1));
  cudaGraph_t g1;
  float *kept = nullptr;
  MG_CHECK(cudaStreamBeginCapture(stream[1], cudaStreamCaptureModeThreadLocal));
  MG_CHECK(cudaMallocAsync(&kept, kBytes, stream[1]));
  set_value<<<(N + 255) / 256, 256, 0, stream[1]>>>(kept, 3.0f, N);
  MG_CHECK(cudaMemsetAsync(result[1], 0, sizeof(float), stream[1]));
  dot_atomic<<<(N + 255) / 256, 256, 0, stream[1]>>>(kept, kept, result[1], N);
  MG_CHECK(cudaStreamEndCapture(stream[1], &g1));
  cudaGraphExec_t e1;
  MG_EXPECT(cudaGraphInstantiateWithFlags(&e1, g1, cudaGraphInstantiateFlagAutoFreeOnLaunch), cudaSuccess);
  MG_CHECK(cudaGraphUpload(e1, stream[1]));
  show("uploaded", 1);
  MG_CHECK(cudaGraphLaunch(e1, stream[1]));
  MG_CHECK(cudaGraphLaunch(e1, stream[1]));  // frees the first launch's allocation
  MG_CHECK(cudaStreamSynchronize(stream[1]));
  show("launched x2, not freed", 1);
  Footprint f1 = footprint(1);
  ok = ok && f1.used >= kBytes;
  MG_CHECK(cudaMemcpy(&r, result[1], sizeof r, cudaMemcpyDeviceToHost));
  ok = ok && r == 9.0f * N;
  // The memory is used until freed outside the graph.
  MG_CHECK(cudaFreeAsync(kept, stream[1]));
  MG_CHECK(cudaStreamSynchronize(stream[1]));
  MG_CHECK(cudaDeviceGraphMemTrim(1));
  show("freed and trimmed", 1);
  f1 = footprint(1);
  std::printf("device 1 used after free %llu\n", (unsigned long long)f1.used);
  // Device 0's numbers are its own.
  Footprint f0b = footprint(0);
  ok = ok && f0b.reserved == f0.reserved;

  // Reset the high marks of device 0 after trimming it.
  MG_CHECK(cudaSetDevice(0));
  MG_CHECK(cudaDeviceGraphMemTrim(0));
  uint64_t zero64 = 0;
  MG_CHECK(cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh, &zero64));
  MG_CHECK(cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrReservedMemHigh, &zero64));
  show("trimmed, highs reset", 0);
  f0 = footprint(0);
  ok = ok && f0.used_high == f0.used && f0.reserved_high == f0.reserved;
  uint64_t bad = 5;
  MG_EXPECT(cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh, &bad), cudaErrorInvalidValue);
  (void)cudaGetLastError();
  MG_EXPECT(cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &zero64), cudaErrorInvalidValue);
  (void)cudaGetLastError();

  MG_CHECK(cudaGraphExecDestroy(e0));
  MG_CHECK(cudaGraphDestroy(g0));
  MG_CHECK(cudaSetDevice(1));
  MG_CHECK(cudaGraphExecDestroy(e1));
  MG_CHECK(cudaGraphDestroy(g1));
  for (int d = 0; d < 2; ++d) {
    MG_CHECK(cudaSetDevice(d));
    MG_CHECK(cudaFree(result[d]));
    MG_CHECK(cudaStreamDestroy(stream[d]));
    MG_CHECK(cudaDeviceGraphMemTrim(d));
    show("end", d);
  }
  return mg_finish(ok, "graph_mem_footprint");
}
