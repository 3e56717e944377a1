// signal_faults.cu: kernel faults that reach cuemu as signals other than a
// plain invalid access (SIGILL, SIGBUS, SIGFPE), each reported as CUDA
// reports the same fault, sticky, naming the kernel, the block, the thread
// and the source line, and never ending or hanging the process, also when
// two workers fault at the same moment:
// - an illegal instruction (cuemu: __builtin_trap(), SIGILL; nvcc:
//   __trap()): cudaErrorIllegalInstruction;
// - an integer division by zero (SIGFPE on x86-64): no fault, as on a GPU,
//   whose quotient is all bits set;
// - under cuemu, a read of a file mapping's page past the file's end
//   (SIGBUS): cudaErrorIllegalAddress ("bus error");
// - two blocks on two workers that fault together (SIGILL and SIGILL,
//   SIGSEGV and SIGILL, and under cuemu SIGBUS and SIGBUS): one error,
//   one of the two, reported, and the process goes on.
// Each case runs in a child process (with an alarm: a hang fails), whose
// report the parent reads. Prints PASS when all is well.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../check.cuh"

// nvcc refuses __builtin_trap() in device code; __trap() is its PTX trap.
// Under cuemu, __builtin_trap() is the processor's illegal instruction
// (ud2 on x86-64), which is what this test makes. cuemu-nvcc refuses a
// call of it in device code as nvcc does; the name in parentheses is the
// same built-in, which its check does not look for.
#ifdef CUEMU_VERSION
#define ILLEGAL_INSTRUCTION() (__builtin_trap)()
#else
#define ILLEGAL_INSTRUCTION() __trap()
#endif

[[maybe_unused]] static const int trap_line = __LINE__ + 3;
__global__ void builtin_trap(int *out) {
  if (threadIdx.x == 5 && blockIdx.x == 1)
    ILLEGAL_INSTRUCTION();
  out[threadIdx.x] = 1;
}

__global__ void divide(int *out, int by) { out[threadIdx.x] = 7 / by; }

[[maybe_unused]] static const int bus_line = __LINE__ + 3;
__global__ void read_mapping(const int *mapped, int *out) {
  if (threadIdx.x == 6 && blockIdx.x == 1)
    out[0] = mapped[1024 + threadIdx.x];
}

// Both blocks arrive, then fault at once: block 0 with `first`, block 1
// with `second` (0 an illegal instruction, 1 an invalid access through
// `bad`, 2 a read of `bad` that is a bus error).
__global__ void fault_together(unsigned *arrived, const int *bad, int *out,
                               int first, int second) {
  if (threadIdx.x == 0) {
    atomicAdd(arrived, 1u);
    while (atomicAdd(arrived, 0u) < 2u) {
    }
    int how = blockIdx.x == 0 ? first : second;
    if (how == 0)
      ILLEGAL_INSTRUCTION();
    out[blockIdx.x] = bad[1024 + blockIdx.x];
  }
}

// A file mapping of two pages whose file is then truncated to nothing:
// reading it is a bus error.
static int *truncated_mapping() {
  char path[] = "/tmp/signal_faults.XXXXXX";
  int fd = mkstemp(path);
  if (fd < 0)
    return nullptr;
  unlink(path);
  if (ftruncate(fd, 8192) != 0)
    return nullptr;
  void *p = mmap(nullptr, 8192, PROT_READ, MAP_SHARED, fd, 0);
  if (p == MAP_FAILED || ftruncate(fd, 0) != 0)
    return nullptr;
  close(fd);
  return static_cast<int *>(p);
}

