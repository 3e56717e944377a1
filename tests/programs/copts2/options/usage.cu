/* usage.cu: kernels whose resources --resource-usage reports (a static
 * shared array of 256 bytes, a local array) and a marker of each pass,
 * which --keep's files show. It also runs: PASS when both kernels did. */
#include <cstdio>

#ifdef __CUDA_ARCH__
int device_pass_marker;
#else
int host_pass_marker;
#endif

__global__ void staged(float *x) {
  __shared__ float tile[64];
  float local[40];
  for (int i = 0; i < 40; ++i)
    local[i] = x[(i * 7 + threadIdx.x) % 64];
  tile[threadIdx.x] = local[threadIdx.x % 40];
  __syncthreads();
  x[threadIdx.x] = tile[63 - threadIdx.x];
}

__global__ void mark(int *flag) { *flag = 42; }

int main() {
  float *x;
  int *flag;
  cudaMallocManaged(&x, 64 * sizeof(float));
  cudaMallocManaged(&flag, sizeof(int));
  for (int i = 0; i < 64; ++i)
    x[i] = (float)i;
  staged<<<1, 64>>>(x);
  mark<<<1, 1>>>(flag);
  cudaDeviceSynchronize();
  /* tile[t] = x[((t % 40) * 7 + t) % 64]; x[t] = tile[63 - t]. */
  int bad = *flag != 42;
  for (int t = 0; t < 64; ++t) {
    int s = 63 - t;
    bad |= x[t] != (float)(((s % 40) * 7 + s) % 64);
  }
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad;
}
