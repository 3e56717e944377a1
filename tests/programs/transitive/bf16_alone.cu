// bf16_alone.cu: the names a .cu file may use with nvcc 13.0 after
// including <cuda_bf16.h> alone: __nv_bfloat16, __nv_bfloat162 and their
// functions, and <cuda_fp16.h>'s __half, which nvcc's <cuda_bf16.h>
// includes; no header of the C or C++ library besides cuda_runtime.h's.
// Each also compiles with cuemu-nvcc (docs/nvcc-checks.md, "What a header
// brings"). Prints PASS; <cstdio> (nvcc
// refuses printf without it) is included after the names are used.
#include <cuda_bf16.h>

__global__ void device_names(__nv_bfloat16 *out, __half *half_out) {
  __nv_bfloat162 pair = __floats2bfloat162_rn(1.5f, 2.5f);
  out[0] = __hadd(__low2bfloat16(pair), __high2bfloat16(pair));
  half_out[0] = __float2half(static_cast<float>(out[0]));
}

static int run() {
  __nv_bfloat16 *out = nullptr;
  __half *half_out = nullptr;
  if (cudaMallocManaged(&out, sizeof(__nv_bfloat16)) != cudaSuccess ||
      cudaMallocManaged(&half_out, sizeof(__half)) != cudaSuccess)
    return 1;
  device_names<<<1, 1>>>(out, half_out);
  if (cudaDeviceSynchronize() != cudaSuccess)
    return 2;
  const bool ok = __bfloat162float(out[0]) == 4.0f &&
                  __half2float(half_out[0]) == 4.0f;
  cudaFree(out);
  cudaFree(half_out);
  return ok ? 0 : 3;
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
