/*
 * conditional_nodes.cu: conditional nodes (CUDA 12.4+): a while loop whose
 * body kernel decides with cudaGraphSetConditional whether it runs again
 * (relaunched with limits read from device memory at each launch), an if
 * node with an else body, and a switch node with three bodies, each driven
 * by a kernel that sets the condition before it.
 */
#include <cuda_runtime.h>

#include "../check.cuh"
#include "graph_kernels.cuh"

static void CUDART_CB noop(void *) {}

/* Adds a conditional node after `dep` and returns its bodies. */
static cudaGraph_t *add_conditional(cudaGraph_t graph, cudaGraphNode_t *node,
                                    const cudaGraphNode_t *dep,
                                    cudaGraphConditionalHandle handle,
                                    cudaGraphConditionalNodeType type,
                                    unsigned size) {
  cudaGraphNodeParams p = {cudaGraphNodeTypeConditional};
  p.conditional.handle = handle;
  p.conditional.type = type;
  p.conditional.size = size;
  CUDA_OK(cudaGraphAddNode(node, graph, dep, nullptr, dep ? 1 : 0, &p));
  return p.conditional.phGraph_out;
}

/* Adds a one-thread kernel node with the given arguments. */
static void add_kernel(cudaGraphNode_t *node, cudaGraph_t graph,
                       const cudaGraphNode_t *dep, void *func, void **args) {
  cudaKernelNodeParams k = {};
  k.func = func;
  k.gridDim = dim3(1);
  k.blockDim = dim3(32);
  k.kernelParams = args;
  CUDA_OK(cudaGraphAddKernelNode(node, graph, dep, dep ? 1 : 0, &k));
}

/* A graph that sets the condition from *dvalue, then a conditional node of
 * `type` whose body i writes tags[i] into *dtag; launched with the values
 * 0 to 3, it must leave expect[value] there (-1: no body ran). */
static void run_branches(cudaGraphConditionalNodeType type, const int *tags,
                         unsigned size, const int *expect, int *dvalue,
                         int *dtag, cudaStream_t stream) {
  cudaGraph_t graph;
  CUDA_OK(cudaGraphCreate(&graph, 0));
  cudaGraphConditionalHandle handle;
  CUDA_OK(cudaGraphConditionalHandleCreate(&handle, graph));
  cudaGraphNode_t set, branch, body_node;
  void *set_args[] = {&handle, &dvalue};
  add_kernel(&set, graph, nullptr, reinterpret_cast<void *>(&set_condition),
             set_args);
  cudaGraph_t *bodies = add_conditional(graph, &branch, &set, handle, type,
                                        size);
  for (unsigned i = 0; i < size; ++i) {
    int tag = tags[i];
    void *args[] = {&dtag, &tag};
    add_kernel(&body_node, bodies[i], nullptr,
               reinterpret_cast<void *>(&write_tag), args);
  }
  cudaGraphExec_t exec;
  CUDA_OK(cudaGraphInstantiate(&exec, graph, 0));
  for (int value = 0; value < 4; ++value) {
    int tag = -1;
    CUDA_OK(cudaMemcpy(dtag, &tag, sizeof(int), cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemcpy(dvalue, &value, sizeof(int), cudaMemcpyHostToDevice));
    CUDA_OK(cudaGraphLaunch(exec, stream));
    CUDA_OK(cudaMemcpy(&tag, dtag, sizeof(int), cudaMemcpyDeviceToHost));
    CHECK(tag == expect[value]);
  }
  CUDA_OK(cudaGraphExecDestroy(exec));
  CUDA_OK(cudaGraphDestroy(graph));
}

int main() {
  int *dcount, *dsum, *dlimit, *dvalue, *dtag;
  CUDA_OK(cudaMalloc(&dcount, sizeof(int)));
  CUDA_OK(cudaMalloc(&dsum, sizeof(int)));
  CUDA_OK(cudaMalloc(&dlimit, sizeof(int)));
  CUDA_OK(cudaMalloc(&dvalue, sizeof(int)));
  CUDA_OK(cudaMalloc(&dtag, sizeof(int)));
  cudaStream_t stream;
  CUDA_OK(cudaStreamCreate(&stream));

  /* while (count < limit) { ++count; sum += count; } */
  {
    cudaGraph_t graph;
    CUDA_OK(cudaGraphCreate(&graph, 0));
    cudaGraphConditionalHandle handle;
    CUDA_OK(cudaGraphConditionalHandleCreate(&handle, graph, 1,
                                             cudaGraphCondAssignDefault));
    cudaMemsetParams zero = {};
    zero.dst = dcount;
    zero.elementSize = 4;
    zero.width = 1;
    zero.height = 1;
    cudaGraphNode_t reset_count, reset_sum, loop, step;
    CUDA_OK(cudaGraphAddMemsetNode(&reset_count, graph, nullptr, 0, &zero));
    zero.dst = dsum;
    CUDA_OK(cudaGraphAddMemsetNode(&reset_sum, graph, &reset_count, 1, &zero));
    cudaGraph_t *body = add_conditional(graph, &loop, &reset_sum, handle,
                                        cudaGraphCondTypeWhile, 1);
    CHECK(body != nullptr);
    void *args[] = {&dcount, &dsum, &dlimit, &handle};
    add_kernel(&step, body[0], nullptr, reinterpret_cast<void *>(&loop_step),
               args);
    /* A body holds kernels, copies, memsets, empty, child graph and
     * conditional nodes only. */
    cudaHostNodeParams hp = {noop, nullptr};
    cudaGraphNode_t host;
    CHECK(cudaGraphAddHostNode(&host, body[0], &step, 1, &hp) != cudaSuccess);
    cudaGetLastError();
    cudaGraphExec_t exec;
    CUDA_OK(cudaGraphInstantiate(&exec, graph, 0));
    const int limits[] = {5, 1, 12, 3};
    for (int limit : limits) {
      CUDA_OK(cudaMemcpy(dlimit, &limit, sizeof(int), cudaMemcpyHostToDevice));
      CUDA_OK(cudaGraphLaunch(exec, stream));
      CUDA_OK(cudaStreamSynchronize(stream));
      int count = -1, sum = -1;
      CUDA_OK(cudaMemcpy(&count, dcount, sizeof(int), cudaMemcpyDeviceToHost));
      CUDA_OK(cudaMemcpy(&sum, dsum, sizeof(int), cudaMemcpyDeviceToHost));
      CHECK(count == limit);
      CHECK(sum == limit * (limit + 1) / 2);
    }
    CUDA_OK(cudaGraphExecDestroy(exec));
    CUDA_OK(cudaGraphDestroy(graph));
  }

  /* if (value) tag = 1; else tag = 2; */
  const int if_tags[] = {1, 2};
  const int if_expect[] = {2, 1, 1, 1};
  run_branches(cudaGraphCondTypeIf, if_tags, 2, if_expect, dvalue, dtag,
               stream);
  /* switch (value) { case 0: tag = 10; case 1: tag = 11; case 2: tag = 12; } */
  const int switch_tags[] = {10, 11, 12};
  const int switch_expect[] = {10, 11, 12, -1};
  run_branches(cudaGraphCondTypeSwitch, switch_tags, 3, switch_expect, dvalue,
               dtag, stream);

  CUDA_OK(cudaStreamDestroy(stream));
  CUDA_OK(cudaFree(dcount));
  CUDA_OK(cudaFree(dsum));
  CUDA_OK(cudaFree(dlimit));
  CUDA_OK(cudaFree(dvalue));
  CUDA_OK(cudaFree(dtag));
  return finish();
}
