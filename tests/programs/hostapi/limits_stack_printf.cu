/*
 * limits_stack_printf.cu: limits that change what a program sees.
 * - cudaLimitStackSize: a deep recursion with a 1 KiB frame runs with a
 *   256 KiB stack and overflows with CUDA's default of 1 KiB (then the
 *   error is sticky, so that case comes last).
 * - cudaLimitPrintfFifoSize: a kernel printing more than the FIFO holds
 *   loses records (whole ones, never a part of one), and the output of a
 *   launch is printed when the host synchronises, not before.
 * - The other limits are kept and read back, rounded as CUDA rounds them.
 * The program's stdout is checked by the program itself: it runs itself
 * again as a child with its output in a pipe. Prints PASS when all is well.
 */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include <cuda_runtime.h>

#include "../check.cuh"

/* Each level keeps a 1 KiB array alive across the recursive call. */
__device__ int descend(int depth, int seed) {
  volatile char frame[1024];
  for (int i = 0; i < 1024; i += 64)
    frame[i] = static_cast<char>(seed + i);
  int below = depth > 0 ? descend(depth - 1, seed + 1) : 0;
  return below + frame[64 * (seed & 15)];
}

__global__ void recurse(int depth, int *out) {
  out[threadIdx.x] = descend(depth, static_cast<int>(threadIdx.x));
}

/* Every thread prints one line of the same length. */
__global__ void chatter(int tag) {
  printf("line %03d of launch %d\n", threadIdx.x, tag);
}

static int expected_recursion(int depth, int seed) {
  int sum = 0;
  for (int d = depth; d >= 0; --d, ++seed)
    sum += static_cast<signed char>(seed + 64 * (seed & 15));
  return sum;
}

/* The child: prints, synchronising where the parent expects lines. */
static int child() {
  CHECK(cudaDeviceSetLimit(cudaLimitPrintfFifoSize, 1 << 20) == cudaSuccess);
  chatter<<<1, 4>>>(1);
  std::printf("host after launch 1\n");
  std::fflush(stdout);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  std::printf("host after sync 1\n");
  std::fflush(stdout);
  /* The FIFO cannot change once a kernel printed. */
  CHECK(cudaDeviceSetLimit(cudaLimitPrintfFifoSize, 4096) ==
        cudaErrorInvalidValue);
  CHECK(cudaDeviceReset() == cudaSuccess);
  /* A small FIFO: 256 lines do not fit in it. */
  CHECK(cudaDeviceSetLimit(cudaLimitPrintfFifoSize, 4096) == cudaSuccess);
  size_t fifo = 0;
  CHECK(cudaDeviceGetLimit(&fifo, cudaLimitPrintfFifoSize) == cudaSuccess &&
        fifo == 4096);
  chatter<<<1, 256>>>(2);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  std::fflush(stdout);
  return finish();
}

static int run_child(const char *self, std::string *out) {
  std::string command = std::string(self) + " child";
  FILE *p = popen(command.c_str(), "r");
  if (!p)
    return -1;
  char buf[256];
  while (std::fgets(buf, sizeof buf, p))
    *out += buf;
  return pclose(p);
}

