// asm_output_then_clobbers.cu: inline PTX whose outputs are followed by
// `::` and the clobbers, with no inputs between (`: "=r"(t) :: "memory"`),
// the way latency microbenchmarks read %clock around a pointer chase.
// nvcc takes the form; each statement here must compile and do its work.
#include <cstdio>
#include <cstdint>

__global__ void chase(const unsigned *next, unsigned steps, unsigned *out,
                      unsigned *elapsed) {
  unsigned start = 0, stop = 0, lane = 99;
  asm volatile("mov.u32 %0, %%clock;" : "=r"(start)::"memory");
  unsigned p = 0;
  for (unsigned i = 0; i < steps; ++i) p = next[p];
  asm volatile("mov.u32 %0, %%clock;" : "=r"(stop) :: "memory");
  asm("mov.u32 %0, %%laneid;" : "=r"(lane)::);
  uint64_t big = 0;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(big)::"memory");
  out[threadIdx.x] = p * 100 + lane;
  if (threadIdx.x == 0) elapsed[0] = stop - start + (big != 0 ? 0u : 1u);
}

int main() {
  const unsigned n = 16;
  unsigned host[n];
  for (unsigned i = 0; i < n; ++i) host[i] = (i + 5) % n;
  unsigned *next, *out, *elapsed;
  cudaMalloc(&next, sizeof host);
  cudaMalloc(&out, 4 * sizeof(unsigned));
  cudaMalloc(&elapsed, sizeof(unsigned));
  cudaMemcpy(next, host, sizeof host, cudaMemcpyHostToDevice);
  chase<<<1, 4>>>(next, 3, out, elapsed);
  unsigned got[4], e = 0;
  cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost);
  cudaMemcpy(&e, elapsed, sizeof e, cudaMemcpyDeviceToHost);
  if (cudaGetLastError() != cudaSuccess) {
    printf("FAIL: %s\n", cudaGetErrorString(cudaGetLastError()));
    return 1;
  }
  // Three steps from 0: 5, 10, 15.
  for (unsigned t = 0; t < 4; ++t)
    if (got[t] != 1500 + t) {
      printf("FAIL: thread %u got %u\n", t, got[t]);
      return 1;
    }
  if (e > 1000000000u) {
    printf("FAIL: clock went backwards (%u)\n", e);
    return 1;
  }
  printf("PASS\n");
  return 0;
}
