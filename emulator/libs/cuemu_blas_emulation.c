/*
 * cuemu_blas_emulation.c: a cuBLAS handle's floating-point emulation
 * settings (CUDA 13: cublasSetEmulationStrategy,
 * cublasSetEmulationSpecialValuesSupport and the
 * cublasSetFixedPointEmulation* calls, with their getters).
 *
 * On a GPU these let cuBLAS compute double (and float) GEMMs through
 * integer or bfloat16 tensor-core products when its heuristics, or the
 * EAGER strategy, choose to. cuemu computes every type natively, as cuBLAS
 * does where it finds emulation no faster, so the settings are checked,
 * kept and read back, and change no result; the mantissa bit count that
 * an emulated computation would store through the user's pointer is not
 * written, as with cuBLAS when it computes natively.
 */
#include "cuemu_blas.h"

/* One setter and one getter of an int field of the emulation settings;
 * VALID(v) says which values the setter takes (INVALID_VALUE otherwise). */
#define CUEMU_BLAS_EMULATION_FIELD(SET, GET, FIELD, VALID)                     \
  CUEMU_BLAS_EXPORT cublasStatus_t SET(cublasHandle_t h, int v) {              \
    if (!h)                                                                    \
      return CUBLAS_STATUS_NOT_INITIALIZED;                                    \
    if (!(VALID))                                                              \
      return CUBLAS_STATUS_INVALID_VALUE;                                      \
    h->emulation.FIELD = v;                                                    \
    return CUBLAS_STATUS_SUCCESS;                                              \
  }                                                                            \
  CUEMU_BLAS_EXPORT cublasStatus_t GET(cublasHandle_t h, int *v) {             \
    if (!h)                                                                    \
      return CUBLAS_STATUS_NOT_INITIALIZED;                                    \
    if (!v)                                                                    \
      return CUBLAS_STATUS_INVALID_VALUE;                                      \
    *v = h->emulation.FIELD;                                                   \
    return CUBLAS_STATUS_SUCCESS;                                              \
  }

/* cublasEmulationStrategy_t: DEFAULT 0, PERFORMANT 1, EAGER 2. */
CUEMU_BLAS_EMULATION_FIELD(cublasSetEmulationStrategy,
                           cublasGetEmulationStrategy, strategy,
                           v >= 0 && v <= 2)
/* A mask of cudaEmulationSpecialValuesSupport bits (NONE 0, INFINITY 1,
 * NAN 2, DEFAULT 0xFFFF). */
CUEMU_BLAS_EMULATION_FIELD(cublasSetEmulationSpecialValuesSupport,
                           cublasGetEmulationSpecialValuesSupport,
                           special_values, v >= 0 && v <= 0xFFFF)
/* cudaEmulationMantissaControl: DYNAMIC 0, FIXED 1. */
CUEMU_BLAS_EMULATION_FIELD(cublasSetFixedPointEmulationMantissaControl,
                           cublasGetFixedPointEmulationMantissaControl,
                           mantissa_control, v == 0 || v == 1)
/* 0 gives the choice back to the library; a negative count is refused. */
CUEMU_BLAS_EMULATION_FIELD(cublasSetFixedPointEmulationMaxMantissaBitCount,
                           cublasGetFixedPointEmulationMaxMantissaBitCount,
                           max_mantissa_bits, v >= 0)
/* Added to the bits that the dynamic control finds; any sign. */
CUEMU_BLAS_EMULATION_FIELD(cublasSetFixedPointEmulationMantissaBitOffset,
                           cublasGetFixedPointEmulationMantissaBitOffset,
                           mantissa_offset, 1)

CUEMU_BLAS_EXPORT cublasStatus_t
cublasSetFixedPointEmulationMantissaBitCountPointer(cublasHandle_t h,
                                                    int *bits) {
  if (!h)
    return CUBLAS_STATUS_NOT_INITIALIZED;
  h->emulation.mantissa_bits_out = bits;
  return CUBLAS_STATUS_SUCCESS;
}

CUEMU_BLAS_EXPORT cublasStatus_t
cublasGetFixedPointEmulationMantissaBitCountPointer(cublasHandle_t h,
                                                    int **bits) {
  if (!h)
    return CUBLAS_STATUS_NOT_INITIALIZED;
  if (!bits)
    return CUBLAS_STATUS_INVALID_VALUE;
  *bits = h->emulation.mantissa_bits_out;
  return CUBLAS_STATUS_SUCCESS;
}
