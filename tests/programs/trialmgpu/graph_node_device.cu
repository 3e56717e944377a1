/*
 * graph_node_device.cu: a graph's kernel nodes run on the device that was
 * current when they were captured or added (CUDA runs a node in its
 * context), not on the device of the stream the graph is launched into:
 * a kernel captured from a stream of device 1, and one added by
 * cudaGraphAddKernelNode while device 1 is current, see device 1 from
 * cudaGetDevice when the graph is launched into a stream of device 0; one
 * added while device 0 is current sees device 0. cuemu ran every node on
 * the launch stream's device (memcheck then reported the device-1 kernel
 * writing device 1's memory without peer access). Reduced from a graph
 * spanning two devices.
 * CUEMU_OPTIONS: -rdc=true
 */
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

__global__ void where(int *out, int slot) {
  int device = -1;
  cudaGetDevice(&device);
  out[slot] = device;
}

int main() {
  setenv("CUEMU_DEVICE", "count=2", 1); // before the first CUDA call
  int *out;
  CHECK(cudaMallocManaged(&out, 3 * sizeof(int)));
  out[0] = out[1] = out[2] = -1;
  cudaStream_t s0, s1;
  cudaEvent_t fork, join;
  CHECK(cudaSetDevice(1));
  CHECK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
  CHECK(cudaEventCreateWithFlags(&join, cudaEventDisableTiming));
  CHECK(cudaSetDevice(0));
  CHECK(cudaStreamCreateWithFlags(&s0, cudaStreamNonBlocking));
  CHECK(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming));

  // Captured: device 1's stream joins device 0's capture.
  cudaGraph_t graph;
  CHECK(cudaStreamBeginCapture(s0, cudaStreamCaptureModeGlobal));
  CHECK(cudaEventRecord(fork, s0));
  CHECK(cudaStreamWaitEvent(s1, fork, 0));
  CHECK(cudaSetDevice(1));
  where<<<1, 1, 0, s1>>>(out, 0);
  CHECK(cudaEventRecord(join, s1));
  CHECK(cudaSetDevice(0));
  CHECK(cudaStreamWaitEvent(s0, join, 0));
  CHECK(cudaStreamEndCapture(s0, &graph));

  // Added by hand: on device 1, then on device 0.
  int slot1 = 1, slot2 = 2;
  void *args1[] = {&out, &slot1}, *args2[] = {&out, &slot2};
  cudaKernelNodeParams p = {};
  p.func = (void *)where;
  p.gridDim = dim3(1);
  p.blockDim = dim3(1);
  cudaGraphNode_t n1, n2;
  CHECK(cudaSetDevice(1));
  p.kernelParams = args1;
  CHECK(cudaGraphAddKernelNode(&n1, graph, NULL, 0, &p));
  CHECK(cudaSetDevice(0));
  p.kernelParams = args2;
  CHECK(cudaGraphAddKernelNode(&n2, graph, NULL, 0, &p));

  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  CHECK(cudaGraphLaunch(exec, s0));
  CHECK(cudaStreamSynchronize(s0));
  int ok = out[0] == 1 && out[1] == 1 && out[2] == 0;
  if (!ok)
    printf("devices seen: captured %d (want 1), added on 1: %d (want 1), "
           "added on 0: %d (want 0)\n",
           out[0], out[1], out[2]);
  int device = -1;
  CHECK(cudaGetDevice(&device));
  if (device != 0) {
    printf("the launch left device %d current\n", device);
    ok = 0;
  }
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(graph));
  CHECK(cudaFree(out));
  puts(ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
