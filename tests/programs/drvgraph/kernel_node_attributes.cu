// Kernel node attributes: set, read back, copied, kept by SetParams, carried
// into an executable graph and through cudaGraphExecUpdate, and the
// attributes a captured cudaLaunchKernelEx gives its node. The cooperative
// attribute and the cluster dimension change how the node's kernel runs
// (grid.sync() and the cluster's size are checked by the kernels).
#include <cooperative_groups.h>
#include <cstdio>
#include <cstring>

#include "../check.cuh"

namespace cg = cooperative_groups;

// Each block adds its index to sum; after a grid-wide barrier, block 0
// copies the total (only right when every block has added).
__global__ void grid_total(int *sum, int *total) {
  cg::grid_group grid = cg::this_grid();
  if (threadIdx.x == 0)
    atomicAdd(sum, (int)blockIdx.x + 1);
  grid.sync();
  if (blockIdx.x == 0 && threadIdx.x == 0)
    *total = *sum;
}

// Writes the size of the block's cluster.
__global__ void cluster_size(unsigned *out) {
  cg::cluster_group c = cg::this_cluster();
  if (threadIdx.x == 0)
    out[blockIdx.x] = c.num_blocks();
}

template <typename T> __global__ void scale(T *v, T f, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    v[i] *= f;
}

static cudaGraphNode_t only_node(cudaGraph_t g) {
  cudaGraphNode_t nodes[4];
  size_t n = 4;
  cudaGraphGetNodes(g, nodes, &n);
  return n == 1 ? nodes[0] : nullptr;
}

