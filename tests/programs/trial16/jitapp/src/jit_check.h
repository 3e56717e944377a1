#pragma once
#include <cstdio>
#include <cstdlib>
#include <cuda.h>
#include <nvrtc.h>

#define NVRTC_SAFE_CALL(x)                                                  \
  do {                                                                      \
    nvrtcResult result = x;                                                 \
    if (result != NVRTC_SUCCESS) {                                          \
      std::fprintf(stderr, "\nerror: " #x " failed with error %s\n",        \
                   nvrtcGetErrorString(result));                            \
      std::exit(1);                                                         \
    }                                                                       \
  } while (0)
#define CUDA_SAFE_CALL(x)                                                   \
  do {                                                                      \
    CUresult result = x;                                                    \
    if (result != CUDA_SUCCESS) {                                           \
      const char *msg;                                                      \
      cuGetErrorName(result, &msg);                                         \
      std::fprintf(stderr, "\nerror: " #x " failed with error %s at %s:%d\n", \
                   msg, __FILE__, __LINE__);                                \
      std::exit(1);                                                         \
    }                                                                       \
  } while (0)
