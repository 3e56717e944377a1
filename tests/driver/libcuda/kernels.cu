// kernels.cu: the module of tests/libcuda.sh, built with
// `cuemu-nvcc -fatbin` (nvcc -fatbin with the real toolkit) and loaded by
// load_driver.cu and link_driver.c through libcuda.so.1.
extern "C" __global__ void scale_add(float *y, const float *x, float a,
                                     int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}
