// A program that calls cuSOLVERMg, which cuemu does not emulate: its link
// must fail with a message naming the library (nvcc links it).
#include <cstdio>
#include <cusolverMg.h>

int main() {
  cusolverMgHandle_t handle;
  if (cusolverMgCreate(&handle) != CUSOLVER_STATUS_SUCCESS)
    return 1;
  cusolverMgDestroy(handle);
  printf("PASS\n");
  return 0;
}
