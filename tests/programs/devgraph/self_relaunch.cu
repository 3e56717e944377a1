// self_relaunch.cu: a device graph that tail launches itself
// (cudaGetCurrentGraphExec) until a counter reaches its limit, as the
// programming guide's relaunch loop does: launched once from the host, it
// runs limit + 1 times. Only one tail launch of itself may be pending, so
// a second one in the same run fails; a fire-and-forget launch of the
// graph while it runs fails with cudaErrorInvalidValue. A graph makes at
// most 120 fire-and-forget launches in one execution: of 121 launches of
// 121 executable graphs from one kernel, the last fails and 120 run, and
// the count starts afresh at the next launch of the graph.
// CUEMU_OPTIONS: -std=c++17 -rdc=true
// NVCC_OPTIONS: -rdc=true
#include "devgraph_kernels.cuh"

#define LIMIT 100
#define MANY 121

// Managed, not __device__: tracked memory, which schedule perturbation
// (CUEMU_CHECK_SCHEDULES=1, tests/programs_devgraph.sh) restores before
// it runs a grid again.
__managed__ int relaunch_count = 0;

// errors[0]: a second self tail launch in the first run; errors[1]: a
// fire-and-forget launch of the running graph.
__global__ void relaunch_self(int *errors) {
  if (threadIdx.x != 0 || blockIdx.x != 0)
    return;
  cudaGraphExec_t me = cudaGetCurrentGraphExec();
  if (relaunch_count < LIMIT) {
    cudaError_t e = cudaGraphLaunch(me, cudaStreamGraphTailLaunch);
    if (e != cudaSuccess)
      errors[2] = (int)e;
    if (relaunch_count == 0) {
      errors[0] = (int)cudaGraphLaunch(me, cudaStreamGraphTailLaunch);
      errors[1] = (int)cudaGraphLaunch(me, cudaStreamGraphFireAndForget);
    }
  }
  relaunch_count++;
}

__global__ void count_run(int *runs) { atomicAdd(runs, 1); }

// Launches execs[0..n) fire-and-forget; counts the refusals.
__global__ void launch_many(cudaGraphExec_t *execs, int n, int *refused) {
  if (threadIdx.x != 0 || blockIdx.x != 0)
    return;
  for (int i = 0; i < n; ++i)
    if (cudaGraphLaunch(execs[i], cudaStreamGraphFireAndForget) != cudaSuccess)
      atomicAdd(refused, 1);
}

int main() {
  cudaStream_t stream;
  RT(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  int *errors;
  RT(cudaMalloc(&errors, 3 * sizeof(int)));
  RT(cudaMemset(errors, 0, 3 * sizeof(int)));

  cudaGraph_t g;
  RT(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  relaunch_self<<<1, 32, 0, stream>>>(errors);
  RT(cudaStreamEndCapture(stream, &g));
  cudaGraphExec_t self;
  RT(cudaGraphInstantiate(&self, g, cudaGraphInstantiateFlagDeviceLaunch));
  // The host launch uploads the graph.
  RT(cudaGraphLaunch(self, stream));
  RT(cudaStreamSynchronize(stream));
  int count = 0, herrors[3];
  RT(cudaMemcpyFromSymbol(&count, relaunch_count, sizeof count));
  RT(cudaMemcpy(herrors, errors, sizeof herrors, cudaMemcpyDeviceToHost));
  CHECK(count == LIMIT + 1);
  CHECK(herrors[0] != (int)cudaSuccess);
  CHECK(herrors[1] == (int)cudaErrorInvalidValue);
  CHECK(herrors[2] == (int)cudaSuccess);

  // 121 executable graphs of one counting graph.
  int *runs, *refused;
  RT(cudaMalloc(&runs, sizeof(int)));
  RT(cudaMalloc(&refused, sizeof(int)));
  cudaGraph_t cg;
  RT(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  count_run<<<1, 1, 0, stream>>>(runs);
  RT(cudaStreamEndCapture(stream, &cg));
  cudaGraphExec_t hmany[MANY];
  for (int i = 0; i < MANY; ++i) {
    RT(cudaGraphInstantiate(&hmany[i], cg, cudaGraphInstantiateFlagDeviceLaunch));
    RT(cudaGraphUpload(hmany[i], stream));
  }
  cudaGraphExec_t *many;
  RT(cudaMalloc(&many, sizeof hmany));
  RT(cudaMemcpy(many, hmany, sizeof hmany, cudaMemcpyHostToDevice));
  cudaGraph_t lg;
  RT(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  launch_many<<<1, 32, 0, stream>>>(many, MANY, refused);
  RT(cudaStreamEndCapture(stream, &lg));
  cudaGraphExec_t launcher;
  RT(cudaGraphInstantiate(&launcher, lg, 0));
  for (int round = 0; round < 2; ++round) {
    RT(cudaMemset(runs, 0, sizeof(int)));
    RT(cudaMemset(refused, 0, sizeof(int)));
    RT(cudaGraphLaunch(launcher, stream));
    RT(cudaStreamSynchronize(stream));
    int hruns = 0, hrefused = 0;
    RT(cudaMemcpy(&hruns, runs, sizeof hruns, cudaMemcpyDeviceToHost));
    RT(cudaMemcpy(&hrefused, refused, sizeof hrefused,
                  cudaMemcpyDeviceToHost));
    CHECK(hruns == 120 && hrefused == 1);
  }

  for (int i = 0; i < MANY; ++i)
    RT(cudaGraphExecDestroy(hmany[i]));
  RT(cudaGraphExecDestroy(launcher));
  RT(cudaGraphExecDestroy(self));
  RT(cudaGraphDestroy(g));
  RT(cudaGraphDestroy(cg));
  RT(cudaGraphDestroy(lg));
  RT(cudaFree(errors));
  RT(cudaFree(runs));
  RT(cudaFree(refused));
  RT(cudaFree(many));
  RT(cudaStreamDestroy(stream));
  return finish();
}
