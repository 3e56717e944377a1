// namespace_launch_bounds.cu: __launch_bounds__ and __cluster_dims__ whose
// arguments name constants of the kernel's own namespace (`md::TILE`, as a
// molecular-dynamics library writes `__launch_bounds__(TILE)` inside
// `namespace md`), of an enclosing one, and of an inline namespace: cuemu's
// kernel table evaluates them in the kernel's namespace. The bounds hold:
// cudaFuncGetAttributes() reports them and a larger block is refused.
#include <cstdio>

namespace md {
constexpr int TILE = 64;
constexpr int MIN_BLOCKS = 2;
__global__ void __launch_bounds__(TILE) tiled(int *out) {
  out[threadIdx.x] = TILE;
}
namespace detail {
constexpr int WIDE = 2 * TILE;
__global__ void __launch_bounds__(WIDE, MIN_BLOCKS) wide(int *out) {
  out[threadIdx.x] = WIDE;
}
}  // namespace detail
inline namespace v1 {
constexpr int CLUSTER = 2;
__global__ void __cluster_dims__(CLUSTER, 1, 1) __launch_bounds__(TILE)
    clustered(int *out) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = CLUSTER;
}
}  // namespace v1
}  // namespace md

int main() {
  int *out;
  int bad = 0;
  cudaMallocManaged(&out, 256 * sizeof(int));
  md::tiled<<<1, 64>>>(out);
  if (cudaDeviceSynchronize() != cudaSuccess || out[63] != 64) bad++;
  md::detail::wide<<<1, 128>>>(out);
  if (cudaDeviceSynchronize() != cudaSuccess || out[127] != 128) bad++;
  md::clustered<<<2, 64>>>(out);
  if (cudaDeviceSynchronize() != cudaSuccess || out[127] != 2) bad++;
  cudaFuncAttributes a;
  if (cudaFuncGetAttributes(&a, md::tiled) != cudaSuccess ||
      a.maxThreadsPerBlock != 64) {
    printf("tiled: maxThreadsPerBlock %d\n", a.maxThreadsPerBlock);
    bad++;
  }
  if (cudaFuncGetAttributes(&a, md::detail::wide) != cudaSuccess ||
      a.maxThreadsPerBlock != 128) {
    printf("wide: maxThreadsPerBlock %d\n", a.maxThreadsPerBlock);
    bad++;
  }
  md::tiled<<<1, 128>>>(out);
  if (cudaGetLastError() != cudaErrorLaunchOutOfResources) {
    printf("a block over the bounds was not refused\n");
    bad++;
  }
  md::clustered<<<3, 64>>>(out);
  if (cudaGetLastError() == cudaSuccess) {
    printf("a grid that is not a multiple of the cluster was not refused\n");
    bad++;
  }
  cudaDeviceSynchronize();
  cudaFree(out);
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
