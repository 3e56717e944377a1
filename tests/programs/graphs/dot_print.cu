/*
 * dot_print.cu: cudaGraphDebugDotPrint writes a Graphviz file of a captured
 * graph (a fork into two streams, a join, and an executable graph launched
 * into the capture, which becomes a child graph node): every kernel is
 * named, there is an arrow per edge, and `dot -Tsvg` draws the file when
 * Graphviz is installed.
 */
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include <unistd.h>

#include "../check.cuh"
#include "graph_kernels.cuh"

static std::string read_file(const char *path) {
  std::string text;
  if (FILE *f = std::fopen(path, "r")) {
    char buf[4096];
    size_t got;
    while ((got = std::fread(buf, 1, sizeof buf, f)) > 0)
      text.append(buf, got);
    std::fclose(f);
  }
  return text;
}

static size_t occurrences(const std::string &text, const char *what) {
  size_t count = 0;
  for (size_t at = text.find(what); at != std::string::npos;
       at = text.find(what, at + 1))
    ++count;
  return count;
}

int main() {
  const int n = 128;
  float *a, *b, *c;
  CUDA_OK(cudaMalloc(&a, n * sizeof(float)));
  CUDA_OK(cudaMalloc(&b, n * sizeof(float)));
  CUDA_OK(cudaMalloc(&c, n * sizeof(float)));
  cudaStream_t s0, s1;
  CUDA_OK(cudaStreamCreate(&s0));
  CUDA_OK(cudaStreamCreate(&s1));
  cudaEvent_t fork, join;
  CUDA_OK(cudaEventCreate(&fork));
  CUDA_OK(cudaEventCreate(&join));

  /* A small graph to launch inside the capture: c = a + b. */
  cudaGraph_t inner;
  CUDA_OK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
  add_into<<<blocks_for(n, 64), 64, 0, s1>>>(c, a, b, n);
  CUDA_OK(cudaStreamEndCapture(s1, &inner));
  cudaGraphExec_t inner_exec;
  CUDA_OK(cudaGraphInstantiate(&inner_exec, inner, 0));

  cudaGraph_t graph;
  CUDA_OK(cudaStreamBeginCapture(s0, cudaStreamCaptureModeGlobal));
  CUDA_OK(cudaMemsetAsync(a, 0, n * sizeof(float), s0));
  CUDA_OK(cudaEventRecord(fork, s0));
  CUDA_OK(cudaStreamWaitEvent(s1, fork, 0));
  scale_into<<<blocks_for(n, 64), 64, 0, s0>>>(a, a, 2.0f, n);
  axpy<float><<<blocks_for(n, 64), 64, 0, s1>>>(0.5f, a, b, n);
  CUDA_OK(cudaEventRecord(join, s1));
  CUDA_OK(cudaStreamWaitEvent(s0, join, 0));
  CUDA_OK(cudaGraphLaunch(inner_exec, s0));
  CUDA_OK(cudaStreamEndCapture(s0, &graph));

  size_t nodes = 0, edges = 0;
  CUDA_OK(cudaGraphGetNodes(graph, nullptr, &nodes));
  CUDA_OK(cudaGraphGetEdges(graph, nullptr, nullptr, nullptr, &edges));
  CHECK(nodes == 4); /* memset, scale, axpy, child graph */
  CHECK(edges == 4); /* memset->scale, memset->axpy, scale->child, axpy->child */

  char path[64], svg_path[64];
  std::snprintf(path, sizeof path, "/tmp/graphs_dot_print.%d.dot",
                static_cast<int>(getpid()));
  std::snprintf(svg_path, sizeof svg_path, "%s.svg", path);
  CUDA_OK(cudaGraphDebugDotPrint(graph, path,
                                 cudaGraphDebugDotFlagsVerbose));
  std::string dot = read_file(path);
  CHECK(dot.compare(0, 7, "digraph") == 0);
  CHECK(dot.find("scale_into") != std::string::npos);
  CHECK(dot.find("axpy") != std::string::npos);
  CHECK(dot.find("add_into") != std::string::npos); /* in the child graph */
  CHECK(occurrences(dot, "->") >= edges);
#ifdef CUEMU_GRAPH_API_H
  /* cuemu's layout: one box per node (the child graph's kernel included),
   * one arrow per edge. */
  CHECK(occurrences(dot, "->") == edges);
  CHECK(occurrences(dot, "[shape=") == nodes + 1);
  CHECK(occurrences(dot, "MEMSET") == 1);
  CHECK(occurrences(dot, "subgraph cluster_") == 2);
#endif
  if (std::system("command -v dot >/dev/null 2>&1") == 0) {
    std::string command =
        std::string("dot -Tsvg ") + path + " -o " + svg_path;
    CHECK(std::system(command.c_str()) == 0);
    std::string svg = read_file(svg_path);
    CHECK(svg.find("<svg") != std::string::npos);
    CHECK(svg.find("scale_into") != std::string::npos);
    std::remove(svg_path);
  } else {
    std::printf("note: Graphviz's dot is not installed; the file was not "
                "drawn\n");
  }
  std::remove(path);

  CUDA_OK(cudaGraphExecDestroy(inner_exec));
  CUDA_OK(cudaGraphDestroy(inner));
  CUDA_OK(cudaGraphDestroy(graph));
  CUDA_OK(cudaEventDestroy(fork));
  CUDA_OK(cudaEventDestroy(join));
  CUDA_OK(cudaStreamDestroy(s0));
  CUDA_OK(cudaStreamDestroy(s1));
  CUDA_OK(cudaFree(a));
  CUDA_OK(cudaFree(b));
  CUDA_OK(cudaFree(c));
  return finish();
}
