/* kernels.cu: the module of drv_main.c, built with -fatbin (or -ptx) and
 * loaded by name: extern "C" kernels, a __constant__ scale and a
 * __device__ counter that the host reads through cuModuleGetGlobal. */
extern "C" {
__constant__ float scale;
__device__ unsigned int blocks_done;

__global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * scale * x[i] + y[i];
  if (threadIdx.x == 0)
    atomicAdd(&blocks_done, 1u);
}

/* Each block sums its elements in dynamic shared memory. */
__global__ void block_sums(const float *x, float *sums, int n) {
  extern __shared__ float part[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  part[threadIdx.x] = i < n ? x[i] : 0.0f;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s /= 2) {
    if (threadIdx.x < s)
      part[threadIdx.x] += part[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    sums[blockIdx.x] = part[0];
}
}
