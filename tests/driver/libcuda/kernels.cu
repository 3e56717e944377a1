// kernels.cu: the module of tests/libcuda.sh, built with
// `cuemu-nvcc -fatbin` (nvcc -fatbin with the real toolkit) and loaded by
// load_driver.cu, link_driver.c and stringified_names.cu through
// libcuda.so.1.
// Added to every result: a variable that stringified_names.cu sets
// through cuModuleGetGlobal (0 until then).
__device__ float bias;

extern "C" __global__ void scale_add(float *y, const float *x, float a,
                                     int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i] + bias;
}
