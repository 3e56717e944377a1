/*
 * bad_static_shared_sum.cu: two static shared tiles of 30 KiB each, each
 * under the 48 KiB a kernel may have but 60 KiB together (an image filter's
 * input and output tiles, trialimg), the second in a __device__ function
 * the kernel calls; nvcc refuses the kernel ("uses too much shared data
 * (0xf000 bytes, 0xc000 max)"), and cuemu refuses its launch, naming the
 * kernel and both sizes (the tiles of one kernel body are refused at
 * compile time: bad_static_shared_total.cu).
 */
__device__ float transposed(float v) {
  __shared__ float out_tile[64][120];
  out_tile[threadIdx.x][threadIdx.y] = v;
  __syncthreads();
  return out_tile[threadIdx.y][threadIdx.x];
}

__global__ void two_tiles(float *out) {
  __shared__ float in_tile[64][120];
  in_tile[threadIdx.y][threadIdx.x] = (float)threadIdx.x;
  __syncthreads();
  out[threadIdx.y * blockDim.x + threadIdx.x] =
      transposed(in_tile[threadIdx.y][threadIdx.x]);
}
