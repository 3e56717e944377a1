/*
 * green_partition_launch.cu: a kernel launched into a stream of a green
 * context runs on the context's SMs only: at most that many SMs' worth of
 * its blocks are resident at once (here 4 SMs of a 16-SM device, two
 * blocks of 100 KiB of shared memory per SM: at most 8 blocks at once,
 * though each block waits a while for 12 to be resident, which a launch
 * into an ordinary stream reaches),
 * (green_graph_contexts.cu checks a graph's kernel nodes, which run in
 * the context they were made in); a cooperative launch larger than the partition holds is
 * cudaErrorCooperativeLaunchTooLarge, while the same launch in an
 * ordinary stream of the device runs. The queries give the partition.
 * cuemu once recorded the partition but ran a green context's kernels on
 * the whole device. CUEMU_DEVICE and CUEMU_WORKERS (set here before the
 * first CUDA call; a GPU ignores them) make the emulated device 16 SMs
 * and give the launch more workers than the partition may use. Prints
 * PASS when all is well.
 */
// CUEMU_OPTIONS: -lcuda
// NVCC_OPTIONS: -lcuda
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdlib>

#include "../check.cuh"

#define CU(call) CHECK((call) == CUDA_SUCCESS)

static const int kShared = 100 * 1024;

/* Counts the blocks resident at once in *peak: each block waits, a
 * bounded while, for `target` blocks to be resident with it. */
__global__ void occupy(int *active, int *peak, int target) {
  extern __shared__ int scratch[];
  if (threadIdx.x == 0) {
    int now = atomicAdd(active, 1) + 1;
    atomicMax(peak, now);
    volatile int *seen = active;
    for (int i = 0; i < 20000 && *seen < target; ++i)
      __nanosleep(1000);
    scratch[0] = now;
    atomicSub(active, 1);
  }
}

int main() {
  setenv("CUEMU_DEVICE", "sms=16", 1);
  setenv("CUEMU_WORKERS", "32", 1);
  CU(cuInit(0));
  CUdevice dev;
  CU(cuDeviceGet(&dev, 0));
  CUcontext primary;
  CU(cuDevicePrimaryCtxRetain(&primary, dev));
  CU(cuCtxSetCurrent(primary));
  int sms = 0;
  CU(cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev));

  CUdevResource whole = {}, part = {};
  CU(cuDeviceGetDevResource(dev, &whole, CU_DEV_RESOURCE_TYPE_SM));
  unsigned one = 1;
  CU(cuDevSmResourceSplitByCount(&part, &one, &whole, nullptr,
                                 CU_DEV_SM_RESOURCE_SPLIT_IGNORE_SM_COSCHEDULING,
                                 4));
  CHECK(one == 1);
  const unsigned part_sms = part.sm.smCount;
  CHECK(part_sms >= 4 && part_sms < static_cast<unsigned>(sms));
  CUdevResourceDesc desc;
  CU(cuDevResourceGenerateDesc(&desc, &part, 1));
  CUgreenCtx green;
  CU(cuGreenCtxCreate(&green, desc, dev, CU_GREEN_CTX_DEFAULT_STREAM));
  CUdevResource got = {};
  CU(cuGreenCtxGetDevResource(green, &got, CU_DEV_RESOURCE_TYPE_SM));
  CHECK(got.sm.smCount == part_sms);
  CUstream gs;
  CU(cuGreenCtxStreamCreate(&gs, green, CU_STREAM_NON_BLOCKING, 0));
  CUstream plain;
  CU(cuStreamCreate(&plain, CU_STREAM_NON_BLOCKING));

  CHECK(cudaFuncSetAttribute(occupy, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             kShared) == cudaSuccess);
  int per_sm = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, occupy, 32,
                                                      kShared) == cudaSuccess);
  CHECK(per_sm >= 1);
  const int most = per_sm * static_cast<int>(part_sms);

  int *counters;  // active, peak
  CHECK(cudaMalloc(&counters, 2 * sizeof(int)) == cudaSuccess);
  CHECK(cudaMemset(counters, 0, 2 * sizeof(int)) == cudaSuccess);
  cudaStream_t green_stream = reinterpret_cast<cudaStream_t>(gs);
  occupy<<<64, 32, kShared, green_stream>>>(counters, counters + 1, most + 4);
  CHECK(cudaGetLastError() == cudaSuccess);
  CHECK(cudaStreamSynchronize(green_stream) == cudaSuccess);
  int host[2] = {-1, -1};
  CHECK(cudaMemcpy(host, counters, sizeof host, cudaMemcpyDeviceToHost) ==
        cudaSuccess);
  CHECK(host[0] == 0);
  CHECK(host[1] >= 1 && host[1] <= most);

  // Cooperative: more blocks than the partition holds, fewer than the
  // device holds.
  int spin = 0;
  void *args[] = {&counters, &counters, &spin};
  dim3 grid(most + 1), block(32);
  CHECK(cudaLaunchCooperativeKernel((const void *)occupy, grid, block, args,
                                    kShared, green_stream) ==
        cudaErrorCooperativeLaunchTooLarge);
  CHECK(cudaGetLastError() == cudaErrorCooperativeLaunchTooLarge);
  cudaStream_t plain_stream = reinterpret_cast<cudaStream_t>(plain);
  CHECK(cudaLaunchCooperativeKernel((const void *)occupy, grid, block, args,
                                    kShared, plain_stream) == cudaSuccess);
  CHECK(cudaStreamSynchronize(plain_stream) == cudaSuccess);

  CHECK(cudaFree(counters) == cudaSuccess);
  CU(cuStreamDestroy(gs));
  CU(cuStreamDestroy(plain));
  CU(cuGreenCtxDestroy(green));
  CU(cuDevicePrimaryCtxRelease(dev));
  return finish();
}
