// util.cuh: a helper header of the kind projects have: it includes
// headers that cuemu's prelude (or nvcc's) has read already, and redefines
// a macro a system header defines, which the preprocessor warns about at
// this line and names the first definition's place.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(call)                                                           \
  do {                                                                        \
    cudaError_t e_ = (call);                                                  \
    if (e_ != cudaSuccess) {                                                  \
      std::printf("%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); \
      std::exit(1);                                                           \
    }                                                                         \
  } while (0)

#ifdef REDEFINE_EXIT_FAILURE
#define EXIT_FAILURE 2
#endif

// A unique number per use, as libraries make names with __COUNTER__.
#define UNIQUE_ID __COUNTER__
