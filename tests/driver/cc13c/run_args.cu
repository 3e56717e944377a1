// run_args.cu: prints its arguments, each in brackets, and the sum of the
// threads' indices that a kernel adds up; exits with the status given as
// --status=N (tests/driver_run.sh runs it with nvcc's -run and
// --run-args).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

__global__ void add_indices(int *sum) { atomicAdd(sum, (int)threadIdx.x); }

int main(int argc, char **argv) {
  int status = 0;
  for (int i = 1; i < argc; ++i) {
    std::printf("[%s]", argv[i]);
    if (std::strncmp(argv[i], "--status=", 9) == 0)
      status = std::atoi(argv[i] + 9);
  }
  int *sum;
  if (cudaMallocManaged(&sum, sizeof *sum) != cudaSuccess)
    return 1;
  *sum = 0;
  add_indices<<<1, 32>>>(sum);
  if (cudaDeviceSynchronize() != cudaSuccess)
    return 1;
  std::printf(" sum %d\n", *sum);
  cudaFree(sum);
  return status;
}
