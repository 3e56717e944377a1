// library_headers.cu: a program built on a header-only template library as
// CUTLASS and CuTe programs are. cuemu-nvcc refused each of these, which
// nvcc builds: a library's member `using Ref = Ref<T>;` (g++ "changes
// meaning"); a `brkpt` in the library's error path ("unsupported
// instruction brkpt") and PTX of a feature not emulated in a function the
// program never calls; `__global__ static` kernels of a header under
// -isystem compiled by clang++ ("weak declaration cannot have internal
// linkage"); and a kernel whose __launch_bounds__ holds a braced
// initializer, as CuTe's tutorials bound theirs
// (`__launch_bounds__(decltype(size(Layout{}))::value)`), whose `{`
// was taken for the kernel's body ("expected '}'").
// CUEMU_OPTIONS: -Iinclude -isystem sysinclude
// NVCC_OPTIONS: -Iinclude -isystem sysinclude
#include <cstdio>

#include <cutlass/cutlass.h>
#include <lib_kernels.cuh>

struct Fill {
  struct Params {
    int *out;
    int base;
  };
};

template <int N> struct Threads {
  static constexpr int value = N;
};

template <class T, class Layout>
__global__ static __launch_bounds__(decltype(Layout{})::value) void
scaled(T *data, Layout, int flags) {
  lib::Iterator<T> it{{data}};
  it.put(threadIdx.x, data[threadIdx.x] * 2);
  if (flags & 1) lib::profile_mark();
  if (flags & 2) lib::exception();
}

int main() {
  int *d = nullptr;
  cudaMalloc(&d, 64 * sizeof(int));
  lib_kernel<Fill><<<1, 32>>>(Fill::Params{d, 10});
  int got[64];
  cudaMemcpy(got, d, 32 * sizeof(int), cudaMemcpyDeviceToHost);
  for (int i = 0; i < 32; ++i)
    if (got[i] != 10 + i) {
      printf("FAIL: lib_kernel wrote %d at %d\n", got[i], i);
      return 1;
    }
  scaled<<<1, 32>>>(d, Threads<32>{}, 0);
  cudaMemcpy(got, d, 32 * sizeof(int), cudaMemcpyDeviceToHost);
  for (int i = 0; i < 32; ++i)
    if (got[i] != 2 * (10 + i)) {
      printf("FAIL: scaled wrote %d at %d\n", got[i], i);
      return 1;
    }
  lib_plain<<<1, 1>>>(d);
  cudaMemcpy(got, d, sizeof(int), cudaMemcpyDeviceToHost);
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess || got[0] != 700) {
    printf("FAIL: lib_plain wrote %d (%s)\n", got[0], cudaGetErrorString(e));
    return 1;
  }
  printf("PASS\n");
  return 0;
}
