// ending_reports_count.cu: a memcheck or synccheck report ends its launch
// (the program sees cudaErrorLaunchFailure), and it counts for the exit
// status as racecheck's and initcheck's reports do, so that a program that
// never checks the error still fails under the checkers, as under
// `compute-sanitizer --error-exitcode 1` (tests/checkers_reports.sh).
// Argument "mem": a kernel writes past its allocation; "sync": a block
// counts votes at a barrier after some of its threads returned. Prints PASS when the launch failed.
#include <cstdio>
#include <cstring>

#include <cuda_runtime.h>

__global__ void write_past(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n)
    out[i] = i;
}

/* Threads past n return, then the others count votes at a barrier that
 * waits for the whole block. */
__global__ void count_after_exit(int *out, int n) {
  if ((int)threadIdx.x >= n)
    return;
  int c = __syncthreads_count(1);
  if (threadIdx.x == 0)
    *out = c;
}

int main(int argc, char **argv) {
  const int n = 64;
  int *d;
  cudaMalloc(&d, n * sizeof(int));
  if (argc > 1 && strcmp(argv[1], "sync") == 0)
    count_after_exit<<<1, n>>>(d, n - 8);
  else
    write_past<<<1, n + 32>>>(d, n);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", e == cudaErrorLaunchFailure ? "PASS" : "FAIL");
  return 0;
}
