/*
 * cuemu_library_types.h: the runtime API's library and kernel handles and
 * the options of cudaLibraryLoadData. C and C++ (cuemu_library_api.h).
 */
#ifndef CUEMU_LIBRARY_TYPES_H
#define CUEMU_LIBRARY_TYPES_H

typedef struct CUlib_st *cudaLibrary_t;
typedef struct CUkern_st *cudaKernel_t;

enum cudaLibraryOption {
  cudaLibraryHostUniversalFunctionAndDataTable = 0,
  cudaLibraryBinaryIsPreserved = 1
};

enum cudaJitOption {
  cudaJitMaxRegisters = 0,
  cudaJitThreadsPerBlock = 1,
  cudaJitWallTime = 2,
  cudaJitInfoLogBuffer = 3,
  cudaJitInfoLogBufferSizeBytes = 4,
  cudaJitErrorLogBuffer = 5,
  cudaJitErrorLogBufferSizeBytes = 6,
  cudaJitOptimizationLevel = 7,
  cudaJitFallbackStrategy = 10,
  cudaJitGenerateDebugInfo = 11,
  cudaJitLogVerbose = 12,
  cudaJitGenerateLineInfo = 13,
  cudaJitCacheMode = 14,
  cudaJitPositionIndependentCode = 30,
  cudaJitMinCtaPerSm = 31,
  cudaJitMaxThreadsPerBlock = 32,
  cudaJitOverrideDirectiveValues = 33
};

#endif /* CUEMU_LIBRARY_TYPES_H */
