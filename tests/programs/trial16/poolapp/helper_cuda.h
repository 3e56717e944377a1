#pragma once
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
template <typename T>
void check(T result, char const *const func, const char *const file, int line) {
  if (result) {
    fprintf(stderr, "CUDA error at %s:%d code=%d(%s) \"%s\" \n", file, line,
            static_cast<unsigned int>(result), cudaGetErrorName(result), func);
    exit(EXIT_FAILURE);
  }
}
#define checkCudaErrors(val) check((val), #val, __FILE__, __LINE__)
#define getLastCudaError(msg) check(cudaGetLastError(), msg, __FILE__, __LINE__)
