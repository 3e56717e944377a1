// dev.cu: a __device__ function that kern.cu calls (relocatable device code).
#include "kern.cuh"
__device__ float square(float v) { return v * v; }
