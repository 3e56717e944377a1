// jacobi_graph_setparams.cu: a 2-D Jacobi solver whose iteration (memset
// of the norm, one sweep, a copy of the norm to pinned memory) is captured
// once; each iteration relaunches the executable graph after swapping the
// sweep's input and output with cudaGraphExecKernelNodeSetParams, as
// solvers that avoid re-instantiation do. Checked against a host solver.
#include <cmath>
#include <cstring>
#include <vector>
#include "samp_check.h"
#include "jacobi_kernels.cuh"

constexpr int NX = 66, NY = 50, BX = 16, BY = 8, ITERS = 60;

static void hostJacobi(std::vector<float> &a, std::vector<double> &norms) {
  std::vector<float> b = a;
  for (int it = 0; it < ITERS; ++it) {
    double l2 = 0;
    for (int y = 1; y < NY - 1; ++y)
      for (int x = 1; x < NX - 1; ++x) {
        float v = 0.25f * (a[y * NX + x - 1] + a[y * NX + x + 1] +
                           a[(y - 1) * NX + x] + a[(y + 1) * NX + x]);
        b[y * NX + x] = v;
        l2 += (double)(v - a[y * NX + x]) * (v - a[y * NX + x]);
      }
    norms.push_back(std::sqrt(l2));
    std::swap(a, b);
  }
}

int main() {
  float *d_a, *d_b;
  double *d_l2, *h_l2;
  size_t bytes = NX * NY * sizeof(float);
  checkCudaErrors(cudaMalloc(&d_a, bytes));
  checkCudaErrors(cudaMalloc(&d_b, bytes));
  checkCudaErrors(cudaMalloc(&d_l2, sizeof(double)));
  checkCudaErrors(cudaMallocHost(&h_l2, sizeof(double)));
  checkCudaErrors(cudaMemset(d_a, 0, bytes));
  checkCudaErrors(cudaMemset(d_b, 0, bytes));

  cudaStream_t stream;
  checkCudaErrors(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  setBoundary<<<(NX + 63) / 64, 64, 0, stream>>>(d_a, d_b, NX, NY);

  dim3 block(BX, BY), grid((NX - 2 + BX - 1) / BX, (NY - 2 + BY - 1) / BY);
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  checkCudaErrors(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  checkCudaErrors(cudaMemsetAsync(d_l2, 0, sizeof(double), stream));
  jacobiSweep<BX, BY><<<grid, block, 0, stream>>>(d_a, d_b, d_l2, NX, NY);
  checkCudaErrors(cudaMemcpyAsync(h_l2, d_l2, sizeof(double),
                                  cudaMemcpyDeviceToHost, stream));
  checkCudaErrors(cudaStreamEndCapture(stream, &graph));

  // Find the kernel node among the captured nodes.
  size_t numNodes = 0;
  checkCudaErrors(cudaGraphGetNodes(graph, nullptr, &numNodes));
  std::vector<cudaGraphNode_t> nodes(numNodes);
  checkCudaErrors(cudaGraphGetNodes(graph, nodes.data(), &numNodes));
  cudaGraphNode_t kernelNode = nullptr;
  for (auto n : nodes) {
    cudaGraphNodeType t;
    checkCudaErrors(cudaGraphNodeGetType(n, &t));
    if (t == cudaGraphNodeTypeKernel) kernelNode = n;
  }
  if (numNodes != 3 || !kernelNode) {
    printf("expected 3 nodes with one kernel, got %zu\n", numNodes);
    return samp_result(false, "jacobiGraph");
  }
  cudaKernelNodeParams kp;
  checkCudaErrors(cudaGraphKernelNodeGetParams(kernelNode, &kp));
  bool ok = kp.func == (void *)jacobiSweep<BX, BY> && kp.gridDim.x == grid.x &&
            kp.blockDim.y == BY;
  checkCudaErrors(cudaGraphInstantiate(&exec, graph, 0));

  // Arguments of the sweep, swapped per iteration in our own array.
  float *args_in = d_a, *args_out = d_b;
  double *args_l2 = d_l2;
  int nx = NX, ny = NY;
  void *args[] = {&args_in, &args_out, &args_l2, &nx, &ny};
  kp.kernelParams = args;
  std::vector<double> norms;
  for (int it = 0; it < ITERS; ++it) {
    checkCudaErrors(cudaGraphExecKernelNodeSetParams(exec, kernelNode, &kp));
    checkCudaErrors(cudaGraphLaunch(exec, stream));
    checkCudaErrors(cudaStreamSynchronize(stream));
    norms.push_back(std::sqrt(*h_l2));
    std::swap(args_in, args_out);
  }

  std::vector<float> h(NX * NY), ref(NX * NY, 0.0f);
  checkCudaErrors(cudaMemcpy(h.data(), args_in, bytes, cudaMemcpyDeviceToHost));
  for (int x = 0; x < NX; ++x) ref[x] = 1.0f;
  std::vector<double> refNorms;
  hostJacobi(ref, refNorms);
  double maxErr = 0;
  for (int i = 0; i < NX * NY; ++i)
    maxErr = std::fmax(maxErr, std::fabs(h[i] - ref[i]));
  for (int it = 0; it < ITERS; ++it)
    if (std::fabs(norms[it] - refNorms[it]) > 1e-4 * refNorms[it] + 1e-9) {
      printf("iteration %d: norm %g, host %g\n", it, norms[it], refNorms[it]);
      ok = false;
    }
  printf("%d iterations, final norm %.6e, max error %.3e\n", ITERS,
         norms.back(), maxErr);
  ok = ok && maxErr < 1e-5;

  checkCudaErrors(cudaGraphExecDestroy(exec));
  checkCudaErrors(cudaGraphDestroy(graph));
  checkCudaErrors(cudaStreamDestroy(stream));
  checkCudaErrors(cudaFree(d_a));
  checkCudaErrors(cudaFree(d_b));
  checkCudaErrors(cudaFree(d_l2));
  checkCudaErrors(cudaFreeHost(h_l2));
  return samp_result(ok, "jacobiGraph");
}
