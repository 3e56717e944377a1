/*
 * gdb_errors.cu: kernels that fail, for the gdb batch tests of
 * `cuemu break-on-error` and of faults (tests/gdb/*.sh).
 *
 *   gdb_errors divergent   threads 0-3 of block 1 wait at one barrier and
 *                          the others at another: a divergent barrier
 *   gdb_errors fault       thread 3 of block 1 writes through a null pointer
 *   gdb_errors assert      threads 1 and 6 of block 0 fail an assert()
 *
 * On a GPU the first is undefined behaviour, the second an illegal address
 * and the third an assertion failure; each launch must fail, and the
 * program says how.
 */
#include <cassert>
#include <cstdio>
#include <cstring>

__global__ void divergent(int *out) {
  __shared__ int flag[8];
  flag[threadIdx.x] = threadIdx.x;
  if (blockIdx.x == 1 && threadIdx.x < 4) {
    __syncthreads(); /* LINE:divergent_low */
    out[threadIdx.x] = flag[threadIdx.x + 4];
  } else {
    __syncthreads(); /* LINE:divergent_high */
    out[threadIdx.x] = flag[threadIdx.x];
  }
}

__global__ void fault(int *out, int *bad) {
  int *target = out + threadIdx.x;
  if (blockIdx.x == 1 && threadIdx.x == 3)
    target = bad;
  *target = (int)threadIdx.x; /* LINE:fault */
}

__global__ void checked(int *out) {
  int value = (int)(threadIdx.x * 7 % 5);
  assert(value != 2 || blockIdx.x != 0); /* LINE:assert */
  out[threadIdx.x] = value;
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "divergent";
  int *out;
  cudaMalloc(&out, 8 * sizeof(int));
  if (strcmp(mode, "fault") == 0)
    fault<<<2, 8>>>(out, nullptr);
  else if (strcmp(mode, "assert") == 0)
    checked<<<2, 8>>>(out);
  else
    divergent<<<2, 8>>>(out);
  cudaError_t err = cudaDeviceSynchronize();
  printf("gdb_errors %s: %s\n", mode, cudaGetErrorName(err));
  return err == cudaSuccess ? 1 : 0;
}
