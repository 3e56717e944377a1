#pragma once
/* Device functions defined in devmath.cu, called from other files. */
__device__ float poly(float x);
extern __device__ int calls;
