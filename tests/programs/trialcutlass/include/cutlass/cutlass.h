// include/cutlass/cutlass.h: a stand-in for a header-only template library
// laid out as CUTLASS is (its hub header at cutlass/cutlass.h, included
// with -I), with the three things of such a library that a program that
// uses little of it must still compile: a member alias that reuses the
// name of the template it names (which g++ refuses, so cuemu-nvcc compiles
// the unit with clang++), inline PTX of another architecture in a function
// the program never calls, and a `brkpt` in an error path.
#ifndef TRIALCUTLASS_LIBRARY_H
#define TRIALCUTLASS_LIBRARY_H

namespace lib {

template <class T> struct Ref {
  T *ptr;
  __host__ __device__ T &at(int i) const { return ptr[i]; }
};

template <class T> struct Iterator {
  using Ref = Ref<T>; // the same name: nvcc and clang++ take it
  Ref ref;
  __host__ __device__ void put(int i, T v) const { ref.at(i) = v; }
};

// Performance-monitor events are not emulated; a program that never
// calls this function must build, and one that calls it stops there.
__device__ inline void profile_mark() {
  asm volatile("pmevent.mask 0x5;\n" ::: "memory");
}

__host__ __device__ inline void exception() {
#if defined(__CUDA_ARCH__)
  asm volatile("  brkpt;\n");
#endif
}

} // namespace lib

#endif
