#pragma once
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#define CUDA_RT_CALL(call)                                                    \
  {                                                                           \
    cudaError_t cudaStatus = call;                                            \
    if (cudaSuccess != cudaStatus) {                                          \
      fprintf(stderr,                                                         \
              "ERROR: CUDA RT call \"%s\" in line %d of file %s failed "      \
              "with %s (%d).\n",                                              \
              #call, __LINE__, __FILE__, cudaGetErrorString(cudaStatus),      \
              cudaStatus);                                                    \
      exit(cudaStatus);                                                       \
    }                                                                         \
  }
constexpr int MAX_DEVICES = 8;
