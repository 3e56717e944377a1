// stuck_and_failed.cu: what goes wrong in asynchronous streams is reported
// where CUDA reports it, and never hangs.
//  - A wait that nothing left can satisfy (the only host thread waits for
//    the stream, and no pending work writes the value): the
//    synchronisation fails with cudaErrorNotSupported at once, and the
//    stream's later work still runs.
//  - A kernel that faults runs after its launch returned cudaSuccess: the
//    synchronisation returns the error, which is sticky from then on.
//  - Kernel printf output is printed at the synchronisation, in launch
//    order, before what the host prints after it.
//  - A kernel that spins on memory nothing will write is reported by the
//    synchronisation that waits for it (after CUEMU_EXT_WAIT_SECONDS) with
//    cudaErrorLaunchTimeout, sticky as after a GPU's watchdog.
//  - A kernel that runs longer than CUEMU_EXT_WAIT_SECONDS while its blocks
//    keep ending is slow, not spinning: the synchronisation waits for it
//    (a grid of 8-thread blocks under every checker took 70 s that way).
// CUEMU_OPTIONS: -lcuda
// NVCC_OPTIONS: -lcuda
#include <cuda.h>
#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unistd.h>

#include "../check.cuh"
#include "async_kernels.cuh"

#define RT(call) CHECK((call) == cudaSuccess)
#define CU(call) CHECK((call) == CUDA_SUCCESS)

static CUdeviceptr dptr(const void *p) { return (CUdeviceptr)(uintptr_t)p; }

__global__ void say(int stage) {
  if (threadIdx.x == 0)
    printf("kernel stage %d\n", stage);
}

__global__ void bad_index(int *data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  /* An address in the first page, which nothing maps (256 MiB past the
   * allocation, as this test wrote before, may be another mapping of the
   * process: the run of a loaded machine found it writable). */
  int *nowhere = reinterpret_cast<int *>(static_cast<uintptr_t>(64)) +
                 (data != nullptr ? 0 : 1);
  if (i == 5)
    nowhere[n] = 1;
}

