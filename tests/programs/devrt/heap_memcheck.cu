/*
 * heap_memcheck.cu: memcheck (--check=mem) on the device heap, as
 * compute-sanitizer's memcheck: a write past the end of an allocation made
 * by malloc in kernel code, a read after free, a double free (an error
 * with or without the checkers) and, with CUEMU_CHECK_LEAKS=1 (compute-
 * sanitizer's --leak-check full), the allocations never freed, reported
 * at cudaDeviceReset with the line that made them. Correct use of the heap
 * gives no report.
 * CUEMU_OPTIONS: --check=mem
 */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <fcntl.h>
#include <unistd.h>

#include "../check.cuh"
#include "../stderr_capture.cuh"

#ifdef __CUEMU__
#include <cuemu/cuemu.h>
#endif

__device__ int *saved;

__global__ void correct(int *out) {
  int *a = static_cast<int *>(malloc(10 * sizeof(int)));
  for (int i = 0; i < 10; ++i)
    a[i] = i;
  *out = a[9];
  free(a);
}

__global__ void past_the_end(int n) {
  int *a = static_cast<int *>(malloc(10 * sizeof(int)));
  a[n] = 1; /* n == 10 */
  saved = a;
}

__global__ void after_free(int *out) {
  int *a = static_cast<int *>(malloc(8 * sizeof(int)));
  a[0] = 5;
  free(a);
  *out = a[0];
}

__global__ void twice() {
  char *p = new char[32];
  delete[] p;
  delete[] p;
}

__global__ void leak() {
  saved = static_cast<int *>(malloc(24)); /* never freed */
}

int main() {
  int *out;
  cudaMallocManaged(&out, sizeof(int));
  correct<<<2, 32>>>(out);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(*out == 9);

  past_the_end<<<1, 1>>>(10);
  CHECK(cudaDeviceSynchronize() == cudaErrorLaunchFailure);
  cudaDeviceReset();

  cudaMallocManaged(&out, sizeof(int));
  after_free<<<1, 1>>>(out);
  CHECK(cudaDeviceSynchronize() == cudaErrorLaunchFailure);
  cudaDeviceReset();

  twice<<<1, 1>>>();
  CHECK(cudaDeviceSynchronize() == cudaErrorIllegalAddress);
  cudaDeviceReset();

#ifdef __CUEMU__
  /* The two memcheck reports above (they ended their launches) were
   * expected: they count for the exit status otherwise. */
  CHECK(cuemu_check_reports(nullptr) == 2);
  cuemu_check_reports_clear();
#endif
  setenv("CUEMU_CHECK_LEAKS", "1", 1);
  leak<<<1, 1>>>();
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  std::string report = stderr_of([] { cudaDeviceReset(); });
  CHECK(report.find("leak: 24 bytes of the device heap") != std::string::npos);
  CHECK(report.find("heap_memcheck.cu:55") != std::string::npos);
  unsetenv("CUEMU_CHECK_LEAKS");
#ifdef __CUEMU__
  /* The leak counts among the program's reports; it was expected. */
  CHECK(cuemu_check_reports(nullptr) == 1);
  cuemu_check_reports_clear();
#endif
  std::printf("the three errors above were expected\n");
  return finish();
}
