// cond_exec_update.cu: reduced from a dispatch graph of if/else, switch
// and while nodes that a program builds again with other constants and
// applies with cudaGraphExecUpdate. The rebuilt graph has conditional
// handles of its own: CUDA pairs its conditional nodes with the executable
// graph's ("Conditional handle flags and default values are updated as
// part of the graph update"; the bodies' nodes are updated by the usual
// rules), and the updated kernels set the new handles. cuemu once refused
// the update (cudaErrorGraphExecUpdateFailure) because the handles
// differed. A graph with conditional nodes also has one executable graph
// at a time ("Only one instantiation of the graph may exist at any point in
// time"), which cuemu did not check: a second cudaGraphInstantiate must
// fail until the first executable graph is destroyed, even after an update.
#include "../check.cuh"

__global__ void choose(const int *sel, cudaGraphConditionalHandle h) {
  cudaGraphSetConditional(h, (unsigned)*sel);
}
__global__ void add(int *p, int v) { *p += v; }
__global__ void count_down(int *left, cudaGraphConditionalHandle h) {
  if (--*left == 0) cudaGraphSetConditional(h, 0);
}

static void add_kernel(cudaGraph_t g, int *p, int v) {
  cudaKernelNodeParams kp = {};
  void *args[] = {&p, &v};
  kp.func = (void *)add;
  kp.gridDim = dim3(1);
  kp.blockDim = dim3(1);
  kp.kernelParams = args;
  cudaGraphNode_t n;
  CHECK(cudaGraphAddKernelNode(&n, g, nullptr, 0, &kp) == cudaSuccess);
}

// choose -> switch (3 bodies: add scale*(k+1)) -> while (loops default 2
// times: count_down, add scale).
static cudaGraph_t build(int *d, int *sel, int *left, int scale,
                         unsigned loops) {
  cudaGraph_t g;
  CHECK(cudaGraphCreate(&g, 0) == cudaSuccess);
  cudaGraphConditionalHandle hs, hw;
  CHECK(cudaGraphConditionalHandleCreate(&hs, g, 0, 0) == cudaSuccess);
  CHECK(cudaGraphConditionalHandleCreate(&hw, g, loops,
                                         cudaGraphCondAssignDefault) ==
        cudaSuccess);
  cudaKernelNodeParams kp = {};
  void *args[] = {&sel, &hs};
  kp.func = (void *)choose;
  kp.gridDim = dim3(1);
  kp.blockDim = dim3(1);
  kp.kernelParams = args;
  cudaGraphNode_t c;
  CHECK(cudaGraphAddKernelNode(&c, g, nullptr, 0, &kp) == cudaSuccess);
  cudaGraphNodeParams sp = {};
  sp.type = cudaGraphNodeTypeConditional;
  sp.conditional.handle = hs;
  sp.conditional.type = cudaGraphCondTypeSwitch;
  sp.conditional.size = 3;
  cudaGraphNode_t sw;
  CHECK(cudaGraphAddNode(&sw, g, &c, nullptr, 1, &sp) == cudaSuccess);
  for (int k = 0; k < 3; ++k)
    add_kernel(sp.conditional.phGraph_out[k], d, scale * (k + 1));
  cudaGraphNodeParams wp = {};
  wp.type = cudaGraphNodeTypeConditional;
  wp.conditional.handle = hw;
  wp.conditional.type = cudaGraphCondTypeWhile;
  wp.conditional.size = 1;
  cudaGraphNode_t wn;
  CHECK(cudaGraphAddNode(&wn, g, &sw, nullptr, 1, &wp) == cudaSuccess);
  cudaGraph_t body = wp.conditional.phGraph_out[0];
  kp.func = (void *)count_down;
  void *cargs[] = {&left, &hw};
  kp.kernelParams = cargs;
  cudaGraphNode_t cd;
  CHECK(cudaGraphAddKernelNode(&cd, body, nullptr, 0, &kp) == cudaSuccess);
  add_kernel(body, d, scale);
  return g;
}

// Runs exec with selector `v` and `left` passes allowed; returns *d.
static int run(cudaGraphExec_t exec, int *d, int *sel, int *left, int v,
               int passes) {
  CHECK(cudaMemset(d, 0, sizeof(int)) == cudaSuccess);
  CHECK(cudaMemcpy(sel, &v, sizeof v, cudaMemcpyHostToDevice) == cudaSuccess);
  CHECK(cudaMemcpy(left, &passes, sizeof passes, cudaMemcpyHostToDevice) ==
        cudaSuccess);
  CHECK(cudaGraphLaunch(exec, 0) == cudaSuccess);
  int h = -1;
  CHECK(cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost) == cudaSuccess);
  return h;
}

int main() {
  int *d, *sel, *left;
  CHECK(cudaMalloc(&d, sizeof(int)) == cudaSuccess);
  CHECK(cudaMalloc(&sel, sizeof(int)) == cudaSuccess);
  CHECK(cudaMalloc(&left, sizeof(int)) == cudaSuccess);

  cudaGraph_t g1 = build(d, sel, left, 1, 1);
  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, g1, 0) == cudaSuccess);
  // switch 2 adds 3; the loop runs twice (count_down stops it) adding 1.
  CHECK(run(exec, d, sel, left, 2, 2) == 3 + 2);

  // Only one executable graph of a graph with conditional nodes.
  cudaGraphExec_t second = nullptr;
  CHECK(cudaGraphInstantiate(&second, g1, 0) != cudaSuccess);
  cudaGetLastError();

  // The same graph built again with scale 10 and a default of 0 for the
  // while handle (the loop does not start).
  cudaGraph_t g2 = build(d, sel, left, 10, 0);
  cudaGraphExecUpdateResultInfo info;
  CHECK(cudaGraphExecUpdate(exec, g2, &info) == cudaSuccess);
  CHECK(info.result == cudaGraphExecUpdateSuccess);
  CHECK(cudaGraphDestroy(g2) == cudaSuccess);
  CHECK(run(exec, d, sel, left, 1, 2) == 20);
  CHECK(run(exec, d, sel, left, 0, 5) == 10);

  // A graph of another shape is not an update.
  cudaGraph_t g3;
  CHECK(cudaGraphCreate(&g3, 0) == cudaSuccess);
  CHECK(cudaGraphExecUpdate(exec, g3, &info) ==
        cudaErrorGraphExecUpdateFailure);
  cudaGetLastError();
  CHECK(cudaGraphDestroy(g3) == cudaSuccess);

  // Still g1's one executable graph after the update; once it is gone, g1
  // may be instantiated again.
  CHECK(cudaGraphInstantiate(&second, g1, 0) != cudaSuccess);
  cudaGetLastError();
  CHECK(cudaGraphExecDestroy(exec) == cudaSuccess);
  CHECK(cudaGraphInstantiate(&second, g1, 0) == cudaSuccess);
  CHECK(run(second, d, sel, left, 0, 3) == 1 + 3);
  CHECK(cudaGraphExecDestroy(second) == cudaSuccess);
  CHECK(cudaGraphDestroy(g1) == cudaSuccess);
  CHECK(cudaFree(d) == cudaSuccess);
  CHECK(cudaFree(sel) == cudaSuccess);
  CHECK(cudaFree(left) == cudaSuccess);
  return finish();
}
