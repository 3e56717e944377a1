#pragma once
#include <cstdio>
#include <cstdlib>
#define RT(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); exit(1);} } while (0)
#define DRV(x) do { CUresult e_ = (x); if (e_ != CUDA_SUCCESS) { const char *m_ = ""; \
  cuGetErrorName(e_, &m_); printf("%s:%d: %s: %s\n", __FILE__, __LINE__, #x, m_); exit(1);} } while (0)
