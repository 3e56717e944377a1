// passes.cu: headers that differ between nvcc's two passes. -M lists both
// passes' headers (device_side.cuh and host_side.h), -E shows the device
// pass (device_side.cuh only). tests/driver.sh compares with nvcc.
#include "common.h"
#ifdef __CUDA_ARCH__
#include "device_side.cuh"
#else
#include "host_side.h"
#endif

__global__ void fill(int *x) { x[threadIdx.x] = common_value() + 1; }

int main() { return 0; }
