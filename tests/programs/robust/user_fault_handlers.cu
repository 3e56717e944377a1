// user_fault_handlers.cu: a program (or a library: a JVM, Python's
// faulthandler) installs its own SIGSEGV handler after cuemu's first
// launch. cuemu once left it in charge of kernel faults for up to a second
// (its look at the handlers was cached), and a handler that puts back the
// one it replaced and re-raises (faulthandler's way) made a host fault
// loop forever once cuemu had installed its own again over it. Each case
// runs in a child process:
//   0: a kernel fault just after the user's handler is installed is
//      reported by cuemu (cudaErrorIllegalAddress), the handler not run;
//   1: a host fault after a later launch reaches the user's handler;
//   2: with a faulthandler-like handler, a host fault crashes (SIGSEGV)
//      rather than hanging;
//   3: a kernel fault after that is still cuemu's, the host fault after
//      it the user's;
//   4: a handler that leaves by siglongjmp (a probe of an address) gets
//      the same fault five times in a row: cuemu's guard against a
//      handler that resolves nothing (case 2) must not take it for one.
#include <cuda_runtime.h>

#include <csetjmp>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

#include "../check.cuh"

__global__ void fine(int *p) { p[threadIdx.x] = 1; }
__global__ void faulty(int *p) {
  if (threadIdx.x == 3)
    *(volatile int *)(p - p + 16) = 1; // address 64: never mapped
}

static void user_handler(int) {
  const char m[] = "user handler\n";
  if (write(2, m, sizeof m - 1) < 0) {}
  _exit(3);
}

static struct sigaction replaced;
static void faulthandler_like(int sig) {
  static volatile sig_atomic_t enabled = 1;
  if (!enabled)
    return;
  enabled = 0;
  const char m[] = "faulthandler-like\n";
  if (write(2, m, sizeof m - 1) < 0) {}
  sigaction(sig, &replaced, nullptr);
  raise(sig);
}

static sigjmp_buf probe_jump;
static void probe_handler(int, siginfo_t *, void *) { siglongjmp(probe_jump, 1); }

static void probe_child(int *p) {
  struct sigaction sa;
  std::memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = probe_handler;
  sa.sa_flags = SA_SIGINFO | SA_NODEFER;
  sigaction(SIGSEGV, &sa, nullptr);
  fine<<<1, 32>>>(p); // cuemu's handler goes back in front
  cudaDeviceSynchronize();
  int recovered = 0;
  for (int k = 0; k < 5; ++k)
    if (sigsetjmp(probe_jump, 1) == 0)
      *(volatile int *)(p - p + 16) = 1;
    else
      ++recovered;
  std::fprintf(stderr, "recovered %d\n", recovered);
  _exit(0);
}

static void child(int which) {
  unsetenv("CUEMU_QUIET");
  int *p;
  cudaMalloc(&p, 4096);
  fine<<<1, 32>>>(p);
  cudaDeviceSynchronize();
  if (which == 4)
    probe_child(p);
  struct sigaction sa;
  std::memset(&sa, 0, sizeof sa);
  sa.sa_handler = which == 2 ? faulthandler_like : user_handler;
  sa.sa_flags = which == 2 ? SA_NODEFER : 0;
  sigaction(SIGSEGV, &sa, &replaced);
  if (which == 0 || which == 3) {
    faulty<<<1, 32>>>(p);
    std::fprintf(stderr, "kernel: %s\n",
                 cudaGetErrorName(cudaDeviceSynchronize()));
    if (which == 0)
      _exit(0);
  } else {
    fine<<<1, 32>>>(p); // cuemu's handler goes back in front
    cudaDeviceSynchronize();
  }
  std::fprintf(stderr, "host fault\n");
  *(volatile int *)(p - p + 16) = 1;
  _exit(0);
}

static std::string run_child(int which, int *status) {
  std::string report;
  int fds[2];
  if (pipe(fds) != 0)
    return report;
  pid_t pid = fork();
  if (pid == 0) {
    dup2(fds[1], 2);
    close(fds[0]);
    alarm(10);
    child(which);
  }
  close(fds[1]);
  char buf[4096];
  ssize_t n;
  while ((n = read(fds[0], buf, sizeof buf)) > 0)
    report.append(buf, (size_t)n);
  close(fds[0]);
  waitpid(pid, status, 0);
  return report;
}

static bool has(const std::string &text, const char *what) {
  return text.find(what) != std::string::npos;
}

int main() {
  int st = 0;
  std::string r = run_child(0, &st);
  bool ok0 = WIFEXITED(st) && WEXITSTATUS(st) == 0 &&
             has(r, "kernel faulty: invalid memory access") &&
             has(r, "kernel: cudaErrorIllegalAddress") &&
             !has(r, "user handler");
  CHECK(ok0);
  r = run_child(1, &st);
  bool ok1 = WIFEXITED(st) && WEXITSTATUS(st) == 3 && has(r, "host fault") &&
             has(r, "user handler");
  CHECK(ok1);
  r = run_child(2, &st);
  bool ok2 = WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV &&
             has(r, "faulthandler-like");
  CHECK(ok2);
  std::string r3 = run_child(3, &st);
  bool ok3 = WIFEXITED(st) && WEXITSTATUS(st) == 3 &&
             has(r3, "kernel: cudaErrorIllegalAddress") &&
             has(r3, "host fault\nuser handler");
  CHECK(ok3);
  std::string r4 = run_child(4, &st);
  bool ok4 = WIFEXITED(st) && WEXITSTATUS(st) == 0 && has(r4, "recovered 5");
  CHECK(ok4);
  if (!(ok0 && ok1 && ok2 && ok3 && ok4))
    std::fprintf(stderr, "%d %d %d %d %d\n%s\n%s\n%s\n", ok0, ok1, ok2,
                 ok3, ok4, r.c_str(), r3.c_str(), r4.c_str());
  return finish();
}
