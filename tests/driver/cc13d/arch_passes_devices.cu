// arch_passes_devices.cu: each device of a program runs the device pass
// that the driver picks for it. Built with -gencode arch=compute_80,
// code=sm_80 and -gencode arch=compute_90,code=sm_90, and run on two
// devices of different compute capabilities (CUEMU_DEVICE=count=2,sm=90,
// 1:sm=86), each device's launches run their own pick: __CUDA_ARCH__ 900
// on the 9.0 device, 800 on the 8.6 one, through streams of each device
// launched before either is synchronized; cudaFuncGetAttributes reads the
// current device's pick. On one GPU the program prints its one line.
// tests/cuda_arch_passes.sh.
#include <cstdio>

__global__ void which_pass(int *out, int slot)
{
#ifdef __CUDA_ARCH__
  out[slot] = __CUDA_ARCH__;
#endif
}

int main()
{
  int count = 0;
  cudaGetDeviceCount(&count);
  if (count > 4)
    count = 4;
  int *d[4], h[4][4];
  cudaStream_t s[4];
  for (int i = 0; i < count; ++i) {
    cudaSetDevice(i);
    cudaMalloc(&d[i], 4 * sizeof(int));
    cudaMemset(d[i], 0xff, 4 * sizeof(int));
    cudaStreamCreate(&s[i]);
  }
  for (int round = 0; round < 4; ++round)
    for (int i = 0; i < count; ++i) {
      cudaSetDevice(i);
      which_pass<<<1, 1, 0, s[i]>>>(d[i], round);
    }
  for (int i = 0; i < count; ++i) {
    cudaSetDevice(i);
    cudaStreamSynchronize(s[i]);
    cudaMemcpy(h[i], d[i], sizeof h[i], cudaMemcpyDeviceToHost);
    cudaFuncAttributes attr;
    cudaFuncGetAttributes(&attr, which_pass);
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, i);
    printf("device %d (%d.%d): %d %d %d %d ptx %d binary %d\n", i, prop.major,
           prop.minor, h[i][0], h[i][1], h[i][2], h[i][3], attr.ptxVersion,
           attr.binaryVersion);
    cudaStreamDestroy(s[i]);
    cudaFree(d[i]);
  }
  return 0;
}
