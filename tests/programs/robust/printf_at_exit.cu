// printf_at_exit.cu: a kernel's printf lines are printed at the points
// where CUDA flushes its printf FIFO (a launch's start, the synchronising
// calls, a blocking copy, cudaDeviceReset); CUDA's programming guide does
// not flush it when the program exits, where a GPU may lose the lines of
// the last launches. cuemu prints them at exit instead, and must print each
// line once: a program that called exit() (or returned from main) while its
// last launch was still running lost that launch's lines, and a child of
// fork() that exited printed its parent's waiting lines a second time.
// The program under test runs in a child whose standard output is a pipe
// that the parent reads.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

#include <cuda_runtime.h>

#include "../check.cuh"

__global__ void hello(int round) {
  printf("round %d thread %d\n", round, threadIdx.x);
}

// Holds the stream back, so that the launch after it is still waiting to
// run when the program exits.
static void CUDART_CB hold_stream(void *) { usleep(200 * 1000); }

static void program_under_test() {
  hello<<<1, 2>>>(0);
  cudaDeviceSynchronize();
  cudaEvent_t done;
  cudaEventCreate(&done);
  hello<<<1, 2>>>(1);
  cudaEventRecord(done, 0);
  // Done, and its lines waiting: a query is no point where CUDA prints.
  while (cudaEventQuery(done) == cudaErrorNotReady) {
  }
  std::fflush(stdout);
  pid_t pid = fork();
  if (pid == 0)
    std::exit(0); // prints none of its parent's lines
  waitpid(pid, nullptr, 0);
  cudaLaunchHostFunc(0, hold_stream, nullptr);
  hello<<<1, 2>>>(2); // its start prints round 1
  std::printf("host done\n");
  std::exit(0); // round 2 has not run yet
}

int main() {
  int fds[2];
  CHECK(pipe(fds) == 0);
  pid_t pid = fork();
  if (pid == 0) {
    dup2(fds[1], 1);
    close(fds[0]);
    close(fds[1]);
    alarm(20);
    program_under_test();
  }
  close(fds[1]);
  std::string out;
  char buf[4096];
  ssize_t n;
  while ((n = read(fds[0], buf, sizeof buf)) > 0)
    out.append(buf, (size_t)n);
  close(fds[0]);
  int status = -1;
  waitpid(pid, &status, 0);
  CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  const std::string expected = "round 0 thread 0\nround 0 thread 1\n"
                               "round 1 thread 0\nround 1 thread 1\n"
                               "host done\n"
                               "round 2 thread 0\nround 2 thread 1\n";
  if (out != expected)
    std::fprintf(stderr, "the program printed:\n%s", out.c_str());
  CHECK(out == expected);
  return finish();
}
