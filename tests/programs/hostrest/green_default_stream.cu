/*
 * green_default_stream.cu: a kernel launched into the default stream
 * while a green context's context is current (cuCtxFromGreenCtx,
 * cuCtxSetCurrent) runs on the green context's SMs only, as its streams'
 * kernels do: at most that many SMs' worth of its blocks are resident at
 * once (here 4 SMs of a 16-SM device, two blocks of 100 KiB of shared
 * memory per SM: at most 8 blocks at once, though each block waits up
 * to 20 ms, by clock64(), for 12 to be resident: a count of waits, which
 * cuemu's __nanosleep() makes short, once let blocks end before the others
 * started on a loaded machine). Checked with the runtime's <<<>>> and the
 * driver's cuLaunchKernel, with asynchronous streams and, in a child
 * process, with CUEMU_STREAMS=sync, where launches run when issued (cuemu
 * once ran those on the whole device). With the primary context current
 * again, the same launch reaches 12 resident blocks. CUEMU_DEVICE,
 * CUEMU_WORKERS and CUEMU_STREAMS are set before the first CUDA call; a
 * GPU ignores them. Prints PASS when all is well.
 */
// CUEMU_OPTIONS: -lcuda
// NVCC_OPTIONS: -lcuda
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <sys/wait.h>
#include <unistd.h>

#include "../check.cuh"

#define CU(call) CHECK((call) == CUDA_SUCCESS)

static const int kShared = 100 * 1024;

/* Counts the blocks resident at once in *peak: each block waits, at most
 * `cycles` clock cycles, for `target` blocks to be resident with it. */
__global__ void occupy(int *active, int *peak, int target, long long cycles) {
  extern __shared__ int scratch[];
  if (threadIdx.x == 0) {
    int now = atomicAdd(active, 1) + 1;
    atomicMax(peak, now);
    volatile int *seen = active;
    const long long start = clock64();
    while (*seen < target && clock64() - start < cycles)
      __nanosleep(1000);
    scratch[0] = now;
    atomicSub(active, 1);
  }
}

/* The peak of resident blocks of one launch into the default stream,
 * by the runtime (driver 0) or by cuLaunchKernel (driver 1). */
static int peak_of(int *counters, int target, int driver) {
  int khz = 0;
  CHECK(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, 0) == cudaSuccess);
  long long cycles = 20LL * khz; // 20 ms
  CHECK(cudaMemset(counters, 0, 2 * sizeof(int)) == cudaSuccess);
  if (driver) {
    CUfunction f;
    CHECK(cudaGetFuncBySymbol(&f, reinterpret_cast<const void *>(occupy)) ==
          cudaSuccess);
    int *active = counters, *peak = counters + 1;
    void *args[] = {&active, &peak, &target, &cycles};
    CU(cuLaunchKernel(f, 64, 1, 1, 32, 1, 1, kShared, nullptr, args,
                      nullptr));
  } else {
    occupy<<<64, 32, kShared>>>(counters, counters + 1, target, cycles);
    CHECK(cudaGetLastError() == cudaSuccess);
  }
  CU(cuCtxSynchronize());
  int host[2] = {-1, -1};
  CHECK(cudaMemcpy(host, counters, sizeof host, cudaMemcpyDeviceToHost) ==
        cudaSuccess);
  CHECK(host[0] == 0);
  return host[1];
}

static int run(const char *mode) {
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
  const unsigned part_sms = part.sm.smCount;
  CHECK(part_sms >= 4 && part_sms < whole.sm.smCount);
  CUdevResourceDesc desc;
  CU(cuDevResourceGenerateDesc(&desc, &part, 1));
  CUgreenCtx green;
  CU(cuGreenCtxCreate(&green, desc, dev, CU_GREEN_CTX_DEFAULT_STREAM));
  CUcontext green_ctx;
  CU(cuCtxFromGreenCtx(&green_ctx, green));

  CHECK(cudaFuncSetAttribute(occupy, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             kShared) == cudaSuccess);
  int per_sm = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, occupy, 32,
                                                      kShared) == cudaSuccess);
  CHECK(per_sm >= 1);
  const int most = per_sm * static_cast<int>(part_sms);
  int *counters;  // active, peak
  CHECK(cudaMalloc(&counters, 2 * sizeof(int)) == cudaSuccess);

  CU(cuCtxSetCurrent(green_ctx));
  int runtime_peak = peak_of(counters, most + 4, 0);
  int driver_peak = peak_of(counters, most + 4, 1);
  CHECK(runtime_peak >= 1 && runtime_peak <= most);
  CHECK(driver_peak >= 1 && driver_peak <= most);
  CU(cuCtxSetCurrent(primary));
  int device_peak = peak_of(counters, most + 4, 0);
  CHECK(device_peak > most);
  std::printf("%s streams: default-stream peaks %d (runtime) and %d "
              "(driver) in a green context of %u SMs (at most %d), %d "
              "outside it\n",
              mode, runtime_peak, driver_peak, part_sms, most, device_peak);
  CHECK(cudaFree(counters) == cudaSuccess);
  CU(cuGreenCtxDestroy(green));
  CU(cuDevicePrimaryCtxRelease(dev));
  return finish();
}

int main() {
  setenv("CUEMU_DEVICE", "sms=16", 1);
  setenv("CUEMU_WORKERS", "32", 1);
  std::fflush(stdout);
  pid_t child = fork();
  if (child == 0) {
    setenv("CUEMU_STREAMS", "sync", 1);
    // The child's own PASS line would count as the parent's: it says
    // whether it passed by its exit status alone.
    if (!std::freopen("/dev/null", "w", stdout))
      _exit(2);
    _exit(run("synchronous"));
  }
  int status = 0;
  CHECK(waitpid(child, &status, 0) == child && WIFEXITED(status) &&
        WEXITSTATUS(status) == 0);
  return run("asynchronous");
}
