// watchdog_dl_lock.cu: a kernel that never ends while another host thread
// holds the dynamic linker's lock (it is inside dl_iterate_phdr(), as a
// thread that loads a plug-in is inside dlopen()). With CUEMU_TIMEOUT=1
// the watchdog must still end the process with its report (kernel, block,
// thread) and exit status 124: cuemu once named the source line while
// holding its own lock, with the dynamic linker's lock needed to do so,
// and the process hung for ever. The case runs in a child process, which
// the parent kills if it has not ended after 20 s.
#include <cuda_runtime.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <link.h>
#include <pthread.h>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

#include "../check.cuh"

// Block 0's thread 0 says it runs (in mapped host memory), then waits for a
// flag nobody sets.
__global__ void spin_forever(volatile int *started, volatile int *never) {
  if (threadIdx.x == 0) {
    *started = 1;
    while (*never == 0) {
    }
  }
}

static volatile int *started_flag;

// Holds the dynamic linker's lock for ever.
static int hold(struct dl_phdr_info *, size_t, void *) {
  for (;;)
    pause();
  return 0;
}

static void *hold_dl_lock(void *) {
  while (*started_flag == 0)
    usleep(1000);
  dl_iterate_phdr(hold, nullptr);
  return nullptr;
}

static int child() {
  setenv("CUEMU_TIMEOUT", "1", 1);
  int *host;
  cudaHostAlloc(&host, 2 * sizeof(int), cudaHostAllocMapped);
  host[0] = host[1] = 0;
  started_flag = host;
  int *dev;
  cudaHostGetDevicePointer(&dev, host, 0);
  pthread_t t;
  pthread_create(&t, nullptr, hold_dl_lock, nullptr);
  spin_forever<<<1, 32>>>(dev, dev + 1);
  cudaDeviceSynchronize();
  return 0;
}

int main() {
  int fds[2];
  if (pipe(fds) != 0)
    return 1;
  pid_t pid = fork();
  if (pid == 0) {
    dup2(fds[1], 2);
    close(fds[0]);
    alarm(20); // the watchdog did not end the process
    _exit(child());
  }
  close(fds[1]);
  std::string report;
  char buf[4096];
  ssize_t n;
  while ((n = read(fds[0], buf, sizeof buf)) > 0)
    report.append(buf, (size_t)n);
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 124);
  CHECK(report.find("kernel spin_forever") != std::string::npos);
  CHECK(report.find("block (0,0,0), thread (0,0,0) at ") !=
        std::string::npos);
  if (check_failures)
    std::fprintf(stderr, "the child's report:\n%s\n", report.c_str());
  return finish();
}
