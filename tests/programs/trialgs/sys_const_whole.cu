// sys_const_whole.cu: a `__device__ const` table of a header found through
// -isystem (as CMake passes an imported target's include folders), included
// by two units compiled in whole-program mode (no -rdc). A const variable
// has internal linkage in C++, and nvcc links the two units. Before:
// cuemu-nvcc gave the system header's const variable external linkage
// (unlike the user's headers', made each unit's own) and the link failed
// with "multiple definition of `kSysPrimes'".
// CUEMU_OPTIONS: -isystem units/sys units/sys_const_other.cu
// NVCC_OPTIONS: -isystem units/sys
#include <cstdio>

#include <rdc_sys_tables.cuh>

int other_unit_prime();

__global__ void first_prime(int *out) { out[0] = kSysPrimes[0]; }

int main() {
  int *d = nullptr, mine = -1;
  cudaMalloc(&d, sizeof(int));
  first_prime<<<1, 1>>>(d);
  cudaMemcpy(&mine, d, sizeof mine, cudaMemcpyDeviceToHost);
  cudaFree(d);
  int other = other_unit_prime();
  printf("first %d, other %d\n", mine, other);
  int ok = mine == 2 && other == 5;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
