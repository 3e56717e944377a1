// fp16_alone.cu: the names a .cu file may use with nvcc 13.0 after
// including <cuda_fp16.h> alone: __half, __half2 and their functions, and
// what cuda_runtime.h brings (runtime_alone.cu); nvcc's <cuda_fp16.h>
// brings no header of the C or C++ library besides. Each also compiles
// with cuemu-nvcc (docs/nvcc-checks.md, "What a header brings"). Prints PASS;
// <cstdio> (nvcc refuses printf without it) is included after the names
// are used.
#include <cuda_fp16.h>

__global__ void device_names(__half *out) {
  __half2 pair = __floats2half2_rn(1.5f, 2.5f);
  __half sum = __hadd(__low2half(pair), __high2half(pair));
  out[0] = __hmul(sum, __float2half(2.0f));
}

static int run() {
  __half *out = nullptr;
  if (cudaMallocManaged(&out, sizeof(__half)) != cudaSuccess)
    return 1;
  device_names<<<1, 1>>>(out);
  if (cudaDeviceSynchronize() != cudaSuccess)
    return 2;
  const float value = __half2float(out[0]);
  cudaFree(out);
  return value == 8.0f && std::numeric_limits<float>::max() > 1e38f ? 0 : 3;
}

#include <cstdio>

int main() {
  const int status = run();
  if (status != 0) {
    printf("FAIL: %d\n", status);
    return status;
  }
  printf("PASS\n");
  return 0;
}
