// printf_flush_at_copies.cu: every blocking copy is a point where CUDA
// writes the kernels' printf output (the programming guide lists "memory
// copies via any blocking version of cudaMemcpy*()"), so a line a kernel
// printed comes before the line the host prints after the copy. Reduced
// from a textbook program that prints a __device__ variable in a kernel and
// reads it back with cudaMemcpyFromSymbol. The program sends its stdout to
// a temporary file and checks the order of the lines there.
#include <cstdio>
#include <cstring>
#include <unistd.h>

#include <cuda_runtime.h>

__device__ float device_value;

__global__ void say(int step) { printf("kernel %d\n", step); }

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
  float host_value = 1.5f;
  float *buffer = nullptr;
  float *other = nullptr;
  size_t pitch = 0;
  CHECK_CUDA(cudaMalloc(&buffer, 4 * sizeof(float)));
  CHECK_CUDA(cudaMallocPitch(&other, &pitch, 4 * sizeof(float), 2));
  float rows[8] = {0};

  FILE *capture = tmpfile();
  if (!capture) {
    perror("tmpfile");
    return 1;
  }
  fflush(stdout);
  int saved = dup(fileno(stdout));
  dup2(fileno(capture), fileno(stdout));

  say<<<1, 1>>>(1);
  CHECK_CUDA(cudaMemcpyToSymbol(device_value, &host_value, sizeof host_value));
  printf("host after cudaMemcpyToSymbol\n");
  say<<<1, 1>>>(2);
  CHECK_CUDA(cudaMemcpyFromSymbol(&host_value, device_value,
                                  sizeof host_value));
  printf("host after cudaMemcpyFromSymbol\n");
  say<<<1, 1>>>(3);
  CHECK_CUDA(cudaMemcpy2D(rows, 4 * sizeof(float), other, pitch,
                          4 * sizeof(float), 2, cudaMemcpyDeviceToHost));
  printf("host after cudaMemcpy2D\n");
  say<<<1, 1>>>(4);
  CHECK_CUDA(cudaMemcpyPeer(buffer, 0, other, 0, 4 * sizeof(float)));
  printf("host after cudaMemcpyPeer\n");
  say<<<1, 1>>>(5);
  cudaMemcpy3DParms box = {};
  box.srcPtr = make_cudaPitchedPtr(other, pitch, 4 * sizeof(float), 2);
  box.dstPtr = make_cudaPitchedPtr(rows, 4 * sizeof(float),
                                   4 * sizeof(float), 2);
  box.extent = make_cudaExtent(4 * sizeof(float), 2, 1);
  box.kind = cudaMemcpyDeviceToHost;
  CHECK_CUDA(cudaMemcpy3D(&box));
  printf("host after cudaMemcpy3D\n");
  say<<<1, 1>>>(6);
  CHECK_CUDA(cudaMemcpy(rows, buffer, 4 * sizeof(float),
                        cudaMemcpyDeviceToHost));
  printf("host after cudaMemcpy\n");
  fflush(stdout);

  dup2(saved, fileno(stdout));
  close(saved);

  const char *expected = "kernel 1\n"
                         "host after cudaMemcpyToSymbol\n"
                         "kernel 2\n"
                         "host after cudaMemcpyFromSymbol\n"
                         "kernel 3\n"
                         "host after cudaMemcpy2D\n"
                         "kernel 4\n"
                         "host after cudaMemcpyPeer\n"
                         "kernel 5\n"
                         "host after cudaMemcpy3D\n"
                         "kernel 6\n"
                         "host after cudaMemcpy\n";
  char got[1024] = {0};
  rewind(capture);
  size_t length = fread(got, 1, sizeof got - 1, capture);
  fclose(capture);
  got[length] = '\0';
  CHECK_CUDA(cudaFree(buffer));
  CHECK_CUDA(cudaFree(other));
  if (strcmp(got, expected) != 0) {
    printf("FAIL: the lines came in this order:\n%s", got);
    return 1;
  }
  printf("PASS\n");
  return 0;
}
