// late_include.cuh: a user's header whose class template calls printf in a
// member that the header's own includes leave undeclared; the file that
// includes it brings <iostream> only after (tests/driver_nvcc_undeclared.sh).
#include <cuda_runtime.h>

template <class T> struct Box {
  __host__ __device__ void say() const { printf("PASS\n"); }
};
