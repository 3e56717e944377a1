/*
 * cuemu_fft_xt.c: the single-GPU part of cufftXt.h for cuemu's cuFFT
 * (cuemu_fft.h): cufftXtMakePlanMany, cufftXtGetSizeMany and cufftXtExec,
 * whose types are cudaDataType values, half precision (CUDA_R_16F,
 * CUDA_C_16F) included, and cufftXtSetWorkAreaPolicy. docs/cufft.md says
 * what is not emulated.
 */
#include <stddef.h>

#include "cuemu_fft.h"

/* cudaDataType (library_types.h). */
enum { R_32F = 0, R_64F = 1, R_16F = 2, C_32F = 4, C_64F = 5, C_16F = 6 };

/* The plan type of an input, output and execution type, or 0. */
static int plan_type(int input, int output, int execution) {
  static const struct {
    int input, output, execution, type;
  } types[] = {
      {C_32F, C_32F, C_32F, CUFFT_C2C},
      {R_32F, C_32F, C_32F, CUFFT_R2C},
      {C_32F, R_32F, C_32F, CUFFT_C2R},
      {C_64F, C_64F, C_64F, CUFFT_Z2Z},
      {R_64F, C_64F, C_64F, CUFFT_D2Z},
      {C_64F, R_64F, C_64F, CUFFT_Z2D},
      {C_16F, C_16F, C_16F, CUEMU_FFT_C2C_16F},
      {R_16F, C_16F, C_16F, CUEMU_FFT_R2C_16F},
      {C_16F, R_16F, C_16F, CUEMU_FFT_C2R_16F},
  };
  for (size_t i = 0; i < sizeof types / sizeof *types; ++i)
    if (types[i].input == input && types[i].output == output &&
        types[i].execution == execution)
      return types[i].type;
  return 0;
}

/* Half precision takes lengths that are powers of 2 only, as cuFFT's. */
static int half_sizes(int type, int rank, const long long *n) {
  if (cuemu__fft_scalar(type) != 2 || rank < 1 || rank > 3 || !n)
    return 1;
  for (int d = 0; d < rank; ++d)
    if (n[d] < 1 || (n[d] & (n[d] - 1)) != 0)
      return 0;
  return 1;
}

CUEMU_FFT_EXPORT cufftResult cufftXtMakePlanMany(
    cufftHandle handle, int rank, long long *n, long long *inembed,
    long long istride, long long idist, int input, long long *onembed,
    long long ostride, long long odist, int output, long long batch,
    size_t *size, int execution) {
  int type = plan_type(input, output, execution);
  if (type && !half_sizes(type, rank, n)) {
    cuemu_fft_plan *p = cuemu__fft_plan_get(handle);
    cuemu__fft_plan_release(p);
    return p ? CUFFT_NOT_SUPPORTED : CUFFT_INVALID_PLAN;
  }
  return cuemu__fft_make(handle, rank, n, inembed, istride, idist, onembed,
                         ostride, odist, type, batch, size);
}

CUEMU_FFT_EXPORT cufftResult cufftXtGetSizeMany(
    cufftHandle handle, int rank, long long *n, long long *inembed,
    long long istride, long long idist, int input, long long *onembed,
    long long ostride, long long odist, int output, long long batch,
    size_t *size, int execution) {
  cuemu_fft_plan *p = cuemu__fft_plan_get(handle);
  if (!p)
    return CUFFT_INVALID_PLAN;
  cuemu__fft_plan_release(p);
  int type = plan_type(input, output, execution);
  if (type && !half_sizes(type, rank, n))
    return CUFFT_NOT_SUPPORTED;
  return cuemu__fft_estimate(rank, n, inembed, istride, idist, onembed,
                             ostride, odist, type, batch, size);
}

/* Any plan, its direction used by complex-to-complex ones only. */
CUEMU_FFT_EXPORT cufftResult cufftXtExec(cufftHandle handle, void *input,
                                         void *output, int direction) {
  cuemu_fft_plan *p = cuemu__fft_plan_get(handle);
  if (!p)
    return CUFFT_INVALID_PLAN;
  int type = __atomic_load_n(&p->made, __ATOMIC_ACQUIRE) ? p->type : 0;
  cuemu__fft_plan_release(p);
  if (!type)
    return CUFFT_INVALID_PLAN;
  return cuemu__fft_exec(handle, "cufftXtExec", type, input, output,
                         direction);
}

/* The policies change nothing: cuemu's work area is its own. */
CUEMU_FFT_EXPORT cufftResult cufftXtSetWorkAreaPolicy(cufftHandle handle,
                                                      int policy,
                                                      size_t *size) {
  (void)size;
  cuemu_fft_plan *p = cuemu__fft_plan_get(handle);
  if (!p)
    return CUFFT_INVALID_PLAN;
  cuemu__fft_plan_release(p);
  return policy >= 0 && policy <= 2 ? CUFFT_SUCCESS : CUFFT_INVALID_VALUE;
}
