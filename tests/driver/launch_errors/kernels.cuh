// kernels.cuh: the kernels that launch_errors.cu launches with wrong
// arguments, in a header, as projects declare them.
#ifndef LAUNCH_ERRORS_KERNELS_CUH
#define LAUNCH_ERRORS_KERNELS_CUH

__global__ void scale(int *data, int factor) { data[threadIdx.x] *= factor; }

template <typename T>
__global__ void fill(T *data, T value) { data[threadIdx.x] = value; }

__device__ int twice(int v) { return 2 * v; }
__host__ __device__ int thrice(int v) { return 3 * v; }
inline void on_host(int *data) { data[0] = 1; }

#endif
