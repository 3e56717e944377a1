// sigurg_user_handler.cu: a host program that handles SIGURG itself (a
// language runtime's preemption, say) keeps its handler under cuemu, which
// interrupts kernel threads with SIGURG to name their source lines: the
// program's handler, installed before the first launch or after it, gets
// the SIGURG the program raises and none of cuemu's, and the watchdog's
// report still names the line where a stuck kernel spins. cuemu once
// replaced the program's handler with its own (the program's signals were
// lost), and lost its own samples to a handler installed after it. Each
// case runs in a child process with CUEMU_TIMEOUT=1, whose report (and
// what its handler wrote) the parent reads.
#include <cuda_runtime.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

#include "../check.cuh"

__global__ void nothing() {}

static const int spin_line = __LINE__ + 4;
// Thread 0 of each block waits for a flag nobody sets.
__global__ void spin(volatile int *never) {
  if (threadIdx.x == 0)
    while (*never == 0) {
    }
}

static volatile sig_atomic_t handled;

static void on_urgent(int) {
  handled = handled + 1;
  const char text[] = "the program's SIGURG handler ran\n";
  ssize_t ignored = write(2, text, sizeof text - 1);
  (void)ignored;
}

static void install() {
  struct sigaction sa;
  std::memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_urgent;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGURG, &sa, nullptr);
}

static int child(bool before) {
  setenv("CUEMU_TIMEOUT", "1", 1);
  if (before)
    install();
  nothing<<<1, 1>>>();
  cudaDeviceSynchronize();
  if (!before)
    install();
  raise(SIGURG);
  if (handled != 1)
    return 3;
  int *never;
  cudaMalloc(&never, sizeof(int));
  cudaMemset(never, 0, sizeof(int));
  spin<<<2, 32>>>(never);
  cudaDeviceSynchronize();
  return 0;
}

static int run_child(bool before, std::string *report) {
  int fds[2];
  if (pipe(fds) != 0)
    return -1;
  pid_t pid = fork();
  if (pid == 0) {
    dup2(fds[1], 2);
    close(fds[0]);
    alarm(20);
    _exit(child(before));
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

static int count(const std::string &text, const std::string &what) {
  int n = 0;
  for (size_t at = text.find(what); at != std::string::npos;
       at = text.find(what, at + 1))
    ++n;
  return n;
}

int main() {
  char line[64];
  std::snprintf(line, sizeof line, "sigurg_user_handler.cu:%d", spin_line);
  for (bool before : {true, false}) {
    std::string report;
    int status = run_child(before, &report);
    CHECK(status == 124);
    CHECK(count(report, "the program's SIGURG handler ran") == 1);
    CHECK(report.find("kernel spin") != std::string::npos);
    CHECK(report.find(line) != std::string::npos);
    if (check_failures)
      std::fprintf(stderr, "the child's report (handler installed %s):\n%s\n",
                   before ? "before" : "after", report.c_str());
  }
  return finish();
}
