/* vec.cuh: what the files of the multi-file program share. */
#ifndef VEC_CUH
#define VEC_CUH

__global__ void saxpy(float a, const float *x, float *y, int n);
void launch_scale(float *y, float factor, int n);
void saxpy_gold(float a, const float *x, float *y, int n);
extern "C" int c_answer(void);

#endif
