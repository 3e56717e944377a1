// host_loop_inline.cu: host code of a checked build has nothing to check (a
// CPU reference scan kept next to the kernels, as course projects keep
// theirs): it must never call libcuemu's cuemu_check_access() (a checked
// CPU scan ran twice as slow with the calls; the host pass is now not
// instrumented at all, tests/checkers_objects.sh). The program counts the
// calls that reach cuemu_check_access() by defining it, forwarding to
// libcuemu's: none may come from its host scan. (The count is main's:
// cuemu-cc compiles the unit twice, host code and device code, and each
// object has its own copy of the counter and of the function, the device
// one local.) A kernel of the same unit then runs checked as before.
// CUEMU_OPTIONS: --check=all
#include <cstddef>
#include <dlfcn.h>

#include <cuda_runtime.h>

#include "../check.cuh"

constexpr int kN = 1 << 12;

static volatile unsigned long check_calls;

typedef void (*check_fn)(const void *, size_t, int, const void *);

extern "C" __attribute__((no_sanitize("thread"))) void
cuemu_check_access(const void *addr, size_t size, int kind, const void *pc) {
  static check_fn next;
  ++check_calls;
  if (!next)
    next = (check_fn)dlsym(RTLD_NEXT, "cuemu_check_access");
  if (next)
    next(addr, size, kind, pc);
}

__global__ void twice(int n, int *out, const int *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = 2 * in[i];
}

int main() {
  int *in = new int[kN], *out = new int[kN];
  for (int i = 0; i < kN; ++i)
    in[i] = i % 5;
  /* The exclusive scan of the CPU reference. */
  unsigned long before = check_calls;
  int sum = 0;
  for (int i = 0; i < kN; ++i) {
    out[i] = sum;
    sum += in[i];
  }
  unsigned long host_calls = check_calls - before;
  CHECK(host_calls == 0);
  int expect = 0;
  for (int i = 0; i < kN; ++i) {
    CHECK(out[i] == expect);
    expect += in[i];
  }

  int *d_in, *d_out;
  cudaMalloc(&d_in, kN * sizeof(int));
  cudaMalloc(&d_out, kN * sizeof(int));
  cudaMemcpy(d_in, in, kN * sizeof(int), cudaMemcpyHostToDevice);
  twice<<<kN / 128, 128>>>(kN, d_out, d_in);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  cudaMemcpy(out, d_out, kN * sizeof(int), cudaMemcpyDeviceToHost);
  for (int i = 0; i < kN; ++i)
    CHECK(out[i] == 2 * in[i]);
  cudaFree(d_in);
  cudaFree(d_out);
  delete[] in;
  delete[] out;
  if (host_calls)
    std::fprintf(stderr, "%lu calls of cuemu_check_access from host code\n",
                 host_calls);
  return finish();
}
