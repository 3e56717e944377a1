// dot.cuh: the interface of tests/driver/toolkit_cccl.
#pragma once
#include <cuda_runtime.h>
#define DOT_BLOCK 128
extern __device__ double partial_dot(const double *a, const double *b, int n);
__global__ void dot_kernel(const double *a, const double *b, int n, double *out);