int main(int argc, char **argv) {
  if (argc > 1 && std::strcmp(argv[1], "child") == 0)
    return child();

  /* The printf FIFO, seen from outside. */
  std::string out;
  CHECK(run_child(argv[0], &out) == 0);
  size_t launch1 = out.find("line 000 of launch 1");
  size_t host1 = out.find("host after launch 1");
  size_t sync1 = out.find("host after sync 1");
  CHECK(host1 != std::string::npos && launch1 != std::string::npos &&
        sync1 != std::string::npos);
  CHECK(host1 < launch1 && launch1 < sync1);
  int lines = 0, broken = 0;
  for (size_t at = out.find("of launch 2"); at != std::string::npos;
       at = out.find("of launch 2", at + 1)) {
    ++lines;
    /* Each record is whole: "line NNN of launch 2\n". */
    if (at < 9 || out.compare(at - 9, 5, "line ") != 0)
      ++broken;
  }
  CHECK(lines > 0 && lines < 256);
  CHECK(broken == 0);
  CHECK(out.find("PASS") != std::string::npos);

  /* The other limits are kept, and rounded as CUDA rounds them. */
  size_t v = 0;
  CHECK(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 32 << 20) == cudaSuccess);
  CHECK(cudaDeviceGetLimit(&v, cudaLimitMallocHeapSize) == cudaSuccess &&
        v == (32u << 20));
  /* The sync depth bounds device-side cudaDeviceSynchronize(), which
   * sm_90 does not have: CUDA refuses the limit there. */
  CHECK(cudaDeviceSetLimit(cudaLimitDevRuntimeSyncDepth, 4) ==
        cudaErrorUnsupportedLimit);
  CHECK(cudaGetLastError() == cudaErrorUnsupportedLimit);
  CHECK(cudaDeviceGetLimit(&v, cudaLimitDevRuntimeSyncDepth) ==
        cudaErrorUnsupportedLimit);
  CHECK(cudaGetLastError() == cudaErrorUnsupportedLimit);
  CHECK(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, 4096) ==
        cudaSuccess);
  CHECK(cudaDeviceGetLimit(&v, cudaLimitDevRuntimePendingLaunchCount) ==
            cudaSuccess &&
        v == 4096);
  CHECK(cudaDeviceSetLimit(cudaLimitMaxL2FetchGranularity, 40) ==
        cudaSuccess);
  CHECK(cudaDeviceGetLimit(&v, cudaLimitMaxL2FetchGranularity) ==
            cudaSuccess &&
        v == 64);
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0) == cudaSuccess);
  CHECK(prop.persistingL2CacheMaxSize > 0);
  CHECK(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize,
                           prop.persistingL2CacheMaxSize) == cudaSuccess);
  CHECK(cudaDeviceGetLimit(&v, cudaLimitPersistingL2CacheSize) ==
            cudaSuccess &&
        v == static_cast<size_t>(prop.persistingL2CacheMaxSize));
  CHECK(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize,
                           prop.persistingL2CacheMaxSize + 1) ==
        cudaErrorInvalidValue);
  CHECK(cudaCtxResetPersistingL2Cache() == cudaSuccess);
  CHECK(cudaDeviceSetLimit(static_cast<cudaLimit>(99), 1) ==
        cudaErrorUnsupportedLimit);
  cudaGetLastError();

  /* The stack: 100 levels of 1 KiB need about 100 KiB. */
  const int depth = 100, threads = 32;
  int *out_d = nullptr;
  CHECK(cudaMalloc(&out_d, threads * sizeof(int)) == cudaSuccess);
  CHECK(cudaDeviceSetLimit(cudaLimitStackSize, 256 << 10) == cudaSuccess);
  CHECK(cudaDeviceGetLimit(&v, cudaLimitStackSize) == cudaSuccess &&
        v == (256u << 10));
  recurse<<<2, threads>>>(depth, out_d);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  int got[threads];
  CHECK(cudaMemcpy(got, out_d, sizeof got, cudaMemcpyDeviceToHost) ==
        cudaSuccess);
  for (int t = 0; t < threads; ++t)
    CHECK(got[t] == expected_recursion(depth, t));
  /* Below what it needs, the recursion overflows the stack. */
  CHECK(cudaDeviceSetLimit(cudaLimitStackSize, 1024) == cudaSuccess);
  recurse<<<2, threads>>>(depth, out_d);
  cudaError_t e = cudaDeviceSynchronize();
  CHECK(e == cudaErrorHardwareStackError || e == cudaErrorIllegalAddress ||
        e == cudaErrorLaunchFailure);
  CHECK(cudaDeviceReset() == cudaSuccess);
  CHECK(cudaDeviceGetLimit(&v, cudaLimitStackSize) == cudaSuccess &&
        v == 1024);
  return finish();
}
