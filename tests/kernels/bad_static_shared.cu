/*
 * bad_static_shared.cu: more static shared memory than a kernel may have
 * (48 KiB); nvcc refuses it ("uses too much shared data"), and so does
 * cuemu-cc, at compile time.
 */
__global__ void too_big(char *out) {
  __shared__ char big[48 * 1024 + 1]; /* TOO_BIG */
  big[threadIdx.x] = 1;
  __syncthreads();
  out[threadIdx.x] = big[threadIdx.x];
}