static void child(int which) {
  unsetenv("CUEMU_QUIET"); // cuemu prints the launch's error
  setenv("CUEMU_WORKERS", "2", 1);
  int *out;
  unsigned *arrived;
  cudaMalloc(&out, 64 * sizeof(int));
  cudaMalloc(&arrived, sizeof(unsigned));
  cudaMemset(arrived, 0, sizeof(unsigned));
  cudaError_t launched = cudaSuccess;
  switch (which) {
  case 0:
    builtin_trap<<<2, 8>>>(out);
    break;
  case 1: {
    divide<<<1, 4>>>(out, 0);
    int q[4] = {0};
    cudaError_t e = cudaMemcpy(q, out, sizeof q, cudaMemcpyDeviceToHost);
    std::fprintf(stderr, "quotient: %d %d\n", q[0], q[3]);
    launched = e;
    break;
  }
  case 2:
    read_mapping<<<2, 8>>>(truncated_mapping(), out);
    break;
  case 3:
    fault_together<<<2, 32>>>(arrived, (const int *)0x10, out, 0, 0);
    break;
  case 4:
    fault_together<<<2, 32>>>(arrived, (const int *)0x10, out, 1, 0);
    break;
  case 5:
    fault_together<<<2, 32>>>(arrived, truncated_mapping(), out, 2, 2);
    break;
  }
  cudaError_t e = cudaDeviceSynchronize();
  if (launched != cudaSuccess)
    e = launched;
  std::fprintf(stderr, "status: %s\n", cudaGetErrorName(e));
  // Sticky: the next call that works with the device says it again.
  std::fprintf(stderr, "then: %s\n", cudaGetErrorName(cudaMemset(out, 0, 4)));
}

static std::string run_child(int which) {
  std::string report;
  int fds[2];
  if (pipe(fds) != 0)
    return report;
  pid_t pid = fork();
  if (pid == 0) {
    dup2(fds[1], 2);
    close(fds[0]);
    alarm(20);
    child(which);
    _exit(0);
  }
  close(fds[1]);
  char buf[4096];
  ssize_t n;
  while ((n = read(fds[0], buf, sizeof buf)) > 0)
    report.append(buf, (size_t)n);
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    report += "[the child did not exit 0]";
  return report;
}

static bool has(const std::string &text, const std::string &what) {
  return text.find(what) != std::string::npos;
}

[[maybe_unused]] static std::string line_of(int line) {
  return "signal_faults.cu:" + std::to_string(line);
}

int main() {
  std::string all, r;
  r = run_child(0);
  CHECK(has(r, "status: cudaErrorIllegalInstruction"));
  CHECK(has(r, "then: cudaErrorIllegalInstruction"));
#ifdef CUEMU_VERSION
  CHECK(has(r, "kernel builtin_trap: illegal instruction"));
  CHECK(has(r, "thread (5,0,0) of block (1,0,0)"));
  CHECK(has(r, line_of(trap_line)));
#endif
  all += r;

  r = run_child(1);
  CHECK(has(r, "quotient: -1 -1"));
  CHECK(has(r, "status: cudaSuccess"));
  CHECK(has(r, "then: cudaSuccess"));
  all += r;

#ifdef CUEMU_VERSION
  r = run_child(2);
  CHECK(has(r, "kernel read_mapping: misaligned or invalid memory access "
               "(bus error)"));
  CHECK(has(r, "thread (6,0,0) of block (1,0,0)"));
  CHECK(has(r, line_of(bus_line)));
  CHECK(has(r, "status: cudaErrorIllegalAddress"));
  CHECK(has(r, "then: cudaErrorIllegalAddress"));
  all += r;
#endif

  r = run_child(3);
  CHECK(has(r, "status: cudaErrorIllegalInstruction"));
  CHECK(has(r, "then: cudaErrorIllegalInstruction"));
  all += r;

  r = run_child(4);
  CHECK(has(r, "status: cudaErrorIllegalInstruction") ||
        has(r, "status: cudaErrorIllegalAddress"));
  CHECK(!has(r, "[the child did not exit 0]"));
  all += r;

#ifdef CUEMU_VERSION
  r = run_child(5);
  CHECK(has(r, "status: cudaErrorIllegalAddress"));
  CHECK(has(r, "kernel fault_together: misaligned or invalid memory access "
               "(bus error)"));
  all += r;
#endif
  CHECK(!has(all, "[the child did not exit 0]"));
  if (check_failures)
    std::fprintf(stderr, "the children's reports:\n%s\n", all.c_str());
  return finish();
}