static void unsatisfiable_wait() {
  unsigned *flag;
  int *count;
  int *data;
  RT(cudaMalloc(&flag, sizeof(unsigned)));
  RT(cudaMalloc(&count, sizeof(int)));
  RT(cudaMalloc(&data, 64 * sizeof(int)));
  RT(cudaMemset(flag, 0, sizeof(unsigned)));
  RT(cudaMemset(count, 0, sizeof(int)));
  cudaStream_t s;
  RT(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  // Issuing the wait succeeds: it runs later, in the stream.
  CU(cuStreamWaitValue32((CUstream)s, dptr(flag), 3, CU_STREAM_WAIT_VALUE_EQ));
  fill<int><<<1, 64, 0, s>>>(data, 64, 2, 1);
  count_expected<int><<<1, 64, 0, s>>>(data, 64, 2, 1, count);
  auto t0 = std::chrono::steady_clock::now();
  CHECK(cudaStreamSynchronize(s) == cudaErrorNotSupported);
  double took = std::chrono::duration<double>(
                    std::chrono::steady_clock::now() - t0)
                    .count();
  CHECK(took < 5.0); // found, not timed out (CUEMU_EXT_WAIT_SECONDS is 60)
  CHECK(cudaGetLastError() == cudaErrorNotSupported);
  // The wait gave up; the work after it ran; the error is not sticky.
  int h = 0;
  RT(cudaMemcpy(&h, count, sizeof h, cudaMemcpyDeviceToHost));
  CHECK(h == 64);
  RT(cudaStreamSynchronize(s));
  RT(cudaStreamDestroy(s));
  RT(cudaFree(flag));
  RT(cudaFree(count));
  RT(cudaFree(data));
}

// Kernel output goes to a file for the time of the test.
static void printf_order() {
  char path[] = "/tmp/cuemu_async_printfXXXXXX";
  int fd = mkstemp(path);
  CHECK(fd >= 0);
  std::fflush(stdout);
  int saved = dup(1);
  dup2(fd, 1);
  cudaStream_t s;
  RT(cudaStreamCreate(&s));
  say<<<1, 32, 0, s>>>(1);
  say<<<1, 32, 0, s>>>(2);
  say<<<1, 32>>>(3);
  RT(cudaDeviceSynchronize());
  std::printf("host after sync\n");
  std::fflush(stdout);
  dup2(saved, 1);
  close(saved);
  RT(cudaStreamDestroy(s));
  char text[256] = "";
  ssize_t got = pread(fd, text, sizeof text - 1, 0);
  close(fd);
  unlink(path);
  CHECK(got > 0);
  CHECK(std::strcmp(text, "kernel stage 1\nkernel stage 2\nkernel stage 3\n"
                          "host after sync\n") == 0);
}

static void sticky_fault() {
  int *data;
  RT(cudaMalloc(&data, 16 * sizeof(int)));
  cudaStream_t s;
  RT(cudaStreamCreate(&s));
  bad_index<<<1, 32, 0, s>>>(data, 16);
  CHECK(cudaGetLastError() == cudaSuccess); // the launch itself is fine
  cudaError_t e = cudaStreamSynchronize(s);
  CHECK(e == cudaErrorIllegalAddress);
  CHECK(cudaDeviceSynchronize() == e);
  CHECK(cudaMemset(data, 0, 4) == e);
  say<<<1, 1, 0, s>>>(9);
  CHECK(cudaGetLastError() == e);
  RT(cudaDeviceReset());
  RT(cudaMalloc(&data, 4));
  RT(cudaFree(data));
}

// Each block's one thread iterates a recurrence `steps` times: a block
// computes for tens of milliseconds, and ends.
__global__ void slow_blocks(float *out, int steps) {
  float x = 1.0f + blockIdx.x;
  for (int i = 0; i < steps; ++i)
    x = x * 0.999999f + 1e-6f;
  out[blockIdx.x] = x;
}

static void slow_kernel() {
  setenv("CUEMU_EXT_WAIT_SECONDS", "1", 1);
  const int blocks = 64;
  float *out;
  RT(cudaMalloc(&out, blocks * sizeof(float)));
  RT(cudaMemset(out, 0, blocks * sizeof(float)));
  auto t0 = std::chrono::steady_clock::now();
  slow_blocks<<<blocks, 1>>>(out, 25 * 1000 * 1000);
  RT(cudaDeviceSynchronize());
  double took = std::chrono::duration<double>(
                    std::chrono::steady_clock::now() - t0)
                    .count();
  float h[blocks];
  RT(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
  int written = 0;
  for (int b = 0; b < blocks; ++b)
    written += h[b] > 0.5f;
  CHECK(written == blocks);
  RT(cudaFree(out));
  unsetenv("CUEMU_EXT_WAIT_SECONDS");
  std::printf("slow kernel: %.1f s\n", took);
}

// Last: the kernel's thread spins on until the process exits.
static void spinning_kernel() {
  setenv("CUEMU_EXT_WAIT_SECONDS", "1", 1);
  int *flag, *seen, *out;
  RT(cudaHostAlloc(&flag, sizeof(int), cudaHostAllocMapped));
  RT(cudaMalloc(&seen, sizeof(int)));
  RT(cudaMalloc(&out, sizeof(int)));
  *flag = 0;
  wait_for_flag<<<1, 1>>>(flag, 1, seen, out);
  auto t0 = std::chrono::steady_clock::now();
  CHECK(cudaDeviceSynchronize() == cudaErrorLaunchTimeout);
  double took = std::chrono::duration<double>(
                    std::chrono::steady_clock::now() - t0)
                    .count();
  CHECK(took >= 0.9 && took < 10.0);
  CHECK(cudaMemset(seen, 0, 4) == cudaErrorLaunchTimeout); // sticky
}

int main() {
  CU(cuInit(0));
  printf_order();
  unsatisfiable_wait();
  sticky_fault();
  slow_kernel();
  spinning_kernel();
  return finish();
}
