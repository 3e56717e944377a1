// curand_parts.cu: includes <curand_kernel.h> and one of the headers it
// includes itself, <curand_normal.h>, and uses <cstdio>'s printf and
// stderr without including <cstdio>. None of cuRAND's headers brings them
// with nvcc 13.0 (`identifier "printf" is undefined`), so cuemu-nvcc warns
// at the first use of each (tests/driver_nvcc_undeclared.sh). Before, it
// said nothing: the lines where curand_kernel.h expands the shims'
// __forceinline__ lose their system-header flag, and were taken for files
// of the user's, whose includes are not in the table.
#include <curand_kernel.h>
#include <curand_normal.h>

__global__ void normal(float *out) {
  curandStatePhilox4_32_10_t state;
  curand_init(1234, 0, 0, &state);
  out[0] = curand_normal(&state);
}

int main() {
  fprintf(stderr, "curand_parts\n");
  printf("PASS\n");
  return 0;
}
