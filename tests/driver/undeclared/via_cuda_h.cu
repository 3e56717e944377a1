// via_cuda_h.cu: <cuda.h> brings <stdint.h> with nvcc (its cuuint32_t),
// so uint32_t needs no warning there; <cstdio> is included for printf.
#include <cuda.h>
#include <cstdio>

__global__ void store(uint32_t *out) { out[0] = 7; }

int main() {
  printf("PASS\n");
  return 0;
}
