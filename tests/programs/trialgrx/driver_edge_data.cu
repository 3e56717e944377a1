// driver_edge_data.cu: the driver API's side of graph edge data
// (CUgraphEdgeData), reduced from the trialgrx project's pdl_edges run
// through cuGraph* calls: cuGraphAddNode and cuGraphAddDependencies take a
// programmatic edge between kernel nodes (a kernel of the program, as a
// CUfunction from cudaGetFuncBySymbol), cuGraphGetEdges reads it back and
// an edge with a port into a memset node is CUDA_ERROR_INVALID_VALUE.
// cuemu once refused any edge data with CUDA_ERROR_NOT_SUPPORTED.
// CUEMU_OPTIONS: -lcuda
// NVCC_OPTIONS: -lcuda
#include <cuda.h>
#include <cuda_runtime.h>

#include "../check.cuh"

__global__ void produce(int *p) {
  p[threadIdx.x] = threadIdx.x;
  cudaTriggerProgrammaticLaunchCompletion();
}
__global__ void consume(int *p) {
  cudaGridDependencySynchronize();
  p[threadIdx.x] += 100;
}

int main() {
  CHECK(cuInit(0) == CUDA_SUCCESS);
  CHECK(cudaFree(0) == cudaSuccess);
  int *p;
  CHECK(cudaMalloc(&p, 32 * sizeof(int)) == cudaSuccess);
  cudaFunction_t fp, fc;
  CHECK(cudaGetFuncBySymbol(&fp, (const void *)produce) == cudaSuccess);
  CHECK(cudaGetFuncBySymbol(&fc, (const void *)consume) == cudaSuccess);

  CUgraph g;
  CHECK(cuGraphCreate(&g, 0) == CUDA_SUCCESS);
  void *args[] = {&p};
  CUgraphNodeParams np = {};
  np.type = CU_GRAPH_NODE_TYPE_KERNEL;
  np.kernel.func = (CUfunction)fp;
  np.kernel.gridDimX = np.kernel.gridDimY = np.kernel.gridDimZ = 1;
  np.kernel.blockDimX = 32;
  np.kernel.blockDimY = np.kernel.blockDimZ = 1;
  np.kernel.kernelParams = args;
  CUgraphNode a, b, c;
  CHECK(cuGraphAddNode(&a, g, nullptr, nullptr, 0, &np) == CUDA_SUCCESS);
  CUgraphEdgeData e = {};
  e.from_port = CU_GRAPH_KERNEL_NODE_PORT_PROGRAMMATIC;
  e.type = CU_GRAPH_DEPENDENCY_TYPE_PROGRAMMATIC;
  np.kernel.func = (CUfunction)fc;
  CHECK(cuGraphAddNode(&b, g, &a, &e, 1, &np) == CUDA_SUCCESS);
  CHECK(cuGraphAddNode(&c, g, nullptr, nullptr, 0, &np) == CUDA_SUCCESS);
  e.from_port = CU_GRAPH_KERNEL_NODE_PORT_LAUNCH_ORDER;
  CHECK(cuGraphAddDependencies(g, &b, &c, &e, 1) == CUDA_SUCCESS);

  CUgraphNode from[2], to[2];
  CUgraphEdgeData data[2];
  size_t n = 2;
  CHECK(cuGraphGetEdges(g, from, to, data, &n) == CUDA_SUCCESS && n == 2);
  for (size_t i = 0; i < n; ++i) {
    CHECK(data[i].type == CU_GRAPH_DEPENDENCY_TYPE_PROGRAMMATIC);
    CHECK(data[i].from_port == (from[i] == a
                                    ? CU_GRAPH_KERNEL_NODE_PORT_PROGRAMMATIC
                                    : CU_GRAPH_KERNEL_NODE_PORT_LAUNCH_ORDER));
  }
  n = 2;
  CHECK(cuGraphGetEdges(g, from, to, nullptr, &n) == CUDA_ERROR_LOSSY_QUERY);

  CUgraphNodeParams mp = {};
  mp.type = CU_GRAPH_NODE_TYPE_MEMSET;
  mp.memset.dst = (CUdeviceptr)p;
  mp.memset.elementSize = 4;
  mp.memset.width = 32;
  mp.memset.height = 1;
  CUgraphNode m;
  CHECK(cuGraphAddNode(&m, g, &c, &e, 1, &mp) == CUDA_ERROR_INVALID_VALUE);
  size_t count = 0;
  CHECK(cuGraphGetNodes(g, nullptr, &count) == CUDA_SUCCESS && count == 3);

  CUgraphExec x;
  CHECK(cuGraphInstantiate(&x, g, 0) == CUDA_SUCCESS);
  CHECK(cuGraphLaunch(x, 0) == CUDA_SUCCESS);
  CHECK(cuCtxSynchronize() == CUDA_SUCCESS);
  int h[32];
  CHECK(cudaMemcpy(h, p, sizeof h, cudaMemcpyDeviceToHost) == cudaSuccess);
  int bad = 0;
  for (int i = 0; i < 32; ++i)
    bad += h[i] != i + 200;
  CHECK(bad == 0);
  CHECK(cuGraphExecDestroy(x) == CUDA_SUCCESS);
  CHECK(cuGraphDestroy(g) == CUDA_SUCCESS);
  CHECK(cudaFree(p) == cudaSuccess);
  return finish();
}
