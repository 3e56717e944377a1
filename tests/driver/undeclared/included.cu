// included.cu: bare.cu's names after their headers, which nvcc accepts:
// no warning (tests/driver_nvcc_undeclared.sh).
#include <cstdint>
#include <cstdio>

__global__ void store(uint32_t *out) { out[0] = 7; }

int main() {
  uintptr_t address = 0;
  printf("PASS\n");
  return static_cast<int>(address);
}
