// mma_alone.cu: the names a .cu file may use with nvcc 13.0 after
// including <mma.h> alone: nvcuda::wmma, and <cuda_fp16.h>'s and
// <cuda_bf16.h>'s types, which nvcc's <mma.h> includes; no header of the
// C or C++ library besides cuda_runtime.h's. Each also compiles with
// cuemu-nvcc (docs/nvcc-checks.md, "What a header brings"). Prints PASS;
// <cstdio> (nvcc refuses printf without it) is included after the names
// are used.
#include <mma.h>

using namespace nvcuda;

__global__ void device_names(const __half *a, const __half *b, float *c) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::fill_fragment(fc, 0.0f);
  wmma::load_matrix_sync(fa, a, 16);
  wmma::load_matrix_sync(fb, b, 16);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);
}

static int run() {
  __half *a = nullptr, *b = nullptr;
  float *c = nullptr;
  if (cudaMallocManaged(&a, 256 * sizeof(__half)) != cudaSuccess ||
      cudaMallocManaged(&b, 256 * sizeof(__half)) != cudaSuccess ||
      cudaMallocManaged(&c, 256 * sizeof(float)) != cudaSuccess)
    return 1;
  for (int i = 0; i < 256; ++i) {
    a[i] = __float2half(1.0f);
    b[i] = __float2half(0.5f);
  }
  device_names<<<1, 32>>>(a, b, c);
  if (cudaDeviceSynchronize() != cudaSuccess)
    return 2;
  const __nv_bfloat16 eight = __float2bfloat16(c[17]);
  const bool ok = __bfloat162float(eight) == 8.0f;
  cudaFree(a);
  cudaFree(b);
  cudaFree(c);
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
