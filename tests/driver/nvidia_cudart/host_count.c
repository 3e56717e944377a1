/* host_count.c: host code that calls the runtime API itself, compiled by
 * the C compiler (as a CMake project's C and C++ files are, or a C host
 * such as an old MD5 cracker's main.c): its cudaGetDeviceCount must be
 * cuemu's (one device), not the runtime that the link line names by its
 * path. */
#include <stdio.h>

#include <cuda_runtime.h>

int fill_on_device(void); /* fill.cu */

int main(void) {
  int count = -1;
  cudaError_t e = cudaGetDeviceCount(&count);
  int ok = e == cudaSuccess && count == 1 && fill_on_device() == 3;
  printf("%s\n", ok ? "PASS" : "FAIL");
  if (!ok)
    printf("cudaGetDeviceCount: %d, count %d\n", (int)e, count);
  return ok ? 0 : 1;
}
