#pragma once
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#define CHECK_CUDA(expr)                                                     \
  do {                                                                       \
    cudaError_t e__ = (expr);                                                \
    if (e__ != cudaSuccess) {                                                \
      fprintf(stderr, "%s:%d: %s -> %s\n", __FILE__, __LINE__, #expr,        \
              cudaGetErrorString(e__));                                      \
      exit(1);                                                               \
    }                                                                        \
  } while (0)
