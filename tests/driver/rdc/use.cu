/* use.cu: a kernel that calls a __device__ function and uses __device__
 * variables of another file (relocatable device code). */
#include <cstdio>

extern __device__ int counter;
extern __device__ int table[4];
extern __device__ float twice(float x);

__global__ void use(float *out) {
  out[threadIdx.x] = twice((float)table[threadIdx.x]);
  atomicAdd(&counter, 1);
}

int main() {
  float *out;
  cudaMallocManaged(&out, 4 * sizeof(float));
  use<<<1, 4>>>(out);
  cudaDeviceSynchronize();
  int hits = 0;
  cudaMemcpyFromSymbol(&hits, counter, sizeof hits);
  int bad = hits != 4;
  for (int i = 0; i < 4; ++i)
    bad += out[i] != 2.0f * (float)(i + 1);
  bad += cudaGetLastError() != cudaSuccess;
  cudaFree(out);
  std::printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
