// free_in_order_memcheck.cu: a stream-ordered free happens at its place
// in the stream, and memcheck (built with --check=mem) sees a use after
// it as compute-sanitizer does:
//  - work issued after cudaFreeAsync on the same stream no longer owns
//    the memory, while work before the free (held back behind a kernel
//    until the host lets it go) still reads it cleanly, although the host
//    issued the free long before that work ran;
//  - a kernel on another stream that waits for an event recorded after
//    the free and reads the freed memory fails with
//    cudaErrorLaunchFailure (sticky until cudaDeviceReset).
// CUEMU_OPTIONS: --check=mem -std=c++17
#include <cstdlib>
#include <cuda_runtime.h>

#include <cstdint>

#include "../check.cuh"
#include "ordered_kernels.cuh"

#define RT(call) CHECK((call) == cudaSuccess)

int main() {
#ifdef __CUEMU__
  /* Its memcheck reports are expected: they leave the exit status 0
   * (they count for it otherwise, docs/checkers.md). */
  setenv("CUEMU_CHECK_EXIT_STATUS", "0", 1);
#endif
  const int n = 8192;
  RT(cudaSetDeviceFlags(cudaDeviceMapHost));
  cudaStream_t s1, s2;
  RT(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
  RT(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
  cudaMemPool_t pool;
  RT(cudaDeviceGetDefaultMemPool(&pool, 0));
  uint64_t keep = UINT64_MAX; // the pool keeps what is freed
  RT(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep));
  int *sum;
  RT(cudaMalloc(&sum, 2 * sizeof(int)));
  RT(cudaMemset(sum, 0, 2 * sizeof(int)));
  cudaEvent_t freed;
  RT(cudaEventCreateWithFlags(&freed, cudaEventDisableTiming));

  // The work before the free runs after the host issued the free.
  int *data = nullptr;
  {
    Hold hold(5.0);
    hold_until<<<1, 32, 0, s1>>>(hold.dflag);
    RT(cudaMallocAsync(&data, n * sizeof(int), s1));
    fill<int><<<n / 256, 256, 0, s1>>>(data, n, 1, 0);
    sum_into<int><<<n / 256, 256, 0, s1>>>(data, n, sum);
    RT(cudaFreeAsync(data, s1));
    RT(cudaEventRecord(freed, s1));
    CHECK(hold.release());
    RT(cudaStreamSynchronize(s1));
    int host = 0;
    RT(cudaMemcpy(&host, sum, sizeof host, cudaMemcpyDeviceToHost));
    CHECK(host == n * (n - 1) / 2);
  }

  // Wrong: s2 is ordered after the free, and reads the freed memory.
  RT(cudaStreamWaitEvent(s2, freed, 0));
  sum_into<int><<<n / 256, 256, 0, s2>>>(data, n, sum + 1);
  cudaError_t e = cudaStreamSynchronize(s2);
  CHECK(e == cudaErrorLaunchFailure || e == cudaErrorIllegalAddress);
  CHECK(cudaMallocAsync(&data, 16, s1) == e); // sticky
  RT(cudaDeviceReset());
  return finish();
}
