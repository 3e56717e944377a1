#pragma once
#include "config.h"
namespace jit {
template <typename T, int R>
struct Stencil {
  __device__ static T apply(const T *in, int i, int n) {
    T acc = T(0);
#pragma unroll
    for (int k = -R; k <= R; ++k) {
      int j = i + k;
      j = j < 0 ? 0 : (j >= n ? n - 1 : j);
      acc += in[j];
    }
    return acc / T(2 * R + 1);
  }
};
}  // namespace jit
