// graph_event_timing.cu: a pipeline graph built by hand whose stages are
// timed by event record nodes (cudaGraphAddEventRecordNode), with a host
// node that consumes each launch's result, as profiling wrappers do. A
// second graph on another stream waits for the first through an event wait
// node. Between launches the executable graph's record nodes are pointed at
// a second set of events (cudaGraphExecEventRecordNodeSetEvent) so that two
// launches in flight are timed separately.
#include <cstring>
#include <vector>
#include "samp_check.h"

__global__ void stageSquare(const int *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * in[i];
}
__global__ void stageSum(const int *in, unsigned long long *sum, int n) {
  __shared__ unsigned long long part[128];
  unsigned long long v = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    v += in[i];
  part[threadIdx.x] = v;
  __syncthreads();
  for (int s = 64; s > 0; s >>= 1) {
    if (threadIdx.x < s) part[threadIdx.x] += part[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(sum, part[0]);
}

struct HostLog {
  unsigned long long *pinnedSum;
  std::vector<unsigned long long> seen;
};
static void CUDART_CB logResult(void *p) {
  HostLog *log = (HostLog *)p;
  log->seen.push_back(*log->pinnedSum);
}

int main() {
  const int n = 10000;
  int *d_in, *d_sq;
  unsigned long long *d_sum, *h_sum;
  checkCudaErrors(cudaMalloc(&d_in, n * sizeof(int)));
  checkCudaErrors(cudaMalloc(&d_sq, n * sizeof(int)));
  checkCudaErrors(cudaMalloc(&d_sum, sizeof(unsigned long long)));
  checkCudaErrors(cudaMallocHost(&h_sum, sizeof(unsigned long long)));
  std::vector<int> h_in(n);
  unsigned long long expect = 0;
  for (int i = 0; i < n; ++i) {
    h_in[i] = i % 101 - 50;
    expect += (unsigned long long)(h_in[i] * h_in[i]);
  }
  checkCudaErrors(cudaMemcpy(d_in, h_in.data(), n * sizeof(int), cudaMemcpyHostToDevice));

  cudaEvent_t ev[2][3];
  for (auto &set : ev)
    for (auto &e : set) checkCudaErrors(cudaEventCreate(&e));

  cudaGraph_t g;
  checkCudaErrors(cudaGraphCreate(&g, 0));
  cudaGraphNode_t recStart, memset, square, recMid, sum, recEnd, copy, host;
  checkCudaErrors(cudaGraphAddEventRecordNode(&recStart, g, nullptr, 0, ev[0][0]));
  cudaMemsetParams mp = {};
  mp.dst = d_sum;
  mp.value = 0;
  mp.elementSize = 4;
  mp.width = 2;
  mp.height = 1;
  checkCudaErrors(cudaGraphAddMemsetNode(&memset, g, &recStart, 1, &mp));
  int nn = n;
  void *sqArgs[] = {&d_in, &d_sq, &nn};
  cudaKernelNodeParams kp = {};
  kp.func = (void *)stageSquare;
  kp.gridDim = dim3((n + 127) / 128);
  kp.blockDim = dim3(128);
  kp.kernelParams = sqArgs;
  checkCudaErrors(cudaGraphAddKernelNode(&square, g, &recStart, 1, &kp));
  cudaGraphNode_t afterSquare[] = {square, memset};
  checkCudaErrors(cudaGraphAddEventRecordNode(&recMid, g, afterSquare, 2, ev[0][1]));
  void *sumArgs[] = {&d_sq, &d_sum, &nn};
  kp.func = (void *)stageSum;
  kp.gridDim = dim3(8);
  kp.kernelParams = sumArgs;
  checkCudaErrors(cudaGraphAddKernelNode(&sum, g, &recMid, 1, &kp));
  checkCudaErrors(cudaGraphAddEventRecordNode(&recEnd, g, &sum, 1, ev[0][2]));
  checkCudaErrors(cudaGraphAddMemcpyNode1D(&copy, g, &sum, 1, h_sum, d_sum,
                                           sizeof(unsigned long long),
                                           cudaMemcpyDeviceToHost));
  HostLog log{h_sum, {}};
  cudaHostNodeParams hp = {logResult, &log};
  checkCudaErrors(cudaGraphAddHostNode(&host, g, &copy, 1, &hp));

  cudaEvent_t got;
  checkCudaErrors(cudaGraphEventRecordNodeGetEvent(recMid, &got));
  bool ok = got == ev[0][1];

  // The consumer graph waits for the producer's end event.
  cudaGraph_t g2;
  cudaGraphNode_t waitNode, readBack;
  unsigned long long *h_copy;
  checkCudaErrors(cudaMallocHost(&h_copy, sizeof(unsigned long long)));
  checkCudaErrors(cudaGraphCreate(&g2, 0));
  checkCudaErrors(cudaGraphAddEventWaitNode(&waitNode, g2, nullptr, 0, ev[0][2]));
  checkCudaErrors(cudaGraphAddMemcpyNode1D(&readBack, g2, &waitNode, 1, h_copy, d_sum,
                                           sizeof(unsigned long long),
                                           cudaMemcpyDeviceToHost));

  cudaGraphExec_t exec, exec2;
  checkCudaErrors(cudaGraphInstantiate(&exec, g, 0));
  checkCudaErrors(cudaGraphInstantiate(&exec2, g2, 0));
  cudaStream_t s, s2;
  checkCudaErrors(cudaStreamCreate(&s));
  checkCudaErrors(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));

  checkCudaErrors(cudaGraphLaunch(exec, s));
  checkCudaErrors(cudaGraphLaunch(exec2, s2));
  checkCudaErrors(cudaStreamSynchronize(s2));
  ok = ok && *h_copy == expect;
  // Second launch timed by the second set of events.
  checkCudaErrors(cudaGraphExecEventRecordNodeSetEvent(exec, recStart, ev[1][0]));
  checkCudaErrors(cudaGraphExecEventRecordNodeSetEvent(exec, recMid, ev[1][1]));
  checkCudaErrors(cudaGraphExecEventRecordNodeSetEvent(exec, recEnd, ev[1][2]));
  checkCudaErrors(cudaGraphLaunch(exec, s));
  checkCudaErrors(cudaStreamSynchronize(s));

  for (int set = 0; set < 2; ++set) {
    float square_ms = -1, sum_ms = -1, total_ms = -1;
    checkCudaErrors(cudaEventElapsedTime(&square_ms, ev[set][0], ev[set][1]));
    checkCudaErrors(cudaEventElapsedTime(&sum_ms, ev[set][1], ev[set][2]));
    checkCudaErrors(cudaEventElapsedTime(&total_ms, ev[set][0], ev[set][2]));
    printf("launch %d: square %.3f ms, sum %.3f ms, total %.3f ms\n", set, square_ms,
           sum_ms, total_ms);
    ok = ok && square_ms >= 0 && sum_ms >= 0 &&
         total_ms + 1e-3f >= square_ms + sum_ms - 1e-3f;
    checkCudaErrors(cudaEventQuery(ev[set][2]));
  }
  // The first launch's events were not recorded again by the second.
  float between = 0;
  checkCudaErrors(cudaEventElapsedTime(&between, ev[0][2], ev[1][0]));
  ok = ok && between >= 0;
  ok = ok && log.seen.size() == 2 && log.seen[0] == expect && log.seen[1] == expect;
  printf("sum of squares %llu (expected %llu), host node ran %zu times\n", *h_sum, expect,
         log.seen.size());

  checkCudaErrors(cudaGraphExecDestroy(exec));
  checkCudaErrors(cudaGraphExecDestroy(exec2));
  checkCudaErrors(cudaGraphDestroy(g));
  checkCudaErrors(cudaGraphDestroy(g2));
  for (auto &set : ev)
    for (auto &e : set) checkCudaErrors(cudaEventDestroy(e));
  checkCudaErrors(cudaStreamDestroy(s));
  checkCudaErrors(cudaStreamDestroy(s2));
  return samp_result(ok, "graphEventTiming");
}
