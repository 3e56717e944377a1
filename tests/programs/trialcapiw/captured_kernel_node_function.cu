// captured_kernel_node_function.cu: the kernel node that stream capture
// makes of a <<<>>> launch has the kernel's CUfunction in
// cuGraphKernelNodeGetParams (cudaGetFuncBySymbol's), so a program can read
// a node, change its arguments and give it back to an instance with
// cuGraphExecKernelNodeSetParams, as the graph wrappers of
// cuda-api-wrappers do. cuemu gave a NULL function, which the set call then
// refused (CUDA_ERROR_INVALID_VALUE).
// CUEMU_OPTIONS: -lcuda
// NVCC_OPTIONS: -lcuda
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdio>

#define CHECK(cond)                                                            \
  do {                                                                         \
    if (!(cond)) {                                                             \
      std::printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);              \
      return 1;                                                                \
    }                                                                          \
  } while (0)

__global__ void affine(float *x, float a, float b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = a * x[i] + b;
}

int main() {
  const int n = 256;
  float *x = nullptr;
  CHECK(cudaMalloc(&x, n * sizeof(float)) == cudaSuccess);
  CHECK(cudaMemset(x, 0, n * sizeof(float)) == cudaSuccess);
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) == cudaSuccess);
  cudaGraph_t g;
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) == cudaSuccess);
  affine<<<n / 64, 64, 0, s>>>(x, 1.0f, 1.0f, n);
  CHECK(cudaStreamEndCapture(s, &g) == cudaSuccess);

  CUgraphNode node;
  size_t count = 1;
  CHECK(cuGraphGetNodes(reinterpret_cast<CUgraph>(g), &node, &count) ==
        CUDA_SUCCESS);
  CHECK(count == 1);
  CUDA_KERNEL_NODE_PARAMS p;
  CHECK(cuGraphKernelNodeGetParams(node, &p) == CUDA_SUCCESS);
  CUfunction f = nullptr;
  CHECK(cudaGetFuncBySymbol(reinterpret_cast<cudaFunction_t *>(&f),
                            reinterpret_cast<const void *>(affine)) ==
        cudaSuccess);
  CHECK(p.func == f);
  CHECK(p.gridDimX == n / 64 && p.blockDimX == 64);

  CUgraphExec exec;
  CHECK(cuGraphInstantiate(&exec, reinterpret_cast<CUgraph>(g), 0) ==
        CUDA_SUCCESS);
  float a = 2.0f, b = 3.0f;
  int nn = n;
  void *args[] = {&x, &a, &b, &nn};
  p.kernelParams = args;
  p.extra = nullptr;
  CHECK(cuGraphExecKernelNodeSetParams(exec, node, &p) == CUDA_SUCCESS);
  CHECK(cuGraphLaunch(exec, reinterpret_cast<CUstream>(s)) == CUDA_SUCCESS);
  // The template keeps its own arguments: x = 1 * 3 + 1.
  CUgraphExec original;
  CHECK(cuGraphInstantiate(&original, reinterpret_cast<CUgraph>(g), 0) ==
        CUDA_SUCCESS);
  CHECK(cuGraphLaunch(original, reinterpret_cast<CUstream>(s)) ==
        CUDA_SUCCESS);
  float h[n];
  CHECK(cudaMemcpyAsync(h, x, sizeof h, cudaMemcpyDeviceToHost, s) ==
        cudaSuccess);
  CHECK(cudaStreamSynchronize(s) == cudaSuccess);
  for (float v : h)
    CHECK(v == 4.0f);
  CHECK(cuGraphExecDestroy(exec) == CUDA_SUCCESS);
  CHECK(cuGraphExecDestroy(original) == CUDA_SUCCESS);
  CHECK(cudaGraphDestroy(g) == cudaSuccess);
  CHECK(cudaStreamDestroy(s) == cudaSuccess);
  CHECK(cudaFree(x) == cudaSuccess);
  std::printf("PASS\n");
  return 0;
}
