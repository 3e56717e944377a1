// fill.cu (check_alloc_nodebug.sh): a checked kernel, so that the process
// has the checkers.
#include <cuda_runtime.h>

__global__ void fill(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] = i;
}

extern "C" int fill_on_device(int *p, int n) {
  fill<<<(n + 31) / 32, 32>>>(p, n);
  int last = 0;
  if (cudaDeviceSynchronize() != cudaSuccess ||
      cudaMemcpy(&last, p + n - 1, sizeof last, cudaMemcpyDeviceToHost) !=
          cudaSuccess)
    return -1;
  return last + 1;
}
