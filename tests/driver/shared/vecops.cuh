// vecops.cuh: the interface of libvecops.so (vecops.cu), a shared library
// of kernels and the host functions that drive them.
#pragma once

// A kernel the application launches itself with <<<>>>.
__global__ void vec_scale(float *x, int n);

// Host functions of the library: they set and read its __constant__ and
// __device__ variables with cudaMemcpyToSymbol/cudaMemcpyFromSymbol and
// launch its other kernels.
void vec_set_factor(float factor);
float vec_sum(const float *x, int n);
int vec_launches();
