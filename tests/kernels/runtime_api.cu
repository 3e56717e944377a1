/*
 * runtime_api.cu: kernels for tests/check_runtime.c and
 * tests/check_runtime_launch.c, which load them as a whole program's
 * kernels (registered with cuemu_program_register) and launch them through
 * libcuemu's side of the CUDA runtime API (cudaLaunchKernel's path).
 */
#include <cassert>

#include <cuda_runtime.h>

/* out[global id] = value. */
extern "C" __global__ void rt_fill(int *out, int value) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = value;
}

/* Thread 0 writes through `bad` (NULL): an illegal address. */
extern "C" __global__ void rt_write_through(int *bad) {
  if (threadIdx.x == 0)
    *(volatile int *)bad = 42;
}

/* A device-side assertion that fails when value <= 0. */
extern "C" __global__ void rt_assert_positive(int value) { assert(value > 0); }

/* Thread 0 executes __trap(). */
extern "C" __global__ void rt_trap() {
  if (threadIdx.x == 0)
    __trap();
}

/* At most 64 threads per block. */
extern "C" __global__ void __launch_bounds__(64) rt_bounded(int *out) {
  out[threadIdx.x] = 1;
}

/* 4096 bytes of static shared memory. */
extern "C" __global__ void rt_static_shared(int *out) {
  __shared__ int tile[1024];
  tile[threadIdx.x] = (int)threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = tile[blockDim.x - 1 - threadIdx.x];
}

/* Every thread adds its block's dynamic shared size (in ints, the first
 * argument) to out[0] once the buffer has been written and read. */
extern "C" __global__ void rt_dynamic_shared(int *out, int ints) {
  extern __shared__ int buffer[];
  for (int i = (int)threadIdx.x; i < ints; i += (int)blockDim.x)
    buffer[i] = 1;
  __syncthreads();
  if (threadIdx.x == 0) {
    int sum = 0;
    for (int i = 0; i < ints; ++i)
      sum += buffer[i];
    atomicAdd(out, sum);
  }
}
