/*
 * warp_aggregated.cu: warp-aggregated atomics as particle codes write them
 * (neighbour-list and cell-list compaction): one leader per warp (of the
 * coalesced threads, or of __activemask()) adds the warp's count and the
 * others learn the base from a shuffle. The other lanes pass a variable
 * that only the leader has set, as NVIDIA's own examples do: on a GPU each
 * lane's register simply holds garbage that nobody reads, and the
 * emulator's compilers must not take that for undefined behaviour (clang++
 * deleted the leader's test, so that every lane added: see
 * warp_aggregated_clang.cu).
 */
#include <cooperative_groups.h>
#include <cstdio>
#include <vector>

namespace cg = cooperative_groups;

namespace warp_aggregated {

__device__ int aggregated_increment(int *counter) {
  cg::coalesced_group active = cg::coalesced_threads();
  int base;
  if (active.thread_rank() == 0)
    base = atomicAdd(counter, (int)active.size());
  return active.shfl(base, 0) + (int)active.thread_rank();
}

__device__ int broadcast(int value, int from) { return __shfl_sync(__activemask(), value, from); }

// Compacts the indices whose r2 is below cut2, with the cooperative groups'
// form.
__global__ void compact_cg(const float *r2, int n, float cut2, int *out, int *count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && r2[i] < cut2) out[aggregated_increment(count)] = i;
}

// The same with the intrinsics, through a helper that takes the value.
__global__ void compact_intrinsics(const float *r2, int n, float cut2, int *out, int *count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && r2[i] < cut2) {
    unsigned mask = __activemask();
    int leader = __ffs(mask) - 1;
    int base;
    if ((int)(threadIdx.x & 31) == leader) base = atomicAdd(count, __popc(mask));
    base = broadcast(base, leader);
    out[base + __popc(mask & ((1u << (threadIdx.x & 31)) - 1))] = i;
  }
}

static int check(const char *name, const std::vector<float> &r2, float cut2, const int *out, int count) {
  std::vector<int> seen(r2.size(), 0);
  int expect = 0, bad = 0;
  for (size_t i = 0; i < r2.size(); ++i) expect += r2[i] < cut2;
  if (count != expect) {
    printf("%s: %d compacted, expected %d\n", name, count, expect);
    return 1;
  }
  for (int k = 0; k < count; ++k) {
    int i = out[k];
    if (i < 0 || i >= (int)r2.size() || seen[i]++ || !(r2[i] < cut2)) ++bad;
  }
  if (bad) printf("%s: %d wrong entries\n", name, bad);
  return bad != 0;
}

int main() {
  const int n = 1000;
  const float cut2 = 5.f;
  std::vector<float> r2(n);
  for (int i = 0; i < n; ++i) r2[i] = (float)(i * 37 % 101) / 10.f;
  float *d_r2;
  int *out, *count;
  cudaMalloc(&d_r2, n * sizeof(float));
  cudaMallocManaged(&out, n * sizeof(int));
  cudaMallocManaged(&count, sizeof(int));
  cudaMemcpy(d_r2, r2.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  int failed = 0;
  *count = 0;
  compact_cg<<<(n + 127) / 128, 128>>>(d_r2, n, cut2, out, count);
  if (cudaDeviceSynchronize() != cudaSuccess) return 1;
  failed += check("coalesced_threads", r2, cut2, out, *count);
  *count = 0;
  compact_intrinsics<<<(n + 127) / 128, 128>>>(d_r2, n, cut2, out, count);
  if (cudaDeviceSynchronize() != cudaSuccess) return 1;
  failed += check("__activemask", r2, cut2, out, *count);
  cudaFree(d_r2);
  cudaFree(out);
  cudaFree(count);
  printf("%s\n", failed ? "FAIL" : "PASS");
  return failed != 0;
}

} // namespace warp_aggregated

int main() { return warp_aggregated::main(); }
