// kern.cuh: the interface of the kernels (tests/driver/cuda_path).
#pragma once
#include <cuda_runtime.h>
__device__ float square(float v);
cudaError_t square_all(float *x, int n);
