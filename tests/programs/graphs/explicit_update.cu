/*
 * explicit_update.cu: a graph built node by node (memset, kernel with a
 * struct argument, 1-D and 3-D copies, host, empty join, child graph, event
 * record), queried (nodes, roots, edges, dependencies, types), cloned,
 * instantiated and relaunched with new parameters three ways: per-node
 * cudaGraphExec*SetParams, cudaGraphExecUpdate from a changed clone, and a
 * disabled node. Also: an update with another topology is refused with the
 * offending node; a cycle is refused at instantiation with its node; user
 * objects are destroyed when the last graph or executable graph lets go;
 * the executable graph outlives its graph.
 */
#include <cuda_runtime.h>

#include <vector>

#include "../check.cuh"
#include "graph_kernels.cuh"

static int host_runs = 0;
static void CUDART_CB on_host(void *data) { ++*static_cast<int *>(data); }

static int destroyed = 0;
static void CUDART_CB destroy_object(void *data) {
  destroyed += *static_cast<int *>(data);
}

/* The value affine() leaves in an element set to `init` by the memset. */
static int affine_ref(int init, Affine f) {
  return static_cast<int>(f.mul * static_cast<float>(init) + f.add) + f.shift;
}

int main() {
  const int n = 256;
  const unsigned threads = 64;
  int *d, *dcopy;
  std::vector<int> h(n, 0), h3(2 * 4 * 8, 0);
  CUDA_OK(cudaMalloc(&d, n * sizeof(int)));
  CUDA_OK(cudaMalloc(&dcopy, n * sizeof(int)));
  cudaStream_t stream;
  CUDA_OK(cudaStreamCreate(&stream));
  cudaEvent_t done;
  CUDA_OK(cudaEventCreate(&done));

  cudaGraph_t graph, child;
  CUDA_OK(cudaGraphCreate(&graph, 0));
  CUDA_OK(cudaGraphCreate(&child, 0));

  /* memset: 4-byte elements of 7 */
  cudaMemsetParams ms = {};
  ms.dst = d;
  ms.value = 7;
  ms.elementSize = 4;
  ms.width = n;
  ms.height = 1;
  cudaGraphNode_t nset, nkernel, ncopy, nhost, njoin, nchild, nrecord, n3d;
  CUDA_OK(cudaGraphAddMemsetNode(&nset, graph, nullptr, 0, &ms));

  /* kernel: affine with a struct by value */
  Affine f = {3.0f, 1.5f, -2};
  int count = n;
  int *data = d;
  void *kargs[] = {&data, &f, &count};
  cudaKernelNodeParams kp = {};
  kp.func = reinterpret_cast<void *>(&affine);
  kp.gridDim = dim3(blocks_for(n, threads));
  kp.blockDim = dim3(threads);
  kp.kernelParams = kargs;
  CUDA_OK(cudaGraphAddKernelNode(&nkernel, graph, &nset, 1, &kp));
  f.mul = -100.0f; /* copied at the call: no effect */

  /* child graph: a copy of the result, device to device */
  cudaGraphNode_t child_copy;
  CUDA_OK(cudaGraphAddMemcpyNode1D(&child_copy, child, nullptr, 0, dcopy, d,
                                   n * sizeof(int),
                                   cudaMemcpyDeviceToDevice));
  CUDA_OK(cudaGraphAddChildGraphNode(&nchild, graph, &nkernel, 1, child));

  /* 1-D copy back to the host, a host node and a 3-D copy, joined by an
   * empty node, then an event record */
  CUDA_OK(cudaGraphAddMemcpyNode1D(&ncopy, graph, &nchild, 1, h.data(),
                                   dcopy, n * sizeof(int),
                                   cudaMemcpyDeviceToHost));
  cudaHostNodeParams hp = {on_host, &host_runs};
  CUDA_OK(cudaGraphAddHostNode(&nhost, graph, &nkernel, 1, &hp));
  /* 3-D: a box of 8 x 4 x 2 ints from d (rows of 8 ints, 4 rows a slice) */
  cudaMemcpy3DParms p3 = {};
  p3.srcPtr = make_cudaPitchedPtr(d, 8 * sizeof(int), 8, 4);
  p3.dstPtr = make_cudaPitchedPtr(h3.data(), 8 * sizeof(int), 8, 4);
  p3.extent = make_cudaExtent(8 * sizeof(int), 4, 2);
  p3.kind = cudaMemcpyDeviceToHost;
  CUDA_OK(cudaGraphAddMemcpyNode(&n3d, graph, &nkernel, 1, &p3));
  cudaGraphNode_t join_deps[] = {ncopy, nhost, n3d};
  CUDA_OK(cudaGraphAddEmptyNode(&njoin, graph, join_deps, 3));
  CUDA_OK(cudaGraphAddEventRecordNode(&nrecord, graph, &njoin, 1, done));

  /* Queries. */
  size_t count_nodes = 0, roots = 0, edges = 0;
  CUDA_OK(cudaGraphGetNodes(graph, nullptr, &count_nodes));
  CHECK(count_nodes == 8);
  cudaGraphNode_t root = nullptr;
  roots = 1;
  CUDA_OK(cudaGraphGetRootNodes(graph, &root, &roots));
  CHECK(roots == 1 && root == nset);
  CUDA_OK(cudaGraphGetEdges(graph, nullptr, nullptr, nullptr, &edges));
  CHECK(edges == 9);
  std::vector<cudaGraphNode_t> from(edges), to(edges);
  CUDA_OK(cudaGraphGetEdges(graph, from.data(), to.data(), nullptr, &edges));
  int into_join = 0;
  for (size_t i = 0; i < edges; ++i)
    into_join += to[i] == njoin;
  CHECK(into_join == 3);
  size_t ndeps = 0;
  CUDA_OK(cudaGraphNodeGetDependentNodes(nkernel, nullptr, nullptr, &ndeps));
  CHECK(ndeps == 3);
  cudaGraphNodeType type;
  CUDA_OK(cudaGraphNodeGetType(nchild, &type));
  CHECK(type == cudaGraphNodeTypeGraph);
  /* An edge that exists cannot be added again; one that does not cannot
   * be removed. */
  CHECK(cudaGraphAddDependencies(graph, &nset, &nkernel, nullptr, 1) ==
        cudaErrorInvalidValue);
  CHECK(cudaGraphRemoveDependencies(graph, &nset, &nhost, nullptr, 1) ==
        cudaErrorInvalidValue);
  cudaGetLastError();
  /* The kernel node's parameters read back, the copied struct included. */
  cudaKernelNodeParams back = {};
  CUDA_OK(cudaGraphKernelNodeGetParams(nkernel, &back));
  CHECK(back.func == reinterpret_cast<void *>(&affine));
  CHECK(back.gridDim.x == blocks_for(n, threads));
  CHECK(static_cast<Affine *>(back.kernelParams[1])->mul == 3.0f);

  /* User objects: one reference moved to the graph. */
  int weight = 1;
  cudaUserObject_t object;
  CUDA_OK(cudaUserObjectCreate(&object, &weight, destroy_object, 1,
                               cudaUserObjectNoDestructorSync));
  CUDA_OK(cudaGraphRetainUserObject(graph, object, 1,
                                    cudaGraphUserObjectMove));

  cudaGraphExec_t exec;
  CUDA_OK(cudaGraphInstantiate(&exec, graph, 0));
  f = {3.0f, 1.5f, -2};
  const Affine base = f;
  CUDA_OK(cudaGraphLaunch(exec, stream));
  CUDA_OK(cudaEventSynchronize(done));
  CHECK(h[0] == affine_ref(7, base) && h[n - 1] == affine_ref(7, base));
  CHECK(h3[8 * 4 + 3] == affine_ref(7, base));
  CHECK(host_runs == 1);

  /* Per-node parameters of the executable graph, relaunched. */
  for (int l = 0; l < 25; ++l) {
    Affine g = {static_cast<float>(l % 5), 0.25f * static_cast<float>(l), l};
    void *gargs[] = {&data, &g, &count};
    cudaKernelNodeParams gp = kp;
    gp.kernelParams = gargs;
    CUDA_OK(cudaGraphExecKernelNodeSetParams(exec, nkernel, &gp));
    cudaMemsetParams ms2 = ms;
    ms2.value = static_cast<unsigned>(l);
    CUDA_OK(cudaGraphExecMemsetNodeSetParams(exec, nset, &ms2));
    CUDA_OK(cudaGraphLaunch(exec, stream));
    CUDA_OK(cudaStreamSynchronize(stream));
    CHECK(h[l] == affine_ref(l, g));
  }
  CHECK(host_runs == 26);
  /* The graph itself kept its parameters. */
  CUDA_OK(cudaGraphKernelNodeGetParams(nkernel, &back));
  CHECK(static_cast<Affine *>(back.kernelParams[1])->shift == -2);

  /* A changed clone, taken by cudaGraphExecUpdate. */
  cudaGraph_t clone;
  CUDA_OK(cudaGraphClone(&clone, graph));
  cudaGraphNode_t clone_kernel, clone_set;
  CUDA_OK(cudaGraphNodeFindInClone(&clone_kernel, nkernel, clone));
  CUDA_OK(cudaGraphNodeFindInClone(&clone_set, nset, clone));
  CHECK(clone_kernel != nkernel);
  Affine u = {2.0f, 0.0f, 1000};
  void *uargs[] = {&data, &u, &count};
  cudaKernelNodeParams up = kp;
  up.kernelParams = uargs;
  CUDA_OK(cudaGraphKernelNodeSetParams(clone_kernel, &up));
  cudaGraphExecUpdateResultInfo info;
  CUDA_OK(cudaGraphExecUpdate(exec, clone, &info));
  CHECK(info.result == cudaGraphExecUpdateSuccess);
  CUDA_OK(cudaGraphLaunch(exec, stream));
  CUDA_OK(cudaStreamSynchronize(stream));
  CHECK(h[3] == affine_ref(7, u));

  /* A disabled kernel node: the memset alone. */
  CUDA_OK(cudaGraphNodeSetEnabled(exec, nkernel, 0));
  unsigned enabled = 1;
  CUDA_OK(cudaGraphNodeGetEnabled(exec, nkernel, &enabled));
  CHECK(enabled == 0);
  CUDA_OK(cudaGraphLaunch(exec, stream));
  CUDA_OK(cudaStreamSynchronize(stream));
  CHECK(h[9] == 7);
  CUDA_OK(cudaGraphNodeSetEnabled(exec, nkernel, 1));

  /* Another topology: refused, naming the node. */
  cudaGraphNode_t extra;
  CUDA_OK(cudaGraphAddEmptyNode(&extra, clone, &clone_kernel, 1));
  CHECK(cudaGraphExecUpdate(exec, clone, &info) ==
        cudaErrorGraphExecUpdateFailure);
  CHECK(info.result == cudaGraphExecUpdateErrorTopologyChanged);
  cudaGetLastError();

  /* A cycle: refused at instantiation, with a node on it. */
  cudaGraph_t cyclic;
  cudaGraphNode_t a, b;
  CUDA_OK(cudaGraphCreate(&cyclic, 0));
  CUDA_OK(cudaGraphAddEmptyNode(&a, cyclic, nullptr, 0));
  CUDA_OK(cudaGraphAddEmptyNode(&b, cyclic, &a, 1));
  CUDA_OK(cudaGraphAddDependencies(cyclic, &b, &a, nullptr, 1));
  cudaGraphInstantiateParams ip = {};
  cudaGraphExec_t bad_exec = nullptr;
  CHECK(cudaGraphInstantiateWithParams(&bad_exec, cyclic, &ip) != cudaSuccess);
  CHECK(ip.result_out == cudaGraphInstantiateInvalidStructure);
  CHECK(ip.errNode_out == a || ip.errNode_out == b);
  cudaGetLastError();
  /* The C++ form of CUDA 11's signature, which real programs still use. */
  char log[256];
  CHECK(cudaGraphInstantiate(&bad_exec, cyclic, nullptr, log, sizeof log) !=
        cudaSuccess);
  cudaGetLastError();
  CUDA_OK(cudaGraphDestroy(cyclic));

  /* The executable graph outlives its graph; the user object lives while
   * either holds it. */
  CUDA_OK(cudaGraphDestroy(clone));
  CUDA_OK(cudaGraphDestroy(child));
  CUDA_OK(cudaGraphDestroy(graph));
  CHECK(destroyed == 0);
  CUDA_OK(cudaGraphLaunch(exec, stream));
  CUDA_OK(cudaStreamSynchronize(stream));
  CHECK(h[3] == affine_ref(7, u));
  CUDA_OK(cudaGraphExecDestroy(exec));
  CHECK(destroyed == 1);
#ifdef CUEMU_GRAPH_API_H
  /* cuemu checks handles: a node of a destroyed graph is an invalid value
   * (undefined behaviour on a GPU). */
  CHECK(cudaGraphNodeGetType(nkernel, &type) == cudaErrorInvalidValue);
  CHECK(cudaGraphLaunch(exec, stream) == cudaErrorInvalidValue);
  cudaGetLastError();
#endif

  /* A captured launch of a kernel template's instance: its parameters read
   * back and set again, with a new scalar, on the executable graph. */
  {
    const int m = 64;
    float *x, *y, hy[m];
    CUDA_OK(cudaMalloc(&x, m * sizeof(float)));
    CUDA_OK(cudaMalloc(&y, m * sizeof(float)));
    cudaGraph_t captured;
    CUDA_OK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
    CUDA_OK(cudaMemsetAsync(y, 0, m * sizeof(float), stream));
    axpy<float><<<1, m, 0, stream>>>(2.0f, x, y, m);
    CUDA_OK(cudaStreamEndCapture(stream, &captured));
    cudaGraphNode_t pair[2];
    size_t count2 = 2;
    CUDA_OK(cudaGraphGetNodes(captured, pair, &count2));
    CHECK(count2 == 2);
    cudaGraphNode_t knode = nullptr;
    for (size_t i = 0; i < count2; ++i) {
      cudaGraphNodeType t;
      CUDA_OK(cudaGraphNodeGetType(pair[i], &t));
      if (t == cudaGraphNodeTypeKernel)
        knode = pair[i];
    }
    CHECK(knode != nullptr);
    cudaGraphExec_t cexec;
    CUDA_OK(cudaGraphInstantiate(&cexec, captured, 0));
    float hx[m];
    for (int i = 0; i < m; ++i)
      hx[i] = static_cast<float>(i);
    CUDA_OK(cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice));
    for (int l = 0; l < 3; ++l) {
      cudaKernelNodeParams kparams = {};
      CUDA_OK(cudaGraphKernelNodeGetParams(knode, &kparams));
      float a = 3.0f + static_cast<float>(l);
      void *new_args[] = {&a, kparams.kernelParams[1],
                          kparams.kernelParams[2], kparams.kernelParams[3]};
      kparams.kernelParams = new_args;
      CUDA_OK(cudaGraphExecKernelNodeSetParams(cexec, knode, &kparams));
      CUDA_OK(cudaGraphLaunch(cexec, stream));
      CUDA_OK(cudaMemcpy(hy, y, sizeof hy, cudaMemcpyDeviceToHost));
      CHECK(hy[5] == a * 5.0f && hy[m - 1] == a * static_cast<float>(m - 1));
    }
    CUDA_OK(cudaGraphExecDestroy(cexec));
    CUDA_OK(cudaGraphDestroy(captured));
    CUDA_OK(cudaFree(x));
    CUDA_OK(cudaFree(y));
  }

  CUDA_OK(cudaEventDestroy(done));
  CUDA_OK(cudaStreamDestroy(stream));
  CUDA_OK(cudaFree(d));
  CUDA_OK(cudaFree(dcopy));
  return finish();
}
