/*
 * ptx_barrier_order.cu: inline PTX's bar.sync orders shared-memory
 * accesses as __syncthreads does, and ld.global.nc reads what the host
 * wrote: under the checkers (tests/checkers_clean.sh) this program has no
 * report, whereas tests/buggy/race_ptx_shared.cu, the same without the
 * barrier, has one. Prints PASS when all is well.
 */
#include <cuda_runtime.h>

#include "check.cuh"

__global__ void shift_left(const unsigned *in, unsigned *out) {
  __shared__ unsigned tile[128];
  unsigned t = threadIdx.x, x, v;
  unsigned long long mine, left;
  asm volatile("ld.global.nc.u32 %0, [%1];" : "=r"(x) : "l"(in + t));
  asm("cvta.to.shared.u64 %0, %1;" : "=l"(mine) : "l"(&tile[t]));
  asm("cvta.to.shared.u64 %0, %1;" : "=l"(left) : "l"(&tile[t ? t - 1 : 0]));
  asm volatile("st.shared.u32 [%0], %1;" ::"l"(mine), "r"(2 * x) : "memory");
  asm volatile("bar.sync 0;" ::: "memory");
  asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v) : "l"(left) : "memory");
  out[t] = v;
}

int main() {
  unsigned *in = nullptr, *out = nullptr;
  CHECK(cudaMallocManaged(&in, 128 * sizeof(unsigned)) == cudaSuccess);
  CHECK(cudaMallocManaged(&out, 128 * sizeof(unsigned)) == cudaSuccess);
  for (unsigned t = 0; t < 128; ++t)
    in[t] = t + 1;
  shift_left<<<1, 128>>>(in, out);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  for (unsigned t = 0; t < 128; ++t)
    CHECK(out[t] == 2 * (t ? t : 1));
  CHECK(cudaFree(in) == cudaSuccess);
  CHECK(cudaFree(out) == cudaSuccess);
  return finish();
}
