// ops.cuh: the interface of libops.so, a shared library of relocatable
// device code: a __device__ function and variable defined in dev.cu, used
// by the kernels of kern.cu.
#pragma once

extern __device__ float twice(float v);
extern __device__ unsigned twice_calls;

__global__ void double_all(float *x, int n);
__global__ void count_calls(unsigned *out);

// Host functions of the library.
int run_double_all(float *x, int n);
unsigned calls_so_far();