int main() {
  int *sum, *total;
  unsigned *sizes;
  float *v;
  cudaMalloc(&sum, sizeof(int));
  cudaMalloc(&total, sizeof(int));
  cudaMalloc(&sizes, 8 * sizeof(unsigned));
  cudaMalloc(&v, 64 * sizeof(float));

  // ---- Explicit kernel node: attributes set, read, kept, copied. ----
  cudaGraph_t g;
  CHECK(cudaGraphCreate(&g, 0) == cudaSuccess);
  void *args[] = {&sum, &total};
  cudaKernelNodeParams kp = {};
  kp.func = (void *)grid_total;
  kp.gridDim = dim3(4);
  kp.blockDim = dim3(32);
  kp.kernelParams = args;
  cudaGraphNode_t k;
  CHECK(cudaGraphAddKernelNode(&k, g, nullptr, 0, &kp) == cudaSuccess);

  cudaKernelNodeAttrValue val = {};
  val.cooperative = 1;
  CHECK(cudaGraphKernelNodeSetAttribute(k, cudaKernelNodeAttributeCooperative,
                                        &val) == cudaSuccess);
  val = {};
  val.priority = -1;
  CHECK(cudaGraphKernelNodeSetAttribute(k, cudaKernelNodeAttributePriority,
                                        &val) == cudaSuccess);
  val = {};
  val.accessPolicyWindow.base_ptr = sum;
  val.accessPolicyWindow.num_bytes = 4;
  val.accessPolicyWindow.hitRatio = 0.5f;
  val.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
  val.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
  CHECK(cudaGraphKernelNodeSetAttribute(
            k, cudaKernelNodeAttributeAccessPolicyWindow, &val) ==
        cudaSuccess);
  // Invalid values and attributes nodes do not take.
  val.accessPolicyWindow.hitRatio = 2.0f;
  CHECK(cudaGraphKernelNodeSetAttribute(
            k, cudaKernelNodeAttributeAccessPolicyWindow, &val) ==
        cudaErrorInvalidValue);
  cudaGetLastError();
  val = {};
  val.syncPolicy = cudaSyncPolicySpin;
  CHECK(cudaGraphKernelNodeSetAttribute(
            k, cudaLaunchAttributeSynchronizationPolicy, &val) ==
        cudaErrorInvalidValue);
  cudaGetLastError();

  cudaKernelNodeAttrValue out = {};
  CHECK(cudaGraphKernelNodeGetAttribute(k, cudaKernelNodeAttributeCooperative,
                                        &out) == cudaSuccess &&
        out.cooperative == 1);
  CHECK(cudaGraphKernelNodeGetAttribute(k, cudaKernelNodeAttributePriority,
                                        &out) == cudaSuccess &&
        out.priority == -1);
  CHECK(cudaGraphKernelNodeGetAttribute(
            k, cudaKernelNodeAttributeAccessPolicyWindow, &out) ==
            cudaSuccess &&
        out.accessPolicyWindow.base_ptr == sum &&
        out.accessPolicyWindow.hitRatio == 0.5f &&
        out.accessPolicyWindow.hitProp == cudaAccessPropertyPersisting);
  // Never set: zero.
  CHECK(cudaGraphKernelNodeGetAttribute(
            k, cudaKernelNodeAttributeMemSyncDomain, &out) == cudaSuccess &&
        out.memSyncDomain == cudaLaunchMemSyncDomainDefault);

  // SetParams keeps the attributes (the launch stays cooperative).
  kp.gridDim = dim3(6);
  CHECK(cudaGraphKernelNodeSetParams(k, &kp) == cudaSuccess);
  CHECK(cudaGraphKernelNodeGetAttribute(k, cudaKernelNodeAttributeCooperative,
                                        &out) == cudaSuccess &&
        out.cooperative == 1);

  // A second node gets the first one's attributes.
  cudaGraphNode_t k2;
  float f = 2.0f;
  int n = 64;
  void *sargs[] = {&v, &f, &n};
  cudaKernelNodeParams sp = {};
  sp.func = (void *)scale<float>;
  sp.gridDim = dim3(2);
  sp.blockDim = dim3(32);
  sp.kernelParams = sargs;
  cudaGraph_t g2;
  cudaGraphCreate(&g2, 0);
  CHECK(cudaGraphAddKernelNode(&k2, g2, nullptr, 0, &sp) == cudaSuccess);
  CHECK(cudaGraphKernelNodeCopyAttributes(k2, k) == cudaSuccess);
  CHECK(cudaGraphKernelNodeGetAttribute(k2, cudaKernelNodeAttributePriority,
                                        &out) == cudaSuccess &&
        out.priority == -1);
  CHECK(cudaGraphKernelNodeGetAttribute(
            k2, cudaKernelNodeAttributeCooperative, &out) == cudaSuccess &&
        out.cooperative == 1);

  // The cooperative node runs with a grid-wide barrier: 1+..+6 = 21.
  cudaGraphExec_t x;
  CHECK(cudaGraphInstantiate(&x, g, 0) == cudaSuccess);
  cudaMemset(sum, 0, sizeof(int));
  CHECK(cudaGraphLaunch(x, 0) == cudaSuccess);
  int h = 0;
  cudaMemcpy(&h, total, sizeof h, cudaMemcpyDeviceToHost);
  CHECK(h == 21);

  // ---- Cluster dimension on a node: the kernel sees clusters of 2. ----
  cudaGraph_t gc;
  cudaGraphCreate(&gc, 0);
  void *cargs[] = {&sizes};
  cudaKernelNodeParams cp = {};
  cp.func = (void *)cluster_size;
  cp.gridDim = dim3(8);
  cp.blockDim = dim3(32);
  cp.kernelParams = cargs;
  cudaGraphNode_t kc;
  CHECK(cudaGraphAddKernelNode(&kc, gc, nullptr, 0, &cp) == cudaSuccess);
  val = {};
  val.clusterDim.x = 2;
  val.clusterDim.y = 1;
  val.clusterDim.z = 1;
  CHECK(cudaGraphKernelNodeSetAttribute(
            kc, cudaKernelNodeAttributeClusterDimension, &val) == cudaSuccess);
  cudaGraphExec_t xc;
  CHECK(cudaGraphInstantiate(&xc, gc, 0) == cudaSuccess);
  cudaMemset(sizes, 0, 8 * sizeof(unsigned));
  CHECK(cudaGraphLaunch(xc, 0) == cudaSuccess);
  unsigned hs[8] = {};
  cudaMemcpy(hs, sizes, sizeof hs, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 8; ++i)
    CHECK(hs[i] == 2);

  // Executable graph update takes the new graph's attributes: clusters of 4.
  val.clusterDim.x = 4;
  CHECK(cudaGraphKernelNodeSetAttribute(
            kc, cudaKernelNodeAttributeClusterDimension, &val) == cudaSuccess);
  cudaGraphExecUpdateResultInfo info;
  CHECK(cudaGraphExecUpdate(xc, gc, &info) == cudaSuccess);
  CHECK(cudaGraphLaunch(xc, 0) == cudaSuccess);
  cudaMemcpy(hs, sizes, sizeof hs, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 8; ++i)
    CHECK(hs[i] == 4);

  // ---- A captured cudaLaunchKernelEx: its attributes are the node's. ----
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  cudaLaunchAttribute attrs[3];
  attrs[0].id = cudaLaunchAttributeClusterDimension;
  attrs[0].val.clusterDim.x = 2;
  attrs[0].val.clusterDim.y = 1;
  attrs[0].val.clusterDim.z = 1;
  attrs[1].id = cudaLaunchAttributePriority;
  attrs[1].val.priority = -2;
  attrs[2].id = cudaLaunchAttributeMemSyncDomain;
  attrs[2].val.memSyncDomain = cudaLaunchMemSyncDomainRemote;
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(8);
  cfg.blockDim = dim3(32);
  cfg.stream = s;
  cfg.attrs = attrs;
  cfg.numAttrs = 3;
  cudaGraph_t captured;
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) ==
        cudaSuccess);
  CHECK(cudaLaunchKernelEx(&cfg, cluster_size, sizes) == cudaSuccess);
  CHECK(cudaStreamEndCapture(s, &captured) == cudaSuccess);
  cudaGraphNode_t kn = only_node(captured);
  CHECK(kn != nullptr);
  CHECK(cudaGraphKernelNodeGetAttribute(
            kn, cudaKernelNodeAttributeClusterDimension, &out) ==
            cudaSuccess &&
        out.clusterDim.x == 2 && out.clusterDim.y == 1);
  CHECK(cudaGraphKernelNodeGetAttribute(kn, cudaKernelNodeAttributePriority,
                                        &out) == cudaSuccess &&
        out.priority == -2);
  CHECK(cudaGraphKernelNodeGetAttribute(
            kn, cudaKernelNodeAttributeMemSyncDomain, &out) == cudaSuccess &&
        out.memSyncDomain == cudaLaunchMemSyncDomainRemote);
  cudaGraphExec_t xk;
  CHECK(cudaGraphInstantiate(&xk, captured, 0) == cudaSuccess);
  cudaMemset(sizes, 0, 8 * sizeof(unsigned));
  CHECK(cudaGraphLaunch(xk, s) == cudaSuccess);
  cudaStreamSynchronize(s);
  cudaMemcpy(hs, sizes, sizeof hs, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 8; ++i)
    CHECK(hs[i] == 2);

  // A node that is not a kernel node has no attributes.
  cudaGraphNode_t e;
  cudaGraphAddEmptyNode(&e, g, nullptr, 0);
  CHECK(cudaGraphKernelNodeGetAttribute(e, cudaKernelNodeAttributePriority,
                                        &out) == cudaErrorInvalidValue);
  cudaGetLastError();

  cudaGraphExecDestroy(x);
  cudaGraphExecDestroy(xc);
  cudaGraphExecDestroy(xk);
  cudaGraphDestroy(g);
  cudaGraphDestroy(g2);
  cudaGraphDestroy(gc);
  cudaGraphDestroy(captured);
  cudaStreamDestroy(s);
  cudaFree(sum);
  cudaFree(total);
  cudaFree(sizes);
  cudaFree(v);
  return finish();
}
