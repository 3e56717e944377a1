// bare.cu: uses <cstdint>'s uint32_t and uintptr_t and <cstdio>'s printf
// without including them, which nvcc 13.0 refuses (`identifier "uint32_t"
// is undefined`); cuemu-nvcc compiles it, since its shims declare them,
// and warns at each first use (tests/driver_nvcc_undeclared.sh).
#include "bare.cuh"

__global__ void store(uint32_t *out) { out[0] = 7; }

int main() {
  uintptr_t address = 0;
  printf("PASS\n");
  return static_cast<int>(address);
}
