// thrust_kernel_names.cu: a unit that includes Thrust (which cuemu-nvcc
// compiles with clang++) names kernel template instances in its reports as
// a unit without Thrust does, with their template arguments and enclosing
// namespaces, inline ones included: a launch past the __launch_bounds__ of
// a::v2::versioned<float> and a failed assert in tk<int>, whose messages
// named `a::versioned` and `tk` while clang++ left the arguments out of the
// kernel's name. A device vector is filled and read back first, as a
// program would.
#include <thrust/device_vector.h>

#include <cassert>
#include <cstring>

#include "../check.cuh"

#if __has_include(<cuemu/cuemu.h>)
#include <cuemu/cuemu.h>
#define HAVE_CUEMU_MESSAGES 1
#endif

template <typename T> __global__ void tk(const T *p) {
  assert(p[threadIdx.x] == 0);
}

namespace a {
inline namespace v2 {
template <typename T>
__global__ void __launch_bounds__(64) versioned(T *p) {
  p[threadIdx.x] = 1;
}
} // namespace v2
} // namespace a

// Whether the last message names `kernel`.
static void expect_named(const char *kernel) {
#ifdef HAVE_CUEMU_MESSAGES
  if (!std::strstr(cuemu_last_message(), kernel)) {
    std::printf("message \"%s\" does not name %s\n", cuemu_last_message(),
                kernel);
    CHECK(false);
  }
#else
  (void)kernel;
#endif
}

int main() {
  {
    // Freed before the assert, after which a GPU's cudaFree fails.
    thrust::device_vector<int> keys(4, 7);
    keys[2] = 3;
    CHECK(keys[0] == 7 && keys[2] == 3);
  }

  float *f = nullptr;
  int *p = nullptr;
  CHECK(cudaMallocManaged(&f, 128 * sizeof(float)) == cudaSuccess);
  CHECK(cudaMallocManaged(&p, 128 * sizeof(int)) == cudaSuccess);
  std::memset(p, 0, 128 * sizeof(int));

  a::versioned<float><<<1, 128>>>(f);
  CHECK(cudaGetLastError() != cudaSuccess);
  expect_named("a::v2::versioned<float>");

  // The assert fails in thread 3; the context is then unusable on a GPU,
  // so this comes last.
  p[3] = 1;
  tk<int><<<1, 32>>>(p);
  CHECK(cudaDeviceSynchronize() == cudaErrorAssert);
  expect_named("tk<int>");
  return finish();
}
