// devgraph_kernels.cuh: kernels and host helpers of the device graph launch
// tests: a kernel that appends its tag to a log and then launches graphs
// from the device, and a helper that captures one kernel launch into a
// graph instantiated for device launch.
#ifndef DEVGRAPH_KERNELS_CUH
#define DEVGRAPH_KERNELS_CUH

#include <cuda_runtime.h>

#include "../check.cuh"

#define RT(call) CHECK((call) == cudaSuccess)

// The device launch modes, as numbers a graph's kernel argument can hold.
enum LaunchMode { FIRE_AND_FORGET = 0, TAIL = 1, SIBLING = 2, PLAIN = 3 };

__device__ inline cudaStream_t mode_stream(int mode) {
  switch (mode) {
  case FIRE_AND_FORGET:
    return cudaStreamGraphFireAndForget;
  case TAIL:
    return cudaStreamGraphTailLaunch;
  case SIBLING:
    return cudaStreamGraphFireAndForgetAsSibling;
  default:
    return 0;
  }
}

// What one launch step does: append `tag` to the log, note the graph it
// runs in, then launch `count` graphs (execs[first + i] into modes[first +
// i]) and keep their errors in errors[first + i].
struct Step {
  int *log, *pos;
  cudaGraphExec_t *current; // current[tag]: cudaGetCurrentGraphExec()
  cudaGraphExec_t *execs;
  int *modes, *errors;
  int tag, first, count;
};

__global__ void step_kernel(Step s) {
  if (threadIdx.x != 0 || blockIdx.x != 0)
    return;
  s.log[atomicAdd(s.pos, 1)] = s.tag;
  s.current[s.tag] = cudaGetCurrentGraphExec();
  for (int i = s.first; i < s.first + s.count; ++i)
    s.errors[i] = (int)cudaGraphLaunch(s.execs[i], mode_stream(s.modes[i]));
}

// The graph of one step, captured from `stream`.
static inline cudaGraph_t step_graph(const Step &s, cudaStream_t stream) {
  cudaGraph_t g = nullptr;
  RT(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  step_kernel<<<1, 32, 0, stream>>>(s);
  RT(cudaStreamEndCapture(stream, &g));
  return g;
}

// A step's graph instantiated for device launch and uploaded.
static inline cudaGraphExec_t device_step(const Step &s, cudaStream_t stream) {
  cudaGraph_t g = step_graph(s, stream);
  cudaGraphExec_t e = nullptr;
  RT(cudaGraphInstantiate(&e, g, cudaGraphInstantiateFlagDeviceLaunch));
  RT(cudaGraphUpload(e, stream));
  RT(cudaGraphDestroy(g));
  return e;
}

#endif
