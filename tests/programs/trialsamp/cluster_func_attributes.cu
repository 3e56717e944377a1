// cluster_func_attributes.cu: the cluster attributes of a kernel, reduced
// from a sample that printed them before launching. cudaFuncGetAttributes
// reports a kernel's __cluster_dims__ in requiredClusterWidth, Height and
// Depth (zeros for a kernel without them) and the
// cudaFuncAttributeNonPortableClusterSizeAllowed setting in
// nonPortableClusterSizeAllowed; the driver API's cuFuncGetAttribute gives
// the same through CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_* and
// CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED. clusterDimMustBeSet
// is 1 for a kernel with __cluster_dims__ (nvcc marks it .explicitcluster)
// and clusterSchedulingPolicyPreference gives what cudaFuncSetAttribute set
// (0, 1 or 2). cuemu once reported zeros for all of them.
// CUEMU_OPTIONS: -lcuda
// NVCC_OPTIONS: -lcuda
#include <cooperative_groups.h>
#include <cuda.h>

#include "../check.cuh"

namespace cg = cooperative_groups;

__global__ void __cluster_dims__(2, 1, 1) pairs(int *out) {
  cg::cluster_group cluster = cg::this_cluster();
  if (threadIdx.x == 0)
    out[blockIdx.x] = (int)cluster.block_rank();
  cluster.sync();
}

__global__ void __cluster_dims__(2, 2, 1) quads(int *out) {
  if (threadIdx.x == 0)
    out[blockIdx.y * gridDim.x + blockIdx.x] = (int)cg::this_cluster().block_rank();
}

__global__ void plain(int *out) { out[threadIdx.x] = 1; }

int main() {
  cudaFuncAttributes a;
  CHECK(cudaFuncGetAttributes(&a, pairs) == cudaSuccess);
  CHECK(a.requiredClusterWidth == 2 && a.requiredClusterHeight == 1 && a.requiredClusterDepth == 1);
  CHECK(a.nonPortableClusterSizeAllowed == 0);
  CHECK(a.clusterDimMustBeSet == 1 && a.clusterSchedulingPolicyPreference == 0);
  CHECK(cudaFuncSetAttribute(pairs, cudaFuncAttributeClusterSchedulingPolicyPreference,
                             (int)cudaClusterSchedulingPolicySpread) == cudaSuccess);
  CHECK(cudaFuncSetAttribute(pairs, cudaFuncAttributeClusterSchedulingPolicyPreference, 7) ==
        cudaErrorInvalidValue);
  CHECK(cudaGetLastError() == cudaErrorInvalidValue);
  CHECK(cudaFuncGetAttributes(&a, pairs) == cudaSuccess);
  CHECK(a.clusterSchedulingPolicyPreference == (int)cudaClusterSchedulingPolicySpread);
  CHECK(cudaFuncGetAttributes(&a, quads) == cudaSuccess);
  CHECK(a.requiredClusterWidth == 2 && a.requiredClusterHeight == 2 && a.requiredClusterDepth == 1);
  CHECK(cudaFuncGetAttributes(&a, plain) == cudaSuccess);
  CHECK(a.requiredClusterWidth == 0 && a.requiredClusterHeight == 0 && a.requiredClusterDepth == 0);
  CHECK(a.clusterDimMustBeSet == 0 && a.clusterSchedulingPolicyPreference == 0);
  CHECK(cudaFuncSetAttribute(plain, cudaFuncAttributeNonPortableClusterSizeAllowed, 1) == cudaSuccess);
  CHECK(cudaFuncGetAttributes(&a, plain) == cudaSuccess);
  CHECK(a.nonPortableClusterSizeAllowed == 1);

  // The driver API's view of the same kernels.
  CUfunction f = nullptr;
  CHECK(cudaGetFuncBySymbol(&f, (const void *)quads) == cudaSuccess);
  int w = -1, h = -1, d = -1, np = -1;
  CHECK(cuFuncGetAttribute(&w, CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH, f) == CUDA_SUCCESS);
  CHECK(cuFuncGetAttribute(&h, CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT, f) == CUDA_SUCCESS);
  CHECK(cuFuncGetAttribute(&d, CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH, f) == CUDA_SUCCESS);
  CHECK(cuFuncGetAttribute(&np, CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, f) == CUDA_SUCCESS);
  CHECK(w == 2 && h == 2 && d == 1 && np == 0);
  int must = -1, policy = -1;
  CHECK(cuFuncGetAttribute(&must, CU_FUNC_ATTRIBUTE_CLUSTER_SIZE_MUST_BE_SET, f) == CUDA_SUCCESS);
  CHECK(cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE,
                           CU_CLUSTER_SCHEDULING_POLICY_LOAD_BALANCING) == CUDA_SUCCESS);
  CHECK(cuFuncGetAttribute(&policy, CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE, f) ==
        CUDA_SUCCESS);
  CHECK(must == 1 && policy == (int)CU_CLUSTER_SCHEDULING_POLICY_LOAD_BALANCING);
  CHECK(cudaFuncGetAttributes(&a, quads) == cudaSuccess);
  CHECK(a.clusterSchedulingPolicyPreference == (int)cudaClusterSchedulingPolicyLoadBalancing);
  CHECK(cudaGetFuncBySymbol(&f, (const void *)plain) == cudaSuccess);
  CHECK(cuFuncGetAttribute(&w, CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH, f) == CUDA_SUCCESS);
  CHECK(cuFuncGetAttribute(&np, CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, f) == CUDA_SUCCESS);
  CHECK(cuFuncGetAttribute(&must, CU_FUNC_ATTRIBUTE_CLUSTER_SIZE_MUST_BE_SET, f) == CUDA_SUCCESS);
  CHECK(w == 0 && np == 1 && must == 0);

  // And the kernels run in their clusters.
  int *out = nullptr;
  CHECK(cudaMalloc(&out, 16 * sizeof(int)) == cudaSuccess);
  pairs<<<8, 32>>>(out);
  CHECK(cudaGetLastError() == cudaSuccess);
  int h_out[16];
  CHECK(cudaMemcpy(h_out, out, 8 * sizeof(int), cudaMemcpyDeviceToHost) == cudaSuccess);
  for (int b = 0; b < 8; ++b)
    CHECK(h_out[b] == b % 2);
  quads<<<dim3(4, 4), 32>>>(out);
  CHECK(cudaMemcpy(h_out, out, 16 * sizeof(int), cudaMemcpyDeviceToHost) == cudaSuccess);
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 4; ++x)
      CHECK(h_out[y * 4 + x] == (x % 2) + 2 * (y % 2));
  CHECK(cudaFree(out) == cudaSuccess);
  return finish();
}
