// fill.cu: a kernel and its launch, for host_count.c.
__global__ void fill(int *p) { p[threadIdx.x] = threadIdx.x; }

extern "C" int fill_on_device() {
  int *d, h[4] = {0, 0, 0, 0};
  if (cudaMalloc(&d, sizeof h) != cudaSuccess)
    return -1;
  fill<<<1, 4>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  cudaFree(d);
  return h[3];
}
