// power_while.cu: an iterative eigenvalue solve (power iteration) run
// entirely on the device by a conditional while node: the loop body is
// captured into the node's body graph with cudaStreamBeginCaptureToGraph,
// and its last kernel clears the condition when the Rayleigh quotient has
// converged or the iteration limit is reached. The host launches the graph
// once, then again with a new start vector written before the relaunch.
#include <cmath>
#include <vector>
#include "samp_check.h"

constexpr int N = 200, THREADS = 256, MAX_ITERS = 500;

struct SolverState {
  double lambda;
  double prevLambda;
  int iterations;
};

// y = A x for the symmetric matrix A(i,i) = 2 + i/N, A(i,i+-1) = -1.
__global__ void matvec(const double *x, double *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  double v = (2.0 + (double)i / n) * x[i];
  if (i > 0) v -= x[i - 1];
  if (i < n - 1) v -= x[i + 1];
  y[i] = v;
}

// One block: lambda = x.y, x = y / |y|, then the loop's condition.
__global__ void normalizeAndTest(double *x, const double *y, int n,
                                 SolverState *st, double tol,
                                 cudaGraphConditionalHandle handle) {
  __shared__ double sdot[THREADS], snorm[THREADS];
  double d = 0, s = 0;
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    d += x[i] * y[i];
    s += y[i] * y[i];
  }
  sdot[threadIdx.x] = d;
  snorm[threadIdx.x] = s;
  __syncthreads();
  for (int k = blockDim.x / 2; k > 0; k >>= 1) {
    if (threadIdx.x < k) {
      sdot[threadIdx.x] += sdot[threadIdx.x + k];
      snorm[threadIdx.x] += snorm[threadIdx.x + k];
    }
    __syncthreads();
  }
  double inv = 1.0 / sqrt(snorm[0]);
  for (int i = threadIdx.x; i < n; i += blockDim.x) x[i] = y[i] * inv;
  if (threadIdx.x == 0) {
    st->prevLambda = st->lambda;
    st->lambda = sdot[0];
    st->iterations++;
    bool done = fabs(st->lambda - st->prevLambda) < tol * fabs(st->lambda) ||
                st->iterations >= MAX_ITERS;
    cudaGraphSetConditional(handle, done ? 0 : 1);
  }
}

__global__ void resetState(SolverState *st) {
  st->lambda = 0;
  st->prevLambda = -1;
  st->iterations = 0;
}

static double hostPower(std::vector<double> x, int *iters, double tol) {
  std::vector<double> y(N);
  double lambda = 0, prev;
  *iters = 0;
  do {
    for (int i = 0; i < N; ++i) {
      double v = (2.0 + (double)i / N) * x[i];
      if (i > 0) v -= x[i - 1];
      if (i < N - 1) v -= x[i + 1];
      y[i] = v;
    }
    double d = 0, s = 0;
    for (int i = 0; i < N; ++i) d += x[i] * y[i], s += y[i] * y[i];
    for (int i = 0; i < N; ++i) x[i] = y[i] / std::sqrt(s);
    prev = lambda;
    lambda = d;
    ++*iters;
  } while (!(std::fabs(lambda - prev) < tol * std::fabs(lambda)) && *iters < MAX_ITERS);
  return lambda;
}

int main() {
  double *d_x, *d_y;
  SolverState *d_st, *h_st;
  checkCudaErrors(cudaMalloc(&d_x, N * sizeof(double)));
  checkCudaErrors(cudaMalloc(&d_y, N * sizeof(double)));
  checkCudaErrors(cudaMalloc(&d_st, sizeof(SolverState)));
  checkCudaErrors(cudaMallocHost(&h_st, sizeof(SolverState)));
  cudaStream_t stream;
  checkCudaErrors(cudaStreamCreate(&stream));

  cudaGraph_t graph;
  checkCudaErrors(cudaGraphCreate(&graph, 0));
  cudaGraphConditionalHandle handle;
  checkCudaErrors(cudaGraphConditionalHandleCreate(&handle, graph, 1,
                                                   cudaGraphCondAssignDefault));
  // reset -> while(body) -> copy of the state to the host.
  cudaGraphNode_t resetNode, whileNode, copyNode;
  cudaKernelNodeParams kp = {};
  void *resetArgs[] = {&d_st};
  kp.func = (void *)resetState;
  kp.gridDim = dim3(1);
  kp.blockDim = dim3(1);
  kp.kernelParams = resetArgs;
  checkCudaErrors(cudaGraphAddKernelNode(&resetNode, graph, nullptr, 0, &kp));

  cudaGraphNodeParams cp = {};
  cp.type = cudaGraphNodeTypeConditional;
  cp.conditional.handle = handle;
  cp.conditional.type = cudaGraphCondTypeWhile;
  cp.conditional.size = 1;
  checkCudaErrors(cudaGraphAddNode(&whileNode, graph, &resetNode, nullptr, 1, &cp));
  cudaGraph_t body = cp.conditional.phGraph_out[0];

  const double tol = 1e-10;
  checkCudaErrors(cudaStreamBeginCaptureToGraph(stream, body, nullptr, nullptr, 0,
                                                cudaStreamCaptureModeRelaxed));
  matvec<<<(N + THREADS - 1) / THREADS, THREADS, 0, stream>>>(d_x, d_y, N);
  normalizeAndTest<<<1, THREADS, 0, stream>>>(d_x, d_y, N, d_st, tol, handle);
  cudaGraph_t captured;
  checkCudaErrors(cudaStreamEndCapture(stream, &captured));
  bool ok = captured == body;
  size_t bodyNodes = 0;
  checkCudaErrors(cudaGraphGetNodes(body, nullptr, &bodyNodes));
  ok = ok && bodyNodes == 2;

  checkCudaErrors(cudaGraphAddMemcpyNode1D(&copyNode, graph, &whileNode, 1, h_st, d_st,
                                           sizeof(SolverState), cudaMemcpyDeviceToHost));
  cudaGraphExec_t exec;
  checkCudaErrors(cudaGraphInstantiate(&exec, graph, 0));

  for (int round = 0; round < 2; ++round) {
    std::vector<double> x0(N);
    for (int i = 0; i < N; ++i) x0[i] = round == 0 ? 1.0 : (i % 3) + 0.5;
    checkCudaErrors(cudaMemcpyAsync(d_x, x0.data(), N * sizeof(double),
                                    cudaMemcpyHostToDevice, stream));
    checkCudaErrors(cudaGraphLaunch(exec, stream));
    checkCudaErrors(cudaStreamSynchronize(stream));
    int hostIters;
    double ref = hostPower(x0, &hostIters, tol);
    printf("round %d: lambda %.10f after %d iterations (host %.10f after %d)\n",
           round, h_st->lambda, h_st->iterations, ref, hostIters);
    ok = ok && std::fabs(h_st->lambda - ref) < 1e-9 * ref &&
         std::abs(h_st->iterations - hostIters) <= 1 && h_st->iterations > 5;
  }

  checkCudaErrors(cudaGraphExecDestroy(exec));
  checkCudaErrors(cudaGraphDestroy(graph));
  checkCudaErrors(cudaStreamDestroy(stream));
  checkCudaErrors(cudaFree(d_x));
  checkCudaErrors(cudaFree(d_y));
  checkCudaErrors(cudaFree(d_st));
  checkCudaErrors(cudaFreeHost(h_st));
  return samp_result(ok, "powerWhile");
}
