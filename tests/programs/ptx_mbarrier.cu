/*
 * ptx_mbarrier.cu: inline PTX's mbarrier in the forms libcu++ uses: init,
 * arrive (with a state token), try_wait in a loop, test_wait.parity,
 * pending_count, arrive_drop, inval; the completed phase orders the
 * block's shared-memory accesses for the checkers, as a barrier does
 * (tests/checkers_clean.sh runs this under --check=all). Prints PASS when
 * all is well.
 */
#include <cuda_runtime.h>

#include "check.cuh"

__device__ static void arrive_and_wait(unsigned long long *bar) {
  unsigned long long state;
  asm volatile("{ .reg .u64 a; cvta.to.shared.u64 a, %1;\n\t"
               "mbarrier.arrive.shared.b64 %0, [a]; }"
               : "=l"(state) : "l"(bar) : "memory");
  asm volatile("{ .reg .u64 a; .reg .pred done; cvta.to.shared.u64 a, %0;\n"
               "WAIT:\n\t"
               "mbarrier.try_wait.shared.b64 done, [a], %1;\n\t"
               "@!done bra WAIT; }"
               ::"l"(bar), "l"(state) : "memory");
}

/* out[t]: the neighbour's value after phase 0, phase 1's parity tests and
 * the pending count of a token. */
__global__ void phases(unsigned *out) {
  __shared__ unsigned long long bar;
  __shared__ unsigned data[64];
  const unsigned t = threadIdx.x;
  if (t == 0)
    asm volatile("{ .reg .u64 a; cvta.to.shared.u64 a, %0; mbarrier.init.shared.b64 [a], %1; }"
                 ::"l"(&bar), "r"(blockDim.x) : "memory");
  __syncthreads();
  data[t] = 3 * t;
  arrive_and_wait(&bar); /* phase 0 */
  unsigned next = data[(t + 1) % blockDim.x];
  unsigned p0, p1;
  /* Phase 0 (parity 0) has completed; phase 1 (parity 1) has not. */
  asm volatile("{ .reg .u64 a; .reg .pred q, r; cvta.to.shared.u64 a, %2;\n\t"
               "mbarrier.test_wait.parity.shared.b64 q, [a], 0;\n\t"
               "mbarrier.test_wait.parity.shared.b64 r, [a], 1;\n\t"
               "selp.u32 %0, 1, 0, q; selp.u32 %1, 1, 0, r; }"
               : "=r"(p0), "=r"(p1) : "l"(&bar) : "memory");
  __syncthreads();
  data[t] = 5 * t;
  arrive_and_wait(&bar); /* phase 1 */
  next += data[(t + 1) % blockDim.x] << 16;
  /* Thread 0 alone: a token's pending count, and arrive_drop. */
  unsigned pending = 0;
  if (t == 0) {
    asm volatile("{ .reg .u64 a, s; cvta.to.shared.u64 a, %1;\n\t"
                 "mbarrier.arrive_drop.shared.b64 s, [a];\n\t"
                 "mbarrier.pending_count.b64 %0, s;\n\t"
                 "mbarrier.inval.shared.b64 [a]; }"
                 : "=r"(pending) : "l"(&bar) : "memory");
  }
  out[t] = next;
  out[64 + t] = p0 | (p1 << 1) | (pending << 2);
}

int main() {
  unsigned *out = nullptr;
  CHECK(cudaMallocManaged(&out, 128 * sizeof(unsigned)) == cudaSuccess);
  phases<<<1, 64>>>(out);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  for (unsigned t = 0; t < 64; ++t) {
    const unsigned n = (t + 1) % 64;
    CHECK(out[t] == 3 * n + ((5 * n) << 16));
    CHECK((out[64 + t] & 3) == 1);
  }
  CHECK(out[64] >> 2 == 63); /* 64 expected, one arrival made */
  CHECK(cudaFree(out) == cudaSuccess);
  return finish();
}
