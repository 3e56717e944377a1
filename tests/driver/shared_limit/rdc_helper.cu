// rdc_helper.cu: the other file of rdc_kernel.cu: a __device__ function
// with 32 KiB of static shared memory, or 40 KiB with -DBIG_HELPER.
#ifdef BIG_HELPER
#define RING 10240
#else
#define RING 8192
#endif

__device__ float rotate_far(float v) {
  __shared__ float ring[RING];
  ring[threadIdx.x] = v;
  __syncthreads();
  float r = ring[(threadIdx.x + 1) % blockDim.x];
  __syncthreads();
  return r;
}
