// init_surf_read_unwritten.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: init
// EXPECT: init read uninitialised cudaArray element (0,0) line 13
#include <cstdio>
#include <cuda_runtime.h>

/* A surface read of array elements that nothing wrote: the kernel that
 * should have written them (surf2Dwrite) was never launched. */
__global__ void blur(cudaSurfaceObject_t surf, int w, float *out) {
  int x = threadIdx.x;
  float v = 0.0f;
  if (x < w)
    surf2Dread(&v, surf, x * (int)sizeof(float), 0);
  out[x] = v;
}

int main() {
  const int w = 16;
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
  cudaArray_t array;
  cudaMallocArray(&array, &desc, w, 1, cudaArraySurfaceLoadStore);
  cudaResourceDesc res = {};
  res.resType = cudaResourceTypeArray;
  res.res.array.array = array;
  cudaSurfaceObject_t surf;
  cudaCreateSurfaceObject(&surf, &res);
  float *out;
  cudaMalloc(&out, w * sizeof(float));
  blur<<<1, w>>>(surf, w, out);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorName(e));
  return 0;
}
