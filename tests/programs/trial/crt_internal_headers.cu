// Real projects include CUDA's internal headers by their crt/ path, as the
// toolkit's own headers do: <crt/host_defines.h> for __align__ and
// __forceinline__, <crt/device_functions.h> and <crt/math_functions.h> for
// intrinsics and the math API, <crt/common_functions.h> for memset and
// clock, <crt/sm_70_rt.h> for the warp match functions and __nanosleep, and
// <crt/host_config.h> for the host compiler checks, <crt/mma.h> for the
// warp matrix functions. nvcc 13 builds them
// with a warning that each header is internal. cuemu had no crt/ shims, so
// the toolkit's own headers were read and did not compile next to cuemu's.
// Each header's names must work in a kernel, and on the host where CUDA
// gives them a host side.
#include <crt/host_defines.h>
#include <crt/host_config.h>
#include <crt/device_functions.h>
#include <crt/device_double_functions.h>
#include <crt/math_functions.h>
#include <crt/common_functions.h>
#include <crt/sm_70_rt.h>
#include <crt/mma.h>
#include <cuda_runtime.h>
#include "../check.cuh"

// crt/host_defines.h: __align__ and __forceinline__, on both sides.
struct __align__(16) Pair {
  float a, b;
};

__host__ __device__ __forceinline__ float pair_sum(Pair p) { return p.a + p.b; }

struct Results {
  unsigned int high;      // __umulhi (crt/device_functions.h)
  int bits;               // __popc (crt/device_functions.h)
  long long int as_ll;    // __double_as_longlong (crt/device_double_functions.h)
  float root;             // rsqrtf (crt/math_functions.h)
  int smaller;            // min (crt/math_functions.h)
  unsigned char zeroed;   // memset (crt/common_functions.h)
  int clock_ran;          // clock (crt/common_functions.h)
  unsigned int matched;   // __match_any_sync (crt/sm_70_rt.h)
  unsigned short swapped; // 16-bit atomicCAS (crt/sm_70_rt.h)
  float sum;              // pair_sum (crt/host_defines.h)
};

__global__ void crt_kernel(Results *out, unsigned short *word, float *tile) {
  // crt/mma.h: the whole warp fills a 16x16 accumulator and stores it.
  nvcuda::wmma::fragment<nvcuda::wmma::accumulator, 16, 16, 16, float> acc;
  nvcuda::wmma::fill_fragment(acc, 2.0f);
  nvcuda::wmma::store_matrix_sync(tile, acc, 16, nvcuda::wmma::mem_row_major);
  // Lanes 0-15 offer 1 and lanes 16-31 offer 2: lane 0 matches the low half.
  unsigned int matched = __match_any_sync(0xffffffffu, threadIdx.x < 16 ? 1 : 2);
  if (threadIdx.x != 0) return;
  Results r;
  memset(&r, 0, sizeof r);
  r.high = __umulhi(0x80000000u, 6u);
  r.bits = __popc(0xF0F0u);
  r.as_ll = __double_as_longlong(1.5);
  r.root = rsqrtf(4.0f);
  r.smaller = min(3, -2);
  unsigned char bytes[4] = {1, 2, 3, 4};
  memset(bytes, 0, sizeof bytes);
  r.zeroed = bytes[0] | bytes[3];
  clock_t start = clock();
  __nanosleep(100);
  r.clock_ran = clock() >= start;
  r.matched = matched;
  r.swapped = atomicCAS(word, (unsigned short)7, (unsigned short)9);
  Pair p = {1.25f, 2.5f};
  r.sum = pair_sum(p);
  *out = r;
}

int main() {
  Results *d_out;
  unsigned short *d_word;
  float *d_tile;
  float tile[256];
  const unsigned short seven = 7;
  cudaMalloc(&d_out, sizeof(Results));
  cudaMalloc(&d_word, sizeof(unsigned short));
  cudaMalloc(&d_tile, sizeof tile);
  cudaMemcpy(d_word, &seven, sizeof seven, cudaMemcpyHostToDevice);
  crt_kernel<<<1, 32>>>(d_out, d_word, d_tile);
  Results h;
  unsigned short word = 0;
  cudaMemcpy(&h, d_out, sizeof h, cudaMemcpyDeviceToHost);
  cudaMemcpy(&word, d_word, sizeof word, cudaMemcpyDeviceToHost);
  cudaMemcpy(tile, d_tile, sizeof tile, cudaMemcpyDeviceToHost);
  CHECK(h.high == 3u);
  CHECK(h.bits == 8);
  // 1.5 is 0x3FF8000000000000 in IEEE 754 binary64.
  CHECK(h.as_ll == 0x3FF8000000000000LL);
  CHECK(h.root == 0.5f);
  CHECK(h.smaller == -2);
  CHECK(h.zeroed == 0 && h.clock_ran == 1);
  CHECK(h.matched == 0x0000ffffu);
  CHECK(h.swapped == 7 && word == 9);
  CHECK(h.sum == 3.75f);
  CHECK(tile[0] == 2.0f && tile[255] == 2.0f);
  // The host side of the same headers: the qualifiers and alignment, min,
  // fmaf, memset and clock.
  CHECK(alignof(Pair) == 16);
  Pair p = {0.5f, 0.25f};
  CHECK(pair_sum(p) == 0.75f);
  CHECK(min(4, 9) == 4 && fmaf(2.0f, 3.0f, 0.5f) == 6.5f);
  char buf[3] = {1, 2, 3};
  memset(buf, 0, sizeof buf);
  CHECK(buf[0] == 0 && buf[2] == 0 && clock() >= 0);
  cudaFree(d_tile);
  cudaFree(d_word);
  cudaFree(d_out);
  return finish();
}
