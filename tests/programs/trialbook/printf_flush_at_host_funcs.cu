// printf_flush_at_host_funcs.cu: CUDA writes the kernels' printf output
// before a stream callback runs (the programming guide's "Formatted
// Output" lists "prior to executing a stream callback added by
// cudaStreamAddCallback"), and so before a host function of
// cudaLaunchHostFunc, the call that replaces it, whose start is documented
// to act as a synchronisation of an event recorded just before it. So a
// line a kernel printed comes before the line that the host function or
// callback queued after it in the stream prints. The program sends its
// stdout to a temporary file and checks the order of the lines there.
#include <cstdio>
#include <cstring>
#include <unistd.h>

#include <cuda_runtime.h>

__global__ void say(int step) {
  if (threadIdx.x == 0)
    printf("kernel %d\n", step);
}

static void host_func(void *data) {
  printf("host function %d\n", *static_cast<int *>(data));
  fflush(stdout);
}

static void CUDART_CB callback(cudaStream_t, cudaError_t status, void *data) {
  printf("callback %d (%s)\n", *static_cast<int *>(data),
         cudaGetErrorName(status));
  fflush(stdout);
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
  static int steps[4] = {1, 2, 3, 4};
  cudaStream_t stream;
  CHECK_CUDA(cudaStreamCreate(&stream));
  FILE *capture = tmpfile();
  if (!capture) {
    perror("tmpfile");
    return 1;
  }
  fflush(stdout);
  int saved = dup(fileno(stdout));
  dup2(fileno(capture), fileno(stdout));

  say<<<1, 32, 0, stream>>>(1);
  CHECK_CUDA(cudaLaunchHostFunc(stream, host_func, &steps[0]));
  say<<<1, 32, 0, stream>>>(2);
  CHECK_CUDA(cudaStreamAddCallback(stream, callback, &steps[1], 0));
  say<<<1, 32, 0, stream>>>(3);
  CHECK_CUDA(cudaLaunchHostFunc(stream, host_func, &steps[2]));
  CHECK_CUDA(cudaStreamSynchronize(stream));
  say<<<1, 32>>>(4);
  CHECK_CUDA(cudaLaunchHostFunc(0, host_func, &steps[3]));
  CHECK_CUDA(cudaDeviceSynchronize());
  fflush(stdout);

  dup2(saved, fileno(stdout));
  close(saved);

  const char *expected = "kernel 1\n"
                         "host function 1\n"
                         "kernel 2\n"
                         "callback 2 (cudaSuccess)\n"
                         "kernel 3\n"
                         "host function 3\n"
                         "kernel 4\n"
                         "host function 4\n";
  char got[1024] = {0};
  rewind(capture);
  size_t length = fread(got, 1, sizeof got - 1, capture);
  fclose(capture);
  got[length] = '\0';
  CHECK_CUDA(cudaStreamDestroy(stream));
  if (strcmp(got, expected) != 0) {
    printf("FAIL: the lines came in this order:\n%s", got);
    return 1;
  }
  printf("PASS\n");
  return 0;
}
