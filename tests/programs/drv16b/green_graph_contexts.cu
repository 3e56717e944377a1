/*
 * green_graph_contexts.cu: a graph's kernel node keeps the context it was
 * made in, as CUDA's does (CUDA_KERNEL_NODE_PARAMS_v2's ctx: the context
 * the kernel runs in, NULL for the current one; a launch captured from a
 * stream: the stream's context). A graph holding nodes of two contexts of
 * one device (a green context of 4 of the device's 16 SMs, and the
 * primary context) runs each node on its own context's SMs, whatever the
 * stream the graph is launched into: a launch captured from a green
 * context's stream, a kernel node added while the green context is
 * current and one added with the green context in its ctx field have at
 * most 4 SMs' worth of blocks resident at once, also when the graph is
 * launched into an ordinary stream, while a node added in the primary
 * context has more than that, also when the graph is launched into the
 * green context's stream. cuemu once ran every node on the SMs of the
 * stream the graph was launched into. Each block waits a while for
 * `target` blocks to be resident with it (one more than 4 SMs hold), which
 * the whole device reaches. CUEMU_DEVICE and CUEMU_WORKERS (set before the
 * first CUDA call; a GPU ignores them) make the emulated device 16 SMs and
 * give a launch enough workers. Prints PASS when all is well.
 */
// CUEMU_OPTIONS: -lcuda
// NVCC_OPTIONS: -lcuda
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdlib>

#include "../check.cuh"

#define CU(call) CHECK((call) == CUDA_SUCCESS)

static const int kShared = 100 * 1024;
static const int kNodes = 4;

/* Counts the blocks resident at once in *peak: each block waits, at most
 * `spins` naps, for `target` blocks to be resident with it. */
__global__ void occupy(int *active, int *peak, int target, int spins) {
  extern __shared__ int scratch[];
  if (threadIdx.x == 0) {
    int now = atomicAdd(active, 1) + 1;
    atomicMax(peak, now);
    volatile int *seen = active;
    for (int i = 0; i < spins && *seen < target; ++i)
      __nanosleep(1000);
    scratch[0] = now;
    atomicSub(active, 1);
  }
}

