// cg_reduce_libcudacxx.cu: nvcc's <cooperative_groups/reduce.h> includes
// libcu++'s <cuda/std/functional>, and cg::plus, bit_and, bit_or and
// bit_xor derive from libcu++'s operators. A kernel that includes only the
// cooperative groups headers may use cuda::std::max, cuda::std::min and
// cuda::std::plus (reduced from a trial program, which failed to compile
// with cuemu: "'max' is not a member of 'cuda::std'"). nvcc's
// <cooperative_groups.h> also includes <nv/target>: NV_IF_TARGET compiles
// after it alone.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cstdio>

namespace cg = cooperative_groups;

static_assert(cuda::std::is_base_of<cuda::std::plus<int>, cg::plus<int>>::value,
              "cg::plus derives from cuda::std::plus");
static_assert(cuda::std::is_base_of<cuda::std::bit_xor<unsigned>, cg::bit_xor<unsigned>>::value,
              "cg::bit_xor derives from cuda::std::bit_xor");

__global__ void spans(const int *in, int n, int *out) {
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
  int lo = cuda::std::numeric_limits<int>::max();
  int hi = cuda::std::numeric_limits<int>::min();
  int sum = 0;
  for (int i = warp.thread_rank(); i < n; i += warp.size()) {
    lo = cuda::std::min(lo, in[i]);
    hi = cuda::std::max(hi, in[i]);
    sum = cuda::std::plus<int>()(sum, in[i]);
  }
  lo = cg::reduce(warp, lo, cg::less<int>());
  hi = cg::reduce(warp, hi, cg::greater<int>());
  sum = cg::reduce(warp, sum, cg::plus<int>());
  unsigned x = cg::reduce(warp, (unsigned)in[warp.thread_rank()], cg::bit_xor<unsigned>());
  if (warp.thread_rank() == 0) {
    NV_IF_TARGET(NV_IS_DEVICE, (out[4] = 1;), (out[4] = 2;))
    out[0] = lo;
    out[1] = hi;
    out[2] = sum;
    out[3] = (int)x;
  }
}

int main() {
  const int n = 1000;
  int h[n], *d, *dOut, got[5];
  int lo = 1 << 30, hi = -(1 << 30), sum = 0;
  unsigned x = 0;
  for (int i = 0; i < n; i++) {
    h[i] = (i * 7919) % 2003 - 1000;
    lo = h[i] < lo ? h[i] : lo;
    hi = h[i] > hi ? h[i] : hi;
    sum += h[i];
    if (i < 32) x ^= (unsigned)h[i];
  }
  cudaMalloc(&d, sizeof h);
  cudaMalloc(&dOut, sizeof got);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  spans<<<1, 32>>>(d, n, dOut);
  cudaMemcpy(got, dOut, sizeof got, cudaMemcpyDeviceToHost);
  cudaFree(d);
  cudaFree(dOut);
  if (got[0] != lo || got[1] != hi || got[2] != sum || (unsigned)got[3] != x || got[4] != 1) {
    printf("FAIL: %d %d %d %d %d, expected %d %d %d %d 1\n", got[0], got[1], got[2], got[3],
           got[4], lo, hi, sum, (int)x);
    return 1;
  }
  printf("PASS\n");
  return 0;
}
