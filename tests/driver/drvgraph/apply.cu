// apply.cu: kernels that call a device function and read a variable
// defined in another module (math.cu), linked with cuLink*.
extern __device__ float poly(float x);
extern __device__ float bias;

extern "C" __global__ void apply_poly(float *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    v[i] = poly(v[i]) + bias;
}
