// atomics.cuh: the atomics CUDA lacks, on the bit patterns.
#pragma once

namespace gdb {

// atomicMin on a float through atomicCAS on its bits.
__device__ __forceinline__ float atomic_min_float(float* address, float value) {
  int* bits = reinterpret_cast<int*>(address);
  int old = *bits, assumed;
  do {
    assumed = old;
    if (__int_as_float(assumed) <= value) break;
    old = atomicCAS(bits, assumed, __float_as_int(value));
  } while (assumed != old);
  return __int_as_float(old);
}

__device__ __forceinline__ float atomic_max_float(float* address, float value) {
  unsigned int* bits = reinterpret_cast<unsigned int*>(address);
  unsigned int old = *bits, assumed;
  do {
    assumed = old;
    if (__uint_as_float(assumed) >= value) break;
    old = atomicCAS(bits, assumed, __float_as_uint(value));
  } while (assumed != old);
  return __uint_as_float(old);
}

// The sign trick: for non-negative floats the int order is the float order,
// for negative ones the unsigned order is the reverse.
__device__ __forceinline__ float atomic_max_float_signed(float* address, float value) {
  return value >= 0 ? __int_as_float(atomicMax(reinterpret_cast<int*>(address), __float_as_int(value)))
                    : __uint_as_float(atomicMin(reinterpret_cast<unsigned int*>(address), __float_as_uint(value)));
}

}  // namespace gdb
