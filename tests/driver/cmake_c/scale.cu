// scale.cu: the kernel of tests/driver/cmake_c and its launcher, which
// host.c calls with C linkage.
__global__ void scale(float *data, int n, float factor)
{
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] *= factor;
}

extern "C" int scale_on_device(float *data, int n, float factor)
{
  scale<<<(n + 127) / 128, 128>>>(data, n, factor);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
