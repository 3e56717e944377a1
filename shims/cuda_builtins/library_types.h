/*
 * library_types.h: the data-type and library-property enumerations that
 * CUDA's cuda_runtime.h brings in and that the CUDA libraries' headers
 * (cuRAND, cuBLAS, cuFFT...) use: cudaDataType (CUDA_R_32F ...), the
 * emulation controls of CUDA 13, and libraryPropertyType (MAJOR_VERSION,
 * MINOR_VERSION, PATCH_LEVEL), with CUDA 13's values. The guard is CUDA's,
 * so that a toolkit copy included later is a no-op.
 */
#if !defined(__LIBRARY_TYPES_H__)
#define __LIBRARY_TYPES_H__

typedef enum cudaDataType_t {
  CUDA_R_16F = 2,
  CUDA_C_16F = 6,
  CUDA_R_16BF = 14,
  CUDA_C_16BF = 15,
  CUDA_R_32F = 0,
  CUDA_C_32F = 4,
  CUDA_R_64F = 1,
  CUDA_C_64F = 5,
  CUDA_R_4I = 16,
  CUDA_C_4I = 17,
  CUDA_R_4U = 18,
  CUDA_C_4U = 19,
  CUDA_R_8I = 3,
  CUDA_C_8I = 7,
  CUDA_R_8U = 8,
  CUDA_C_8U = 9,
  CUDA_R_16I = 20,
  CUDA_C_16I = 21,
  CUDA_R_16U = 22,
  CUDA_C_16U = 23,
  CUDA_R_32I = 10,
  CUDA_C_32I = 11,
  CUDA_R_32U = 12,
  CUDA_C_32U = 13,
  CUDA_R_64I = 24,
  CUDA_C_64I = 25,
  CUDA_R_64U = 26,
  CUDA_C_64U = 27,
  CUDA_R_8F_E4M3 = 28,
  CUDA_R_8F_UE4M3 = CUDA_R_8F_E4M3,
  CUDA_R_8F_E5M2 = 29,
  CUDA_R_8F_UE8M0 = 30,
  CUDA_R_6F_E2M3 = 31,
  CUDA_R_6F_E3M2 = 32,
  CUDA_R_4F_E2M1 = 33
} cudaDataType;

typedef enum cudaEmulationStrategy_t {
  CUDA_EMULATION_STRATEGY_DEFAULT = 0,
  CUDA_EMULATION_STRATEGY_PERFORMANT = 1,
  CUDA_EMULATION_STRATEGY_EAGER = 2
} cudaEmulationStrategy;

typedef enum cudaEmulationMantissaControl_t {
  CUDA_EMULATION_MANTISSA_CONTROL_DYNAMIC = 0,
  CUDA_EMULATION_MANTISSA_CONTROL_FIXED = 1
} cudaEmulationMantissaControl;

typedef enum cudaEmulationSpecialValuesSupport_t {
  CUDA_EMULATION_SPECIAL_VALUES_SUPPORT_DEFAULT = 0xFFFF,
  CUDA_EMULATION_SPECIAL_VALUES_SUPPORT_NONE = 0,
  CUDA_EMULATION_SPECIAL_VALUES_SUPPORT_INFINITY = 1,
  CUDA_EMULATION_SPECIAL_VALUES_SUPPORT_NAN = 2
} cudaEmulationSpecialValuesSupport;

typedef enum libraryPropertyType_t {
  MAJOR_VERSION,
  MINOR_VERSION,
  PATCH_LEVEL
} libraryPropertyType;

/* In C, the tags' names are types as in C++, as NVIDIA's header makes them
 * (cublas_api.h declares cudaDataType_t parameters). */
#ifndef __cplusplus
typedef enum cudaDataType_t cudaDataType_t;
typedef enum cudaEmulationStrategy_t cudaEmulationStrategy_t;
typedef enum cudaEmulationMantissaControl_t cudaEmulationMantissaControl_t;
typedef enum cudaEmulationSpecialValuesSupport_t cudaEmulationSpecialValuesSupport_t;
typedef enum libraryPropertyType_t libraryPropertyType_t;
#endif

#endif /* __LIBRARY_TYPES_H__ */
