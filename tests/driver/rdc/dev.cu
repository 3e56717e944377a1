/* dev.cu: device functions and variables used from another file (-rdc). */
__device__ int counter;
__device__ int table[4] = {1, 2, 3, 4};

__device__ float twice(float x) {
#ifdef __CUDA_ARCH__
  return 2.0f * x;
#else
  return -1.0f;
#endif
}
