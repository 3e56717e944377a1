// nvcc 13's feature macros in both passes of a .cu file: code that calls
// CUDA's atomic built-in functions only where the compiler says it has
// them (__CUDACC_DEVICE_ATOMIC_BUILTINS__), and headers that silence
// nvcc's own diagnostics with nv_diag pragmas only where the compiler
// takes them (__NVCC_DIAG_PRAGMA_SUPPORT__), as CCCL's headers do. Built
// with -Xcompiler -Wall -Werror: the pragmas are no warning of the host
// compiler's.
#include <cstdio>

#ifndef __CUDACC_DEVICE_ATOMIC_BUILTINS__
#error "__CUDACC_DEVICE_ATOMIC_BUILTINS__ is not defined"
#endif
#ifndef __NVCC_DIAG_PRAGMA_SUPPORT__
#error "__NVCC_DIAG_PRAGMA_SUPPORT__ is not defined"
#endif

#ifdef __NVCC_DIAG_PRAGMA_SUPPORT__
#pragma nv_diagnostic push
#pragma nv_diag_suppress 177
#pragma nv_diag_suppress 550
#pragma nv_diag_warning 20054
#pragma nv_diag_error 20091
#endif
static int unused_in_this_unit[4];
#ifdef __NVCC_DIAG_PRAGMA_SUPPORT__
#pragma nv_diag_default 177
#pragma nv_diag_default 550
#pragma nv_diagnostic pop
#endif

// Which pass saw the macros: the device pass writes its bit from a kernel,
// the host pass its own in main.
__device__ int device_pass_saw() {
#if defined(__CUDA_ARCH__) && __CUDACC_DEVICE_ATOMIC_BUILTINS__ == 1 && \
    __NVCC_DIAG_PRAGMA_SUPPORT__ == 1
  return 1;
#else
  return 0;
#endif
}

__global__ void count(unsigned int *hits, unsigned long long *bits,
                      int *seen) {
#ifdef __CUDACC_DEVICE_ATOMIC_BUILTINS__
  __nv_atomic_fetch_add(hits, 1u, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
  __nv_atomic_or(bits, 1ull << (threadIdx.x % 64), __NV_ATOMIC_RELEASE);
  if (threadIdx.x == 0)
    __nv_atomic_store_n(seen, device_pass_saw(), __NV_ATOMIC_RELAXED,
                        __NV_THREAD_SCOPE_SYSTEM);
#else
  atomicAdd(hits, 1u);
#endif
}

int main() {
  unsigned int *hits;
  unsigned long long *bits;
  int *seen;
  cudaMallocManaged(&hits, sizeof *hits);
  cudaMallocManaged(&bits, sizeof *bits);
  cudaMallocManaged(&seen, sizeof *seen);
  *hits = 0;
  *bits = 0;
  *seen = 0;
  count<<<4, 128>>>(hits, bits, seen);
  if (cudaDeviceSynchronize() != cudaSuccess) {
    printf("FAIL: launch\n");
    return 1;
  }
  int host_saw = 0;
#if !defined(__CUDA_ARCH__) && __CUDACC_DEVICE_ATOMIC_BUILTINS__ == 1 && \
    __NVCC_DIAG_PRAGMA_SUPPORT__ == 1
  host_saw = 1;
#endif
  const int ok = *hits == 512 && *bits == ~0ull && *seen == 1 && host_saw == 1;
  printf("hits %u bits %llx device pass %d host pass %d\n", *hits, *bits,
         *seen, host_saw);
  printf("%s\n", ok ? "PASS" : "FAIL");
  (void)unused_in_this_unit;
  return ok ? 0 : 1;
}
