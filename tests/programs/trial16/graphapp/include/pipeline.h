#pragma once
#include <cuda_runtime.h>

// Graph-based pipeline: y = a*x + b, then a block reduction of y, then a
// normalisation done in a child graph; returns the instantiated graph.
struct Pipeline {
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  cudaGraphNode_t saxpyNode = nullptr;
  cudaGraphNode_t hostNode = nullptr;
  float *dx = nullptr, *dy = nullptr, *dsum = nullptr;
  float *hsum = nullptr;
  int n = 0;
  int hostCalls = 0;
};

void pipeline_build_captured(Pipeline &p, cudaStream_t s, float a, float b);
void pipeline_build_explicit(Pipeline &p, float a, float b);
bool pipeline_update_scale(Pipeline &p, cudaStream_t s, float a, float b);
cudaGraph_t make_child_graph(float *data, int n, const float *sum);
void pipeline_free(Pipeline &p);
