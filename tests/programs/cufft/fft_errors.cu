/* fft_errors.cu: cuFFT's status codes for bad arguments and bad handles,
 * its versions, and a plan's life: sizes below 1, a bad type, a rank
 * outside 1..3 and a batch below 1 at planning; an execution with a
 * destroyed, never made or unknown handle, a bad direction or NULL data;
 * cufftXtSetGPUs with one GPU (multi-GPU plans take 2 or more);
 * cufftGetVersion and cufftGetProperty as cufft.h says.
 * CUEMU_OPTIONS: -lcufft */
#include <cufft.h>
#include <cufftXt.h>

#include "../cudalibs/check_libs.h"

int main() {
  cufftHandle plan = CUFFT_PLAN_NULL;
  /* Planning. */
  EXPECT_STATUS(cufftPlan1d(&plan, 0, CUFFT_C2C, 1), CUFFT_INVALID_SIZE);
  EXPECT_STATUS(cufftPlan1d(&plan, -4, CUFFT_C2C, 1), CUFFT_INVALID_SIZE);
  EXPECT_STATUS(cufftPlan1d(&plan, 8, CUFFT_C2C, 0), CUFFT_INVALID_SIZE);
  EXPECT_STATUS(cufftPlan1d(&plan, 8, (cufftType)0x33, 1), CUFFT_INVALID_TYPE);
  EXPECT_STATUS(cufftPlan2d(&plan, 8, 0, CUFFT_R2C), CUFFT_INVALID_SIZE);
  EXPECT_STATUS(cufftPlan3d(&plan, 0, 4, 4, CUFFT_Z2Z), CUFFT_INVALID_SIZE);
  int dims[4] = {4, 4, 4, 4};
  EXPECT_STATUS(cufftPlanMany(&plan, 4, dims, NULL, 1, 0, NULL, 1, 0,
                              CUFFT_C2C, 1),
                CUFFT_INVALID_SIZE);
  EXPECT_STATUS(cufftPlanMany(&plan, 0, dims, NULL, 1, 0, NULL, 1, 0,
                              CUFFT_C2C, 1),
                CUFFT_INVALID_SIZE);
  size_t size;
  EXPECT_STATUS(cufftEstimate1d(0, CUFFT_C2C, 1, &size), CUFFT_INVALID_SIZE);
  EXPECT_STATUS(cufftEstimate1d(16, CUFFT_C2C, 1, &size), CUFFT_SUCCESS);

  /* Handles. */
  cufftComplex *d;
  CHECK_CUDA(cudaMalloc(&d, 64 * sizeof(cufftComplex)));
  EXPECT_STATUS(cufftExecC2C(123456, d, d, CUFFT_FORWARD), CUFFT_INVALID_PLAN);
  EXPECT_STATUS(cufftSetStream(123456, 0), CUFFT_INVALID_PLAN);
  EXPECT_STATUS(cufftDestroy(123456), CUFFT_INVALID_PLAN);
  EXPECT_STATUS(cufftGetSize(123456, &size), CUFFT_INVALID_PLAN);
  cufftHandle empty;
  EXPECT_STATUS(cufftCreate(&empty), CUFFT_SUCCESS);
  EXPECT_STATUS(cufftSetStream(empty, 0), CUFFT_SUCCESS);
  EXPECT_STATUS(cufftExecC2C(empty, d, d, CUFFT_FORWARD), CUFFT_INVALID_PLAN);
  EXPECT_STATUS(cufftMakePlan1d(empty, 0, CUFFT_C2C, 1, &size),
                CUFFT_INVALID_SIZE);
  EXPECT_STATUS(cufftMakePlan1d(empty, 64, CUFFT_C2C, 1, &size),
                CUFFT_SUCCESS);
  EXPECT_STATUS(cufftExecC2C(empty, d, d, CUFFT_FORWARD), CUFFT_SUCCESS);
  EXPECT_STATUS(cufftDestroy(empty), CUFFT_SUCCESS);

  EXPECT_STATUS(cufftPlan1d(&plan, 64, CUFFT_C2C, 1), CUFFT_SUCCESS);
  EXPECT_STATUS(cufftExecC2C(plan, d, d, 0), CUFFT_INVALID_VALUE);
  EXPECT_STATUS(cufftExecC2C(plan, d, d, 2), CUFFT_INVALID_VALUE);
  EXPECT_STATUS(cufftExecC2C(plan, d, d, CUFFT_INVERSE), CUFFT_SUCCESS);
  EXPECT_STATUS(cufftDestroy(plan), CUFFT_SUCCESS);
  EXPECT_STATUS(cufftExecC2C(plan, d, d, CUFFT_FORWARD), CUFFT_INVALID_PLAN);
  EXPECT_STATUS(cufftDestroy(plan), CUFFT_INVALID_PLAN);

  /* cufftXt: multi-GPU plans take at least two GPUs. */
  EXPECT_STATUS(cufftCreate(&plan), CUFFT_SUCCESS);
  int gpus[1] = {0};
  EXPECT_STATUS(cufftXtSetGPUs(plan, 1, gpus), CUFFT_INVALID_VALUE);
  EXPECT_STATUS(cufftDestroy(plan), CUFFT_SUCCESS);

  /* Versions. */
  int version = 0, major = -1, minor = -1, patch = -1;
  EXPECT_STATUS(cufftGetVersion(&version), CUFFT_SUCCESS);
  EXPECT(version / 1000 == CUFFT_VER_MAJOR, "cufftGetVersion %d", version);
  EXPECT_STATUS(cufftGetProperty(MAJOR_VERSION, &major), CUFFT_SUCCESS);
  EXPECT_STATUS(cufftGetProperty(MINOR_VERSION, &minor), CUFFT_SUCCESS);
  EXPECT_STATUS(cufftGetProperty(PATCH_LEVEL, &patch), CUFFT_SUCCESS);
  EXPECT(major == CUFFT_VER_MAJOR, "major %d", major);
  EXPECT(minor >= 0 && patch >= 0, "minor %d patch %d", minor, patch);

  CHECK_CUDA(cudaDeviceSynchronize());
  CHECK_CUDA(cudaFree(d));
  return finish();
}
