/*
 * heap_checks.cu: the checkers on the device heap (malloc and new in
 * kernel code), as compute-sanitizer's on a GPU's: initcheck reports a
 * read of malloc'd bytes nothing wrote, racecheck two threads writing one
 * malloc'd word without a barrier between them (both launches go on and
 * succeed), memcheck a read after free (in a later launch; it ends the
 * launch); correct use (per-thread buffers, a block's
 * buffer shared through __syncthreads, memory freed and allocated again)
 * gives no report.
 * CUEMU_OPTIONS: --check=race,init,mem
 */
#include <cstdio>
#include <cstdlib>
#include <string>

#include "../check.cuh"
#include "../stderr_capture.cuh"

#ifdef __CUEMU__
#include <cuemu/cuemu.h>
#endif

__device__ int *kept;

/* A block's buffer: thread 0 allocates it, every thread fills its slot,
 * thread 0 sums the slots and frees it; each thread also uses a buffer of
 * its own twice. */
__global__ void correct(int *sums) {
  __shared__ int *block_buffer;
  if (threadIdx.x == 0)
    block_buffer = static_cast<int *>(malloc(blockDim.x * sizeof(int)));
  __syncthreads();
  block_buffer[threadIdx.x] = static_cast<int>(threadIdx.x);
  for (int round = 0; round < 2; ++round) {
    int *mine = new int[4];
    for (int i = 0; i < 4; ++i)
      mine[i] = i + round;
    block_buffer[threadIdx.x] += mine[3] - 3 - round;
    delete[] mine;
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    int s = 0;
    for (unsigned i = 0; i < blockDim.x; ++i)
      s += block_buffer[i];
    sums[blockIdx.x] = s;
    free(block_buffer);
  }
}

__global__ void unwritten(int *out) {
  int *a = static_cast<int *>(malloc(8 * sizeof(int)));
  for (int i = 0; i < 7; ++i)
    a[i] = i;
  *out = a[7]; /* never written */
  free(a);
}

__global__ void racy(int *out) {
  __shared__ int *shared_buffer;
  if (threadIdx.x == 0)
    shared_buffer = static_cast<int *>(malloc(sizeof(int)));
  __syncthreads();
  if (threadIdx.x < 2)
    *shared_buffer = static_cast<int>(threadIdx.x); /* both write */
  __syncthreads();
  if (threadIdx.x == 0) {
    *out = *shared_buffer;
    free(shared_buffer);
  }
}

__global__ void keep() {
  kept = static_cast<int *>(malloc(4 * sizeof(int)));
  kept[2] = 7;
}
__global__ void drop() { free(kept); }
__global__ void read_kept(int *out) { *out = kept[2]; }

static bool has(const std::string &text, const char *what) {
  return text.find(what) != std::string::npos;
}

int main() {
  /* The reports are what this test reads (make check sets CUEMU_QUIET). */
  unsetenv("CUEMU_QUIET");
  int *out;
  CHECK(cudaMallocManaged(&out, 4 * sizeof(int)) == cudaSuccess);
  correct<<<4, 64>>>(out);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  for (int b = 0; b < 4; ++b)
    CHECK(out[b] == 64 * 63 / 2);

  std::string report = stderr_of([&] {
    unwritten<<<1, 1>>>(out);
    CHECK(cudaDeviceSynchronize() == cudaSuccess);
  });
  CHECK(has(report, "initcheck"));
  CHECK(has(report, "device heap"));
  CHECK(has(report, "heap_checks.cu:55"));
  cudaDeviceReset();

  CHECK(cudaMallocManaged(&out, sizeof(int)) == cudaSuccess);
  report = stderr_of([&] {
    racy<<<1, 32>>>(out);
    CHECK(cudaDeviceSynchronize() == cudaSuccess);
  });
  CHECK(has(report, "racecheck"));
  CHECK(has(report, "WAW"));
  CHECK(has(report, "heap_checks.cu:65"));
  cudaDeviceReset();

  CHECK(cudaMallocManaged(&out, sizeof(int)) == cudaSuccess);
  keep<<<1, 1>>>();
  drop<<<1, 1>>>();
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  report = stderr_of([&] {
    read_kept<<<1, 1>>>(out);
    CHECK(cudaDeviceSynchronize() == cudaErrorLaunchFailure);
  });
  CHECK(has(report, "use after free"));
  CHECK(has(report, "heap_checks.cu:78"));
  cudaDeviceReset();
#ifdef __CUEMU__
  /* The initcheck and racecheck reports were expected: exit status 0. */
  CHECK(cuemu_check_reports(nullptr) >= 2);
  cuemu_check_reports_clear();
#endif
  std::printf("the three reports above were expected\n");
  return finish();
}
