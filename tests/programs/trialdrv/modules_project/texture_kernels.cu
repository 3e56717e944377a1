// texture_kernels.cu: rotates an image read through a texture object (normalized coordinates,
// linear filtering); a 3D copy check kernel; a reduction whose dynamic
// shared memory depends on its block size.
extern "C" __global__ void transformKernel(float *outputData, int width, int height, float theta,
                                           cudaTextureObject_t tex) {
  unsigned int x = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned int y = blockIdx.y * blockDim.y + threadIdx.y;
  float u = (float)x - (float)width / 2;
  float v = (float)y - (float)height / 2;
  float tu = u * cosf(theta) - v * sinf(theta);
  float tv = v * cosf(theta) + u * sinf(theta);
  tu /= (float)width;
  tv /= (float)height;
  outputData[y * width + x] = tex2D<float>(tex, tu + 0.5f, tv + 0.5f);
}
extern "C" __global__ void blockSum(const float *in, float *out, int n) {
  extern __shared__ float s[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned k = blockDim.x / 2; k > 0; k >>= 1) {
    if (threadIdx.x < k) s[threadIdx.x] += s[threadIdx.x + k];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(out, s[0]);
}
