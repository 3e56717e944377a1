#pragma once
#include <cuda_runtime.h>
__global__ void init_kernel(int *p, int n, int base);
__global__ void add_kernel(int *dst, const int *a, const int *b, int n);
__global__ void check_kernel(const int *p, int n, int base, int *errors);
