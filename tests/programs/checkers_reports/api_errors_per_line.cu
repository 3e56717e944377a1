// api_errors_per_line.cu: memcheck reports a failing runtime API call once
// for each error and calling line (docs/checkers.md). Launches are made
// through the shims' out-of-line code (cuemu_rt_record_launch, called from
// a launcher's noinline host_launch shared by all kernels of one type),
// whose return address is the same for every launch: counted by it, two
// failing launches on two lines gave one report, as in a public program
// with three (a unified-memory class example). Each launch below
// has a zero grid dimension; the two lines must be reported, the first
// line once however often it fails. The calls still fail as in CUDA.
#include <cstdio>
#include <cuda_runtime.h>

#include "../check.cuh"

__global__ void first(int *p) { *p = 1; }
__global__ void second(int *p) { *p = 2; }

static cudaError_t launch_first(int *p) {
  first<<<dim3(1, 0, 1), 1>>>(p); // @first
  return cudaGetLastError();
}

static cudaError_t launch_second(int *p) {
  second<<<dim3(1, 0, 1), 1>>>(p); // @second
  return cudaGetLastError();
}

int main() {
  int *p = nullptr;
  CHECK(cudaMalloc(&p, sizeof(int)) == cudaSuccess);
  for (int i = 0; i < 3; ++i)
    CHECK(launch_first(p) == cudaErrorInvalidConfiguration);
  CHECK(launch_second(p) == cudaErrorInvalidConfiguration);
  CHECK(cudaFree(p) == cudaSuccess);
  return finish();
}
