// unguarded_stack_overflow.cu: past vm.max_map_count (lowered here with
// CUEMU_MAX_MAP_COUNT) cuemu gives threads stacks without a guard page,
// side by side in one mapping. A thread that overflows such a stack must
// still be reported as a stack overflow naming the kernel, its block and
// thread; cuemu once let it write over its neighbours' stacks silently.
// The case runs in a child process, whose standard error the parent reads.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

#include "../check.cuh"

// About 1 KiB of stack per level: the volatile array and the use after the
// recursive call keep the compiler from making it a loop.
__device__ __noinline__ int deep(int n) {
  volatile char pad[1024];
  pad[0] = (char)n;
  pad[n & 1023] = (char)(n * 3);
  if (n <= 0)
    return pad[0];
  int below = deep(n - 1);
  pad[1] = (char)below;
  return pad[1] + pad[n & 1023];
}

// Thread (5,0,0) of block (1,0,0) goes `depth` levels deep between two
// barriers, while the other threads of its block wait on stacks of their
// own.
__global__ void overflow_between_barriers(int depth, int *out) {
  __syncthreads();
  bool chosen = blockIdx.x == 1 && threadIdx.x == 5;
  int r = deep(chosen ? depth : 2);
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = r;
}

// The same without barriers: the threads run one after another on one
// stack.
__global__ void overflow_without_barriers(int depth, int *out) {
  bool chosen = blockIdx.x == 1 && threadIdx.x == 5;
  out[blockIdx.x * blockDim.x + threadIdx.x] = deep(chosen ? depth : 2);
}

static int child(int depth, bool barriers) {
  setenv("CUEMU_MAX_MAP_COUNT", "2", 1); // no guarded stack at all
  unsetenv("CUEMU_QUIET");                // cuemu prints the launch's error
  int *out;
  cudaMalloc(&out, 2 * 64 * sizeof(int));
  if (barriers)
    overflow_between_barriers<<<2, 64>>>(depth, out);
  else
    overflow_without_barriers<<<2, 64>>>(depth, out);
  cudaError_t e = cudaDeviceSynchronize();
  std::fprintf(stderr, "status: %s\n", cudaGetErrorName(e));
  return e == cudaSuccess ? 0 : 2;
}

static int run_child(int depth, bool barriers, std::string *report) {
  int fds[2];
  if (pipe(fds) != 0)
    return -1;
  pid_t pid = fork();
  if (pid == 0) {
    dup2(fds[1], 2);
    close(fds[0]);
    alarm(20);
    _exit(child(depth, barriers));
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
  // 10 levels fit a 64 KiB stack; 100 do not.
  for (bool barriers : {true, false}) {
    const char *kernel = barriers ? "overflow_between_barriers"
                                  : "overflow_without_barriers";
    std::string fits, overflows, want;
    CHECK(run_child(10, barriers, &fits) == 0);
    CHECK(run_child(100, barriers, &overflows) == 2);
    CHECK(overflows.find("status: cudaErrorHardwareStackError") !=
          std::string::npos);
    want = std::string("thread (5,0,0) of block (1,0,0) in kernel ") +
           kernel + " overflowed its 64 KiB stack";
    CHECK(overflows.find(want) != std::string::npos);
    if (check_failures)
      std::fprintf(stderr, "the children's output (%s):\n%s\n%s\n", kernel,
                   fits.c_str(), overflows.c_str());
  }
  return finish();
}
