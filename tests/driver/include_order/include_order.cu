/*
 * include_order.cu: the toolkit's library headers (cuBLAS, cuBLASLt,
 * cuFFT, cuRAND, cuSPARSE, NVRTC) before the CUDA headers that cuemu
 * shadows (cuComplex.h, vector_types.h, cuda_fp16.h, cuda_bf16.h,
 * math_constants.h, cuda_runtime.h), and, with -DCUEMU_HEADERS_FIRST,
 * after them. cublas_api.h and cufft.h include the toolkit's cuComplex.h
 * from their own folder, which once made <cuComplex.h> after them a
 * redefinition of cuCrealf. Either order builds (with nvcc too) and runs.
 */
#ifdef CUEMU_HEADERS_FIRST
#include <cuComplex.h>
#include <vector_types.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <math_constants.h>
#include <cuda_runtime.h>
#endif

#include <cublas_v2.h>
#include <cublasLt.h>
#include <cufft.h>
#include <curand.h>
#include <cusparse.h>
#include <nvrtc.h>

#ifndef CUEMU_HEADERS_FIRST
#include <cuComplex.h>
#include <vector_types.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <math_constants.h>
#include <cuda_runtime.h>
#endif

#include <cstdio>

/* out = a * b / c in complex floats, plus a half and a bfloat16 sum. */
__global__ void mix(cuFloatComplex *out, float *sums) {
  cuFloatComplex a = make_cuFloatComplex(1.0f, 2.0f);
  cuFloatComplex b = make_cuFloatComplex(3.0f, -1.0f);
  cuFloatComplex c = make_cuFloatComplex(0.0f, 1.0f);
  out[0] = cuCdivf(cuCmulf(a, b), c);
  sums[0] = __half2float(__hadd(__float2half(1.5f), __float2half(2.25f)));
  sums[1] = __bfloat162float(__hadd(__float2bfloat16(1.5f), __float2bfloat16(2.5f)));
  sums[2] = CUDART_PI_F;
}

int main() {
  cuFloatComplex *dout, out;
  float *dsums, sums[3];
  cudaMalloc(&dout, sizeof out);
  cudaMalloc(&dsums, sizeof sums);
  mix<<<1, 1>>>(dout, dsums);
  cudaMemcpy(&out, dout, sizeof out, cudaMemcpyDeviceToHost);
  cudaMemcpy(sums, dsums, sizeof sums, cudaMemcpyDeviceToHost);
  /* (1+2i)(3-i) = 5+5i; divided by i: 5-5i. */
  int ok = cuCrealf(out) == 5.0f && cuCimagf(out) == -5.0f && sums[0] == 3.75f &&
           sums[1] == 4.0f && sums[2] == 3.14159265f && CUBLAS_STATUS_SUCCESS == 0 &&
           CUFFT_SUCCESS == 0 && CURAND_STATUS_SUCCESS == 0 && NVRTC_SUCCESS == 0;
  if (!ok)
    printf("%g%+gi %g %g %g\n", cuCrealf(out), cuCimagf(out), sums[0], sums[1], sums[2]);
  cudaFree(dout);
  cudaFree(dsums);
  puts(ok ? "PASS" : "FAIL");
  return !ok;
}
