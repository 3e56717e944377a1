// printf_not_into_host_output.cu: a kernel's printf output is printed at
// the points CUDA lists (a launch's start, the synchronising calls), by the
// thread that makes that call. cuemu printed it when a stream's execution
// thread started the next kernel, while the host was in the middle of a
// line of its own: cuda-api-wrappers' event_management printed
// "Kernel no. 39.25899 msec have elapsed, says: ...". Here the stream waits
// in a host function until the host has printed the first half of a line;
// the kernel's line must come after the whole host line, at the
// synchronisation. stdout goes to a temporary file, which is checked.
#include <atomic>
#include <cstdio>
#include <cstring>
#include <unistd.h>

#include <cuda_runtime.h>

__global__ void say() {
  if (threadIdx.x == 0)
    printf("kernel line\n");
}

__global__ void busy(int *out) {
  int s = 0;
  for (int i = 0; i < 1000; ++i)
    s += i;
  out[threadIdx.x] = s;
}

static std::atomic<int> host_printed{0};

static void wait_for_host(void *) {
  while (host_printed.load() == 0)
    usleep(1000);
}

#define CHECK_CUDA(call)                                                       \
  do {                                                                         \
    cudaError_t status_ = (call);                                              \
    if (status_ != cudaSuccess) {                                              \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                       \
              cudaGetErrorString(status_));                                    \
      return 1;                                                                \
    }                                                                          \
  } while (0)

int main() {
  cudaStream_t stream;
  CHECK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  int *out;
  CHECK_CUDA(cudaMalloc(&out, 32 * sizeof(int)));
  FILE *capture = tmpfile();
  if (!capture) {
    perror("tmpfile");
    return 1;
  }
  fflush(stdout);
  int saved = dup(fileno(stdout));
  dup2(fileno(capture), fileno(stdout));

  CHECK_CUDA(cudaLaunchHostFunc(stream, wait_for_host, nullptr));
  say<<<1, 32, 0, stream>>>();
  busy<<<1, 32, 0, stream>>>(out);
  busy<<<1, 32, 0, stream>>>(out);
  printf("host first half, ");
  fflush(stdout);
  host_printed.store(1);
  usleep(200000); /* the stream runs both kernels meanwhile */
  printf("host second half\n");
  fflush(stdout);
  CHECK_CUDA(cudaStreamSynchronize(stream));
  fflush(stdout);

  dup2(saved, fileno(stdout));
  close(saved);

  const char *expected = "host first half, host second half\n"
                         "kernel line\n";
  char got[512] = {0};
  rewind(capture);
  size_t length = fread(got, 1, sizeof got - 1, capture);
  got[length] = 0;
  if (strcmp(got, expected) != 0) {
    printf("FAIL: stdout was:\n%s", got);
    return 1;
  }
  CHECK_CUDA(cudaFree(out));
  printf("PASS\n");
  return 0;
}
