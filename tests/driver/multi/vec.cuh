/* vec.cuh: what the files of the multi-file program share. */
#ifndef VEC_CUH
#define VEC_CUH

__global__ void saxpy(float a, const float *x, float *y, int n);
void launch_scale(float *y, float factor, int n);
void saxpy_gold(float a, const float *x, float *y, int n);
extern "C" int c_answer(void);
/* Each .cu file has a `static __device__ int calls`, a `static` kernel
 * `count` and an unnamed namespace's `__device__ int seen`, all with the
 * same names: each file's are its own (internal linkage), and one object
 * in each of nvcc's passes. So is `__device__ int shared_name` (without
 * -rdc, nvcc compiles each file's device code alone). Returns the number of wrong values. */
int check_private_kernels(void);

#endif
