// types.cuh: per-type-pair Lennard-Jones coefficients in constant memory,
// defined once in the geometry library (separate compilation).
#pragma once
#include <cuda_runtime.h>

namespace md {
constexpr int kMaxTypes = 4;
struct TypeTable {
  int ntypes;
  float lj1[kMaxTypes * kMaxTypes]; // 48 eps sigma^12
  float lj2[kMaxTypes * kMaxTypes]; // 24 eps sigma^6
  float rc2[kMaxTypes * kMaxTypes];
};
} // namespace md

extern __constant__ md::TypeTable c_types;
// Sets c_types from the host (a function of the library's own file).
cudaError_t geom_set_types(const md::TypeTable &t, cudaStream_t stream);

// Double atomics for devices that lack them (the classic fallback).
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 600
__device__ __forceinline__ double atomicAdd(double *address, double val) {
  unsigned long long *p = (unsigned long long *)address, old = *p, assumed;
  do {
    assumed = old;
    old = atomicCAS(p, assumed, __double_as_longlong(val + __longlong_as_double(assumed)));
  } while (assumed != old);
  return __longlong_as_double(old);
}
#endif
