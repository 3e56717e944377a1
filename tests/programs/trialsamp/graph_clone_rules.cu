// graph_clone_rules.cu: CUDA's rules for copying graphs, reduced from a
// sample that captured the bodies of if/else and switch nodes and then
// cloned the graph. cudaGraphClone refuses a graph with conditional nodes
// (as it refuses one with memory allocation or free nodes);
// cudaGraphAddChildGraphNode refuses a child graph with conditional, memory
// allocation or free nodes (cudaErrorInvalidValue), and cudaGraphAddNode
// takes one with memory nodes only when its cudaChildGraphNodeParams move
// the graph into the node (cudaGraphChildGraphOwnershipMove): the node then
// owns that very graph, which cannot be destroyed or instantiated on its
// own; no allocation or free node can be added to the graph of a child graph
// node (cudaErrorNotSupported; CUDA says only "an error"). cuemu once
// cloned the conditional graph, and with it a user object the graph held,
// which was then never released; it also copied child graphs of any kind.
#include "../check.cuh"

__global__ void add(int *p, int v) { p[threadIdx.x] += v; }

static int destroyed = 0;
static void CUDART_CB release(void *) { ++destroyed; }

int main() {
  int *d = nullptr;
  CHECK(cudaMalloc(&d, 32 * sizeof(int)) == cudaSuccess);
  CHECK(cudaMemset(d, 0, 32 * sizeof(int)) == cudaSuccess);

  // A graph with an if node, holding a user object.
  cudaGraph_t cond;
  CHECK(cudaGraphCreate(&cond, 0) == cudaSuccess);
  cudaGraphConditionalHandle h;
  CHECK(cudaGraphConditionalHandleCreate(&h, cond, 1, cudaGraphCondAssignDefault) == cudaSuccess);
  cudaGraphNodeParams ifp = {};
  ifp.type = cudaGraphNodeTypeConditional;
  ifp.conditional.handle = h;
  ifp.conditional.type = cudaGraphCondTypeIf;
  ifp.conditional.size = 1;
  cudaGraphNode_t ifNode;
  CHECK(cudaGraphAddNode(&ifNode, cond, nullptr, nullptr, 0, &ifp) == cudaSuccess);
  cudaKernelNodeParams kp = {};
  int v = 5;
  void *args[] = {&d, &v};
  kp.func = (void *)add;
  kp.gridDim = dim3(1);
  kp.blockDim = dim3(32);
  kp.kernelParams = args;
  cudaGraphNode_t k;
  CHECK(cudaGraphAddKernelNode(&k, ifp.conditional.phGraph_out[0], nullptr, 0, &kp) == cudaSuccess);
  cudaUserObject_t obj;
  CHECK(cudaUserObjectCreate(&obj, nullptr, release, 1, cudaUserObjectNoDestructorSync) == cudaSuccess);
  CHECK(cudaGraphRetainUserObject(cond, obj, 1, cudaGraphUserObjectMove) == cudaSuccess);

  cudaGraph_t clone = nullptr;
  CHECK(cudaGraphClone(&clone, cond) == cudaErrorNotSupported);
  CHECK(cudaGetLastError() == cudaErrorNotSupported);

  cudaGraph_t parent;
  CHECK(cudaGraphCreate(&parent, 0) == cudaSuccess);
  cudaGraphNode_t child;
  CHECK(cudaGraphAddChildGraphNode(&child, parent, nullptr, 0, cond) == cudaErrorInvalidValue);
  CHECK(cudaGetLastError() == cudaErrorInvalidValue);

  // The conditional graph still runs, and its user object goes with it.
  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, cond, 0) == cudaSuccess);
  CHECK(cudaGraphLaunch(exec, 0) == cudaSuccess);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(cudaGraphExecDestroy(exec) == cudaSuccess);
  CHECK(cudaGraphDestroy(cond) == cudaSuccess);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(destroyed == 1);

  // A graph with an allocation and a free node: cloned, refused; moved, taken.
  cudaGraph_t mem;
  CHECK(cudaGraphCreate(&mem, 0) == cudaSuccess);
  cudaMemAllocNodeParams ap = {};
  ap.poolProps.allocType = cudaMemAllocationTypePinned;
  ap.poolProps.location.type = cudaMemLocationTypeDevice;
  ap.poolProps.location.id = 0;
  ap.bytesize = 256;
  cudaGraphNode_t a, f;
  CHECK(cudaGraphAddMemAllocNode(&a, mem, nullptr, 0, &ap) == cudaSuccess);
  CHECK(cudaGraphAddMemFreeNode(&f, mem, &a, 1, ap.dptr) == cudaSuccess);
  CHECK(cudaGraphAddChildGraphNode(&child, parent, nullptr, 0, mem) == cudaErrorInvalidValue);
  CHECK(cudaGetLastError() == cudaErrorInvalidValue);
  cudaGraphNodeParams cp = {};
  cp.type = cudaGraphNodeTypeGraph;
  cp.graph.graph = mem;
  cp.graph.ownership = cudaGraphChildGraphOwnershipClone;
  CHECK(cudaGraphAddNode(&child, parent, nullptr, nullptr, 0, &cp) == cudaErrorInvalidValue);
  CHECK(cudaGetLastError() == cudaErrorInvalidValue);
  cp.graph.ownership = cudaGraphChildGraphOwnershipMove;
  CHECK(cudaGraphAddNode(&child, parent, nullptr, nullptr, 0, &cp) == cudaSuccess);
  cudaGraph_t owned = nullptr;
  CHECK(cudaGraphChildGraphNodeGetGraph(child, &owned) == cudaSuccess);
  CHECK(owned == mem);
  CHECK(cudaGraphDestroy(mem) == cudaErrorInvalidValue); // it goes with the node
  CHECK(cudaGetLastError() == cudaErrorInvalidValue);
  cudaGraphExec_t alone;
  CHECK(cudaGraphInstantiate(&alone, mem, 0) == cudaErrorInvalidValue); // only with its parent
  CHECK(cudaGetLastError() == cudaErrorInvalidValue);
  cudaGraphNode_t more;
  CHECK(cudaGraphAddMemAllocNode(&more, owned, nullptr, 0, &ap) == cudaErrorNotSupported);
  CHECK(cudaGetLastError() == cudaErrorNotSupported);

  // The parent runs the moved graph's allocation and free, twice.
  CHECK(cudaGraphInstantiate(&exec, parent, 0) == cudaSuccess);
  CHECK(cudaGraphLaunch(exec, 0) == cudaSuccess);
  CHECK(cudaGraphLaunch(exec, 0) == cudaSuccess);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(cudaGraphExecDestroy(exec) == cudaSuccess);
  CHECK(cudaGraphDestroy(parent) == cudaSuccess);

  int h_d[32];
  CHECK(cudaMemcpy(h_d, d, sizeof h_d, cudaMemcpyDeviceToHost) == cudaSuccess);
  for (int i = 0; i < 32; ++i)
    CHECK(h_d[i] == 5);
  CHECK(cudaFree(d) == cudaSuccess);
  return finish();
}
