// exec_two_streams.cu: CUDA orders each launch of an executable graph
// after the previous launch of the same graph, whatever its stream
// ("Each launch is ordered behind both any previous work in stream and any
// previous launches of graphExec"). A launch on a free stream waits for
// the launch queued behind a held stream: while the host holds the first
// stream, the second stream's launch does not run (its event stays
// pending, and every launch reads the flag raised), and the launches run
// one after the other in issue order (each appends to a log). Another
// executable graph of the same graph is not ordered with the first: it
// runs at once on a third stream. A kernel that does not run in a graph
// cannot launch a graph from the device (tests/programs/devgraph has the
// rest of device graph launch).
// CUEMU_OPTIONS: -std=c++17 -rdc=true
// NVCC_OPTIONS: -rdc=true
#include <cuda_runtime.h>

#include "../check.cuh"
#include "graphs16_kernels.cuh"

// log[pos++] = tag (one thread).
__global__ void append(int *log, int *pos, int tag) {
  if (threadIdx.x == 0 && blockIdx.x == 0)
    log[atomicAdd(pos, 1)] = tag;
}

// A device graph launch: result[0] says whether the kernel runs outside a
// device graph, result[1] is the launch's error.
__global__ void launch_from_device(cudaGraphExec_t exec, int *result) {
  if (threadIdx.x == 0 && blockIdx.x == 0) {
    result[0] = cudaGetCurrentGraphExec() == nullptr;
    result[1] = (int)cudaGraphLaunch(exec, cudaStreamGraphFireAndForget);
  }
}

int main() {
  RT(cudaSetDeviceFlags(cudaDeviceMapHost));
  cudaStream_t s1, s2, s3;
  RT(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
  RT(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
  RT(cudaStreamCreateWithFlags(&s3, cudaStreamNonBlocking));
  int *slots, *next, *log, *pos;
  RT(cudaMalloc(&slots, 16 * sizeof(int)));
  RT(cudaMalloc(&next, sizeof(int)));
  RT(cudaMalloc(&log, 16 * sizeof(int)));
  RT(cudaMalloc(&pos, sizeof(int)));
  RT(cudaMemset(slots, 0xff, 16 * sizeof(int)));
  RT(cudaMemset(next, 0, sizeof(int)));
  RT(cudaMemset(log, 0xff, 16 * sizeof(int)));
  RT(cudaMemset(pos, 0, sizeof(int)));

  Hold hold(5.0);
  // The graph, captured from a stream: note the flag, then append 1.
  cudaStream_t cs;
  RT(cudaStreamCreate(&cs));
  cudaGraph_t graph;
  RT(cudaStreamBeginCapture(cs, cudaStreamCaptureModeGlobal));
  note_flag<<<1, 32, 0, cs>>>(hold.dflag, slots, next);
  append<<<1, 32, 0, cs>>>(log, pos, 1);
  RT(cudaStreamEndCapture(cs, &graph));
  cudaGraphExec_t exec, other;
  RT(cudaGraphInstantiate(&exec, graph, 0));
  RT(cudaGraphInstantiate(&other, graph, 0));
  RT(cudaDeviceSynchronize());

  hold_until<<<1, 32, 0, s1>>>(hold.dflag);
  RT(cudaGraphLaunch(exec, s1)); // behind the hold
  RT(cudaGraphLaunch(exec, s2)); // behind exec's launch on s1
  append<<<1, 32, 0, s2>>>(log, pos, 2);
  cudaEvent_t done2, done3;
  RT(cudaEventCreate(&done2));
  RT(cudaEventCreate(&done3));
  RT(cudaEventRecord(done2, s2));
  RT(cudaGraphLaunch(exec, s1)); // after the launch on s2
  append<<<1, 32, 0, s1>>>(log, pos, 3);
  // Another executable graph is not ordered with exec.
  RT(cudaGraphLaunch(other, s3));
  RT(cudaEventRecord(done3, s3));
  if (!streams_run_inline()) {
    RT(cudaEventSynchronize(done3)); // s3 is not held
    CHECK(stays_pending(done2, 200)); // s2 waits for s1's launch
  }
  CHECK(hold.release()); // nothing above waited for the held stream
  RT(cudaDeviceSynchronize());

  int hslots[16], hnext = 0, hlog[16], hpos = 0;
  RT(cudaMemcpy(hslots, slots, sizeof hslots, cudaMemcpyDeviceToHost));
  RT(cudaMemcpy(&hnext, next, sizeof hnext, cudaMemcpyDeviceToHost));
  RT(cudaMemcpy(hlog, log, sizeof hlog, cudaMemcpyDeviceToHost));
  RT(cudaMemcpy(&hpos, pos, sizeof hpos, cudaMemcpyDeviceToHost));
  CHECK(hnext == 4 && hpos == 6);
  // `other` ran while the flag was down (except with CUEMU_STREAMS=sync,
  // where the flag is up from the start); exec's three launches after it
  // was raised.
  CHECK(hslots[0] == (streams_run_inline() ? 1 : 0));
  CHECK(hslots[1] == 1 && hslots[2] == 1 && hslots[3] == 1);
  // The log. With CUEMU_STREAMS=sync, which runs everything when issued,
  // in issue order: exec on s1, exec on s2, s2's kernel, exec on s1 again,
  // s1's kernel, `other`. Otherwise only what CUDA orders: `other` ran
  // before the release, then exec on s1 and exec on s2 (the first three
  // are 1); s2's kernel (2) and the third launch with s1's kernel after it
  // (1, then 3) are both free once the launch on s2 is done, in any order.
  const int want_sync[6] = {1, 1, 2, 1, 3, 1};
  int bad = 0;
  if (streams_run_inline()) {
    for (int i = 0; i < 6; ++i)
      bad += hlog[i] != want_sync[i];
  } else {
    int where[4] = {-1, -1, -1, -1}; // the last position of each tag
    for (int i = 0; i < 6; ++i)
      if (hlog[i] >= 1 && hlog[i] <= 3)
        where[hlog[i]] = i;
    bad = hlog[0] != 1 || hlog[1] != 1 || hlog[2] != 1 || where[2] < 3 ||
          where[1] < 3 || where[3] <= where[1];
  }
  CHECK(bad == 0);

  // Device graph launch from a kernel outside any graph: refused.
  cudaGraphExec_t device_exec = nullptr;
  RT(cudaGraphInstantiateWithFlags(&device_exec, graph,
                                   cudaGraphInstantiateFlagDeviceLaunch));
  RT(cudaGraphUpload(device_exec, cs));
  RT(cudaStreamSynchronize(cs));
  int *result, hresult[2] = {0, 0};
  RT(cudaMalloc(&result, sizeof hresult));
  launch_from_device<<<1, 32>>>(device_exec, result);
  RT(cudaMemcpy(hresult, result, sizeof hresult, cudaMemcpyDeviceToHost));
  CHECK(hresult[0] == 1 && hresult[1] != (int)cudaSuccess);
  RT(cudaFree(result));
  RT(cudaGraphExecDestroy(device_exec));

  RT(cudaGraphExecDestroy(exec));
  RT(cudaGraphExecDestroy(other));
  RT(cudaGraphDestroy(graph));
  RT(cudaEventDestroy(done2));
  RT(cudaEventDestroy(done3));
  RT(cudaFree(slots));
  RT(cudaFree(next));
  RT(cudaFree(log));
  RT(cudaFree(pos));
  RT(cudaStreamDestroy(cs));
  RT(cudaStreamDestroy(s1));
  RT(cudaStreamDestroy(s2));
  RT(cudaStreamDestroy(s3));
  RT(cudaGetLastError());
  return finish();
}
