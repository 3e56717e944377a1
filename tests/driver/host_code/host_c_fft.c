/* host_c_fft.c: a C program whose first header is <cufftXt.h> (as cuFFT
 * callback programs often start), which brings NVIDIA's cufft.h and
 * cuComplex.h: an R2C transform of eight ones and the magnitude of a
 * complex value from NVIDIA's cuComplex.h. It failed to compile in C:
 * "unknown type name '__host__'". */
#include <cufftXt.h>

#include <math.h>
#include <stdio.h>

#include <cuda_runtime_api.h>

int main(void) {
  int failures = 0;
  cufftHandle plan;
  float *x;
  cufftComplex *y;
  if (cufftPlan1d(&plan, 8, CUFFT_R2C, 1) != CUFFT_SUCCESS ||
      cudaMallocManaged((void **)&x, 8 * sizeof(float), cudaMemAttachGlobal) != cudaSuccess ||
      cudaMallocManaged((void **)&y, 5 * sizeof(cufftComplex), cudaMemAttachGlobal) !=
          cudaSuccess) {
    printf("FAILED: set-up\n");
    return 1;
  }
  for (int i = 0; i < 8; ++i)
    x[i] = 1.0f;
  if (cufftExecR2C(plan, x, y) != CUFFT_SUCCESS || cudaDeviceSynchronize() != cudaSuccess ||
      y[0].x != 8.0f || fabsf(cuCabsf(y[1])) > 1e-6f) {
    printf("FAILED: the transform of ones: %g %g\n", y[0].x, cuCabsf(y[1]));
    ++failures;
  }
  if (fabsf(cuCabsf(make_cuFloatComplex(3.0f, 4.0f)) - 5.0f) > 1e-6f) {
    printf("FAILED: cuCabsf\n");
    ++failures;
  }
  cufftDestroy(plan);
  cudaFree(x);
  cudaFree(y);
  if (failures == 0)
    printf("PASS\n");
  return failures != 0;
}
