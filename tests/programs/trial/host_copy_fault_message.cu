/*
 * host_copy_fault_message.cu: a program that demonstrates CUDA's errors
 * passes cudaMemcpy a host pointer that is no memory of the process
 * ((float *)0x1 as the source of a host-to-device copy) and expects an
 * error code. A GPU's driver copies pageable host memory with the CPU, so
 * the process gets a segmentation fault there; cuemu's copy faulted too,
 * but silently, with no word of which call or which pointer. The fault
 * stays (the process still ends with SIGSEGV), and now a line on stderr
 * names the call, its source line, the side of the copy and the address.
 * Each bad copy is made in a child process (fork), whose end and stderr
 * the parent checks; a good copy still works. Prints PASS when all is
 * well.
 */
#include <cuda_runtime.h>

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../check.cuh"

static float *device;

/* Runs `copy` in a child whose stderr goes to a pipe; returns whether the
 * child ended with a segmentation fault, its stderr in `text`. */
static int faults(void (*copy)(), char *text, size_t size) {
  int fds[2];
  if (pipe(fds) != 0)
    return 0;
  fflush(stdout);
  fflush(stderr);
  pid_t child = fork();
  if (child == 0) {
    dup2(fds[1], 2);
    close(fds[0]);
    copy();
    _exit(0);
  }
  close(fds[1]);
  size_t got = 0;
  ssize_t n;
  while (got + 1 < size && (n = read(fds[0], text + got, size - 1 - got)) > 0)
    got += (size_t)n;
  text[got] = '\0';
  close(fds[0]);
  int status = 0;
  return waitpid(child, &status, 0) == child && WIFSIGNALED(status) &&
         WTERMSIG(status) == SIGSEGV;
}

/* The line of each bad copy: three below its constant. */
static const int source_copy_line = __LINE__ + 3;
static void copy_from_bad_source() {
  const float *bad = reinterpret_cast<const float *>(0x1);
  cudaError_t e = cudaMemcpy(device, bad, 4096, cudaMemcpyHostToDevice);
  fprintf(stderr, "the copy returned %s\n", cudaGetErrorName(e));
}

static const int destination_copy_line = __LINE__ + 3;
static void copy_to_bad_destination() {
  float *bad = reinterpret_cast<float *>(0x40);
  cudaError_t e = cudaMemcpy(bad, device, 4096, cudaMemcpyDeviceToHost);
  fprintf(stderr, "the copy returned %s\n", cudaGetErrorName(e));
}

int main() {
  CHECK(cudaMalloc(&device, 4096) == cudaSuccess);
  char text[4096];
  char expected_line[64];

  CHECK(faults(copy_from_bad_source, text, sizeof text));
  snprintf(expected_line, sizeof expected_line, "host_copy_fault_message.cu:%d",
           source_copy_line);
  CHECK(strstr(text, "cudaMemcpy") != nullptr);
  CHECK(strstr(text, "source") != nullptr);
  CHECK(strstr(text, "0x1 ") != nullptr);
  CHECK(strstr(text, expected_line) != nullptr);
  CHECK(strstr(text, "the copy returned") == nullptr);

  CHECK(faults(copy_to_bad_destination, text, sizeof text));
  snprintf(expected_line, sizeof expected_line, "host_copy_fault_message.cu:%d",
           destination_copy_line);
  CHECK(strstr(text, "cudaMemcpy") != nullptr);
  CHECK(strstr(text, "destination") != nullptr);
  CHECK(strstr(text, "0x40 ") != nullptr);
  CHECK(strstr(text, expected_line) != nullptr);
  CHECK(strstr(text, "the copy returned") == nullptr);
  if (check_failures)
    fprintf(stderr, "child's stderr: %s\n", text);

  /* A good copy is untouched by all this. */
  float host[4] = {1, 2, 3, 4}, back[4] = {};
  CHECK(cudaMemcpy(device, host, sizeof host, cudaMemcpyHostToDevice) ==
        cudaSuccess);
  CHECK(cudaMemcpy(back, device, sizeof back, cudaMemcpyDeviceToHost) ==
        cudaSuccess);
  CHECK(back[3] == 4);
  CHECK(cudaFree(device) == cudaSuccess);
  return finish();
}
