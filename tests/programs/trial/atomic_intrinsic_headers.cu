// Public programs include the toolkit's atomic and intrinsic headers by name:
// an agent-based epidemic simulation infects a node with atomicCAS and counts
// infections with atomicAdd after `#include <device_atomic_functions.h>`, and
// older code names <sm_20_atomic_functions.h>, <sm_60_atomic_functions.h> or
// <sm_32_intrinsics.h> for atomicAdd on float and double, __ldg and the
// funnel shifts. nvcc 13 builds such code with no warning. cuemu had no shim
// of these names, so the real toolkit's headers were found and redefined
// every atomic ("redefinition of 'int atomicAdd(int*, int)'"). The functions
// each header declares must be callable and give their results.
#include <cuda_runtime.h>
#include <device_atomic_functions.h>
#include <sm_20_atomic_functions.h>
#include <sm_32_atomic_functions.h>
#include <sm_35_atomic_functions.h>
#include <sm_60_atomic_functions.h>
#include <sm_20_intrinsics.h>
#include <sm_30_intrinsics.h>
#include <sm_32_intrinsics.h>
#include <sm_35_intrinsics.h>
#include <sm_61_intrinsics.h>
#include "../check.cuh"

struct Totals {
  int infected;            // atomicCAS winners, counted with atomicAdd
  int active;              // atomicAdd then atomicSub
  float fsum;              // sm_20: atomicAdd on float
  double dsum;             // sm_60: atomicAdd on double
  unsigned long long bits; // sm_32: atomicOr on 64 bits
  long long lo;            // sm_32: atomicMin on 64 bits
  int either;              // sm_20_intrinsics: __syncthreads_or
  unsigned ballot;         // sm_30_intrinsics: __ballot_sync
  int ldg_sum;             // sm_32_intrinsics: __ldg
  unsigned shifted;        // sm_32_intrinsics: __funnelshift_l
  int dot;                 // sm_61_intrinsics: __dp4a
};

// Every thread tries to infect node (i % 8); the first to swap -1 wins.
__global__ void headers_kernel(int *level, const int *weights, Totals *t) {
  int i = threadIdx.x;
  if (atomicCAS(&level[i % 8], -1, i) == -1) atomicAdd(&t->infected, 1);
  atomicAdd(&t->active, 2);
  atomicSub(&t->active, 1);
  atomicAdd(&t->fsum, 0.5f);
  atomicAdd(&t->dsum, 0.25);
  atomicOr(&t->bits, 1ull << (i + 20));
  atomicMin(&t->lo, -static_cast<long long>(i) * 1000000000LL);
  int any = __syncthreads_or(i == 5);
  unsigned b = __ballot_sync(0xffffffffu, i % 2 == 0);
  atomicAdd(&t->ldg_sum, __ldg(&weights[i]));
  if (i == 0) {
    t->either = any;
    t->ballot = b;
    t->shifted = __funnelshift_l(0xf0000000u, 0x0000ffffu, 4);
    t->dot = __dp4a(0x01020304, 0x01010101, 10);
  }
}

int main() {
  int h_level[8], h_w[32];
  for (int i = 0; i < 8; ++i) h_level[i] = -1;
  for (int i = 0; i < 32; ++i) h_w[i] = i;
  int *d_level, *d_w;
  Totals *d_t, h_t = {};
  h_t.lo = 0;
  cudaMalloc(&d_level, sizeof h_level);
  cudaMalloc(&d_w, sizeof h_w);
  cudaMalloc(&d_t, sizeof h_t);
  cudaMemcpy(d_level, h_level, sizeof h_level, cudaMemcpyHostToDevice);
  cudaMemcpy(d_w, h_w, sizeof h_w, cudaMemcpyHostToDevice);
  cudaMemcpy(d_t, &h_t, sizeof h_t, cudaMemcpyHostToDevice);
  headers_kernel<<<1, 32>>>(d_level, d_w, d_t);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  cudaMemcpy(&h_t, d_t, sizeof h_t, cudaMemcpyDeviceToHost);
  cudaMemcpy(h_level, d_level, sizeof h_level, cudaMemcpyDeviceToHost);
  CHECK(h_t.infected == 8);
  for (int i = 0; i < 8; ++i) CHECK(h_level[i] >= 0 && h_level[i] % 8 == i);
  CHECK(h_t.active == 32);
  CHECK(h_t.fsum == 16.0f && h_t.dsum == 8.0);
  CHECK(h_t.bits == 0xffffffffull << 20);
  CHECK(h_t.lo == -31000000000LL);
  CHECK(h_t.either == 1);
  CHECK(h_t.ballot == 0x55555555u);
  CHECK(h_t.ldg_sum == 31 * 32 / 2);
  CHECK(h_t.shifted == 0x000fffffu);  // high word of 0x0000ffff_f0000000 << 4
  CHECK(h_t.dot == 1 * 1 + 2 * 1 + 3 * 1 + 4 * 1 + 10);
  cudaFree(d_level);
  cudaFree(d_w);
  cudaFree(d_t);
  return finish();
}
