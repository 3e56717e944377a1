// extern_other_type_table.cu: the unit of tests/programs/shadow that defines
// a __constant__ table of structures, which extern_other_type_main.cu
// declares as a plain `extern` of another type (a pointer), as a public
// ray tracer does. The two link
// with -rdc=true (by nvcc too: a variable's name is not mangled).
// NVCC_OPTIONS: -rdc=true
#include <cuda_runtime.h>

struct ball {
  float radius;
  float x, y, z;
  float r, g, b;
};

__constant__ ball balls[20];

/* The sum of every ball's radius and colour, as the kernel reads them. */
__global__ void sum_balls(float *out) {
  float s = 0;
  for (int i = 0; i < 20; ++i)
    s += balls[i].radius + balls[i].r + balls[i].g + balls[i].b;
  *out = s;
}

float extern_other_type_sum() {
  float *d = nullptr, s = -1;
  if (cudaMalloc(&d, sizeof(float)) != cudaSuccess)
    return -1;
  sum_balls<<<1, 1>>>(d);
  if (cudaMemcpy(&s, d, sizeof s, cudaMemcpyDeviceToHost) != cudaSuccess)
    s = -1;
  cudaFree(d);
  return s;
}