int main() {
  setenv("CUEMU_DEVICE", "sms=16", 1);
  setenv("CUEMU_WORKERS", "40", 1);
  CU(cuInit(0));
  CUdevice dev;
  CU(cuDeviceGet(&dev, 0));
  CUcontext primary;
  CU(cuDevicePrimaryCtxRetain(&primary, dev));
  CU(cuCtxSetCurrent(primary));

  CUdevResource whole = {}, part = {};
  CU(cuDeviceGetDevResource(dev, &whole, CU_DEV_RESOURCE_TYPE_SM));
  unsigned one = 1;
  CU(cuDevSmResourceSplitByCount(&part, &one, &whole, nullptr,
                                 CU_DEV_SM_RESOURCE_SPLIT_IGNORE_SM_COSCHEDULING,
                                 4));
  CHECK(one == 1);
  const unsigned part_sms = part.sm.smCount;
  CHECK(part_sms >= 4 && part_sms <= whole.sm.smCount / 2);
  CUdevResourceDesc desc;
  CU(cuDevResourceGenerateDesc(&desc, &part, 1));
  CUgreenCtx green;
  CU(cuGreenCtxCreate(&green, desc, dev, CU_GREEN_CTX_DEFAULT_STREAM));
  CUcontext green_ctx;
  CU(cuCtxFromGreenCtx(&green_ctx, green));
  CUstream gs, ps;
  CU(cuGreenCtxStreamCreate(&gs, green, CU_STREAM_NON_BLOCKING, 0));
  CU(cuStreamCreate(&ps, CU_STREAM_NON_BLOCKING));
  cudaStream_t green_stream = reinterpret_cast<cudaStream_t>(gs);
  cudaStream_t plain_stream = reinterpret_cast<cudaStream_t>(ps);

  CHECK(cudaFuncSetAttribute(occupy, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             kShared) == cudaSuccess);
  int per_sm = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, occupy, 32,
                                                      kShared) == cudaSuccess);
  CHECK(per_sm >= 1);
  const int most = per_sm * static_cast<int>(part_sms);
  int target = most + 1;
  const unsigned blocks = static_cast<unsigned>(most + 1);
  // A node limited to the partition waits out its naps (each of its two
  // waves), long enough for its blocks to fill the partition; one on the
  // whole device stops waiting once all are resident, so it may wait
  // longer (a loaded machine starts its blocks slowly).
  int short_wait = 100000, long_wait = 400000;

  int *counters;  // active, then one peak per node
  CHECK(cudaMalloc(&counters, (1 + kNodes) * sizeof(int)) == cudaSuccess);
  int *peaks[kNodes];
  for (int i = 0; i < kNodes; ++i)
    peaks[i] = counters + 1 + i;

  // Node 0: a launch captured from the green context's stream.
  cudaGraph_t graph;
  CHECK(cudaStreamBeginCapture(green_stream, cudaStreamCaptureModeGlobal) ==
        cudaSuccess);
  occupy<<<blocks, 32, kShared, green_stream>>>(counters, peaks[0], target,
                                                short_wait);
  CHECK(cudaStreamEndCapture(green_stream, &graph) == cudaSuccess);
  cudaGraphNode_t last;
  size_t count = 1;
  CHECK(cudaGraphGetNodes(graph, &last, &count) == cudaSuccess);
  CHECK(count == 1);

  // Node 1: a kernel node added in the primary context.
  void *args1[] = {&counters, &peaks[1], &target, &long_wait};
  cudaKernelNodeParams params = {};
  params.func = reinterpret_cast<void *>(occupy);
  params.gridDim = dim3(blocks);
  params.blockDim = dim3(32);
  params.sharedMemBytes = kShared;
  params.kernelParams = args1;
  cudaGraphNode_t node;
  CHECK(cudaGraphAddKernelNode(&node, graph, &last, 1, &params) == cudaSuccess);
  last = node;

  // Node 2: a kernel node added while the green context is current.
  void *args2[] = {&counters, &peaks[2], &target, &short_wait};
  params.kernelParams = args2;
  CU(cuCtxSetCurrent(green_ctx));
  CHECK(cudaGraphAddKernelNode(&node, graph, &last, 1, &params) == cudaSuccess);
  CU(cuCtxSetCurrent(primary));
  last = node;

  // Node 3: a driver kernel node naming the green context in its ctx.
  cudaKernel_t kernel;
  CHECK(cudaGetKernel(&kernel, occupy) == cudaSuccess);
  void *args3[] = {&counters, &peaks[3], &target, &short_wait};
  CUDA_KERNEL_NODE_PARAMS_v2 dp = {};
  dp.kern = reinterpret_cast<CUkernel>(kernel);
  dp.ctx = green_ctx;
  dp.gridDimX = blocks;
  dp.gridDimY = dp.gridDimZ = 1;
  dp.blockDimX = 32;
  dp.blockDimY = dp.blockDimZ = 1;
  dp.sharedMemBytes = kShared;
  dp.kernelParams = args3;
  CUgraphNode dnode;
  CUgraphNode dlast = reinterpret_cast<CUgraphNode>(last);
  CU(cuGraphAddKernelNode(&dnode, reinterpret_cast<CUgraph>(graph), &dlast, 1,
                          &dp));

  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, graph, 0) == cudaSuccess);
  for (cudaStream_t s : {plain_stream, green_stream}) {
    CHECK(cudaMemset(counters, 0, (1 + kNodes) * sizeof(int)) == cudaSuccess);
    CHECK(cudaGraphLaunch(exec, s) == cudaSuccess);
    CHECK(cudaStreamSynchronize(s) == cudaSuccess);
    int host[1 + kNodes];
    CHECK(cudaMemcpy(host, counters, sizeof host, cudaMemcpyDeviceToHost) ==
          cudaSuccess);
    CHECK(host[0] == 0);
    std::printf("stream %s: peaks %d %d %d %d (4 SMs hold %d)\n",
                s == green_stream ? "green" : "plain", host[1], host[2],
                host[3], host[4], most);
    CHECK(host[1] >= 1 && host[1] <= most);
    CHECK(host[2] > most);
    CHECK(host[3] >= 1 && host[3] <= most);
    CHECK(host[4] >= 1 && host[4] <= most);
  }

  CHECK(cudaGraphExecDestroy(exec) == cudaSuccess);
  CHECK(cudaGraphDestroy(graph) == cudaSuccess);
  CHECK(cudaFree(counters) == cudaSuccess);
  CU(cuStreamDestroy(gs));
  CU(cuStreamDestroy(ps));
  CU(cuGreenCtxDestroy(green));
  CU(cuDevicePrimaryCtxRelease(dev));
  return finish();
}
