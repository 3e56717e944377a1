// device_redeclared.cu: functions declared __device__ and redeclared
// __host__ __device__ (tests/driver_nvcc_warnings.sh). nvcc treats them as
// __host__ __device__ functions, gives warning #20036-D at the first
// redeclaration of each (lines 14, 17, 26 and 30) and lets host code call
// them; with -DREFUSED, a host call of a __device__ function whose
// __host__ __device__ namesake takes other parameters is refused.
#include <cstdio>

__device__ int twice(int x);
__device__ float half_of(float x);
__device__ int only_device(int x);

// The definition redeclares it.
__host__ __device__ int twice(int x) { return 2 * x; }

// A prototype redeclares it (the warning is there), then the definition.
__host__ __device__ float half_of(float x);
__host__ __device__ float half_of(float x) { return x / 2; }

// Another overload: only_device(int) stays device code.
__host__ __device__ int only_device(float x) { return (int)x + 100; }
__device__ int only_device(int x) { return x + 1; }

namespace geo {
__device__ double square(double x);
__host__ __device__ double square(double x) { return x * x; }
}  // namespace geo

__device__ int cube(int x);
__host__ __device__ inline int cube(int x) { return x * x * x; }

__global__ void kernel(int *out) {
  out[0] = twice(3) + (int)half_of(8.0f) + only_device(1) +
           (int)geo::square(2.0) + cube(2);
}

int main() {
  int *d = nullptr, got = 0;
  cudaMalloc(&d, sizeof(int));
  kernel<<<1, 1>>>(d);
  cudaMemcpy(&got, d, sizeof got, cudaMemcpyDeviceToHost);
  cudaFree(d);
#ifdef REFUSED
  got += only_device(1);
#endif
  int host = twice(5) + (int)half_of(3.0f) + only_device(2.0f) +
             (int)geo::square(3.0) + cube(3);
  // Device: 6 + 4 + 2 + 4 + 8; host: 10 + 1 + 102 + 9 + 27.
  if (got == 24 && host == 149) {
    printf("PASS\n");
    return 0;
  }
  printf("FAIL: device %d host %d\n", got, host);
  return 1;
}
