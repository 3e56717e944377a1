// spin_watchdog.cu: a grid whose blocks wait for its last block (they spin
// on a flag in global memory that the last block sets) works on a GPU that
// holds all its blocks at once, and is undefined in CUDA; 1024 blocks of 64
// threads are more than the emulated device holds (8 SMs x 32), so the
// first blocks spin for ever (cuemu once hung, silently, with
// CUEMU_STREAMS=sync). They read the flag with an atomic that leaves it
// unchanged, which counts as a spin (emulator/core/cuemu_progress.c): cuemu
// ends the launch with cudaErrorLaunchTimeout and a report that names the
// kernel, a spinning block and thread, the source line of the spin and the
// residency limit. CUEMU_TIMEOUT is only a safety net (its exit status 124
// fails the test). Each case runs in a child process (asynchronous
// streams, then CUEMU_STREAMS=sync), whose report the parent reads.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

#include "../check.cuh"

// Every block but the last waits for the last one.
__global__ void wait_for_last(int *flag, int *out) {
  if (blockIdx.x == gridDim.x - 1) {
    if (threadIdx.x == 0)
      atomicExch(flag, 1);
    return;
  }
  if (threadIdx.x == 0)
    while (atomicAdd(flag, 0) == 0) { // the line the report names
    }
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = 1;
}

// The child: launches the grid and waits for it.
static int child(const char *streams) {
  setenv("CUEMU_TIMEOUT", "60", 1);
  unsetenv("CUEMU_QUIET");
  if (streams)
    setenv("CUEMU_STREAMS", streams, 1);
  int *flag, *out;
  cudaMalloc(&flag, sizeof(int));
  cudaMemset(flag, 0, sizeof(int));
  cudaMalloc(&out, 1024 * 64 * sizeof(int));
  wait_for_last<<<1024, 64>>>(flag, out);
  // 0 on a GPU that holds every block.
  return cudaDeviceSynchronize() == cudaErrorLaunchTimeout ? 7 : 0;
}

// Runs child(streams) in a process of its own: its exit status, and its
// standard error in *report.
static int run_child(const char *streams, std::string *report) {
  int fds[2];
  if (pipe(fds) != 0)
    return -1;
  pid_t pid = fork();
  if (pid == 0) {
    dup2(fds[1], 2);
    close(fds[0]);
    _exit(child(streams));
  }
  close(fds[1]);
  char buf[4096];
  ssize_t n;
  while ((n = read(fds[0], buf, sizeof buf)) > 0)
    report->append(buf, (size_t)n);
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int main() {
  const char *modes[] = {nullptr, "sync"};
  for (const char *mode : modes) {
    std::string report;
    int status = run_child(mode, &report);
    CHECK(status == 7);
    CHECK(report.find("kernel wait_for_last: block (") != std::string::npos);
    CHECK(report.find(", thread (0,0,0) at ") != std::string::npos);
    CHECK(report.find("spin_watchdog.cu:32") != std::string::npos);
    CHECK(report.find("cannot be resident") != std::string::npos);
    CHECK(report.find("8 SMs x 32 blocks per SM") != std::string::npos);
    if (check_failures)
      std::fprintf(stderr, "the child's report:\n%s\n", report.c_str());
  }
  return finish();
}
