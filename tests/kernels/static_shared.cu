/*
 * static_shared.cu: kernels with static __shared__ memory, whose size the
 * device learns (cudaFuncGetAttributes' sharedSizeBytes) and counts in the
 * launch's check of static plus dynamic shared memory.
 */
__global__ void tiled(float *out) {
  __shared__ double tile[16][17];
  tile[threadIdx.x][0] = 2.0;
  __syncthreads();
  out[threadIdx.x] = (float)tile[15 - threadIdx.x][0];
}

template <typename T, int N> __global__ void buffered(T *out) {
  __shared__ T buf[N];
  __shared__ int count;
  if (threadIdx.x == 0)
    count = 1;
  buf[threadIdx.x] = (T)threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = buf[N - 1 - threadIdx.x] + (T)count;
}

template __global__ void buffered<float, 32>(float *);
