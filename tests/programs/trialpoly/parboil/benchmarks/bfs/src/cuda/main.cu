/*
 * main.cu: breadth-first search.  Input: a text graph file
 *   num_nodes, then per node "first_edge edge_count", then the source,
 *   then num_edges and per edge "destination cost".
 * Usage: bfs -i graph.txt[,reference.txt] -o costs.txt
 * NVCC_OPTIONS: -I../../../../common/include
 */
#include <parboil.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cuda_runtime.h>

#include "config.h"
#include "kernel.cuh"

#define CUDA_SAFE_CALL(call)                                                   \
  do {                                                                         \
    cudaError_t err = call;                                                    \
    if (cudaSuccess != err) {                                                  \
      fprintf(stderr, "Cuda error in file '%s' in line %i : %s.\n", __FILE__,  \
              __LINE__, cudaGetErrorString(err));                              \
      exit(EXIT_FAILURE);                                                      \
    }                                                                          \
  } while (0)

int main(int argc, char **argv)
{
  struct pb_Parameters *params;
  struct pb_TimerSet timers;
  int no_of_nodes, edge_list_size, source = 0;

  pb_InitializeTimerSet(&timers);
  params = pb_ReadParameters(&argc, argv);
  if ((params->inpFiles[0] == NULL) || (params->inpFiles[1] != NULL && params->inpFiles[2] != NULL)) {
    fprintf(stderr, "Expecting one or two input filenames\n");
    exit(-1);
  }

  pb_SwitchToTimer(&timers, pb_TimerID_IO);
  FILE *fp = fopen(params->inpFiles[0], "r");
  if (!fp) {
    printf("Error Reading graph file\n");
    return 1;
  }
  if (fscanf(fp, "%d", &no_of_nodes) != 1) return 1;

  Node *h_graph_nodes = (Node *)malloc(sizeof(Node) * no_of_nodes);
  int *color = (int *)malloc(sizeof(int) * no_of_nodes);
  int start, edgeno;
  for (int i = 0; i < no_of_nodes; i++) {
    if (fscanf(fp, "%d %d", &start, &edgeno) != 2) return 1;
    h_graph_nodes[i].x = start;
    h_graph_nodes[i].y = edgeno;
    color[i] = WHITE;
  }
  if (fscanf(fp, "%d", &source) != 1) return 1;
  if (fscanf(fp, "%d", &edge_list_size) != 1) return 1;

  int id, cost;
  Edge *h_graph_edges = (Edge *)malloc(sizeof(Edge) * edge_list_size);
  for (int i = 0; i < edge_list_size; i++) {
    if (fscanf(fp, "%d", &id) != 1 || fscanf(fp, "%d", &cost) != 1) return 1;
    h_graph_edges[i].x = id;
    h_graph_edges[i].y = cost;
  }
  fclose(fp);

  int *h_cost = (int *)malloc(sizeof(int) * no_of_nodes);
  for (int i = 0; i < no_of_nodes; i++) h_cost[i] = INF;
  h_cost[source] = 0;
  color[source] = GRAY;

  pb_SwitchToTimer(&timers, pb_TimerID_COPY);
  Node *d_graph_nodes;
  Edge *d_graph_edges;
  int *d_color, *d_cost, *d_q1, *d_q2;
  CUDA_SAFE_CALL(cudaMalloc((void **)&d_graph_nodes, sizeof(Node) * no_of_nodes));
  CUDA_SAFE_CALL(cudaMemcpy(d_graph_nodes, h_graph_nodes, sizeof(Node) * no_of_nodes, cudaMemcpyHostToDevice));
  CUDA_SAFE_CALL(cudaMalloc((void **)&d_graph_edges, sizeof(Edge) * edge_list_size));
  CUDA_SAFE_CALL(cudaMemcpy(d_graph_edges, h_graph_edges, sizeof(Edge) * edge_list_size, cudaMemcpyHostToDevice));
  CUDA_SAFE_CALL(cudaMalloc((void **)&d_color, sizeof(int) * no_of_nodes));
  CUDA_SAFE_CALL(cudaMalloc((void **)&d_cost, sizeof(int) * no_of_nodes));
  CUDA_SAFE_CALL(cudaMalloc((void **)&d_q1, sizeof(int) * no_of_nodes));
  CUDA_SAFE_CALL(cudaMalloc((void **)&d_q2, sizeof(int) * no_of_nodes));
  CUDA_SAFE_CALL(cudaMemcpy(d_color, color, sizeof(int) * no_of_nodes, cudaMemcpyHostToDevice));
  CUDA_SAFE_CALL(cudaMemcpy(d_cost, h_cost, sizeof(int) * no_of_nodes, cudaMemcpyHostToDevice));
  int zero = 0;
  CUDA_SAFE_CALL(cudaMemcpyToSymbol(g_barrier_count, &zero, sizeof(int)));
  CUDA_SAFE_CALL(cudaMemcpyToSymbol(g_barrier_generation, &zero, sizeof(int)));

  pb_SwitchToTimer(&timers, pb_TimerID_KERNEL);
  dim3 grid(NUM_PERSISTENT_BLOCKS), threads(MAX_THREADS_PER_BLOCK);
  BFS_persistent<<<grid, threads>>>(d_graph_nodes, d_graph_edges, d_color, d_cost, d_q1, d_q2, source);
  CUDA_SAFE_CALL(cudaGetLastError());
  CUDA_SAFE_CALL(cudaDeviceSynchronize());

  pb_SwitchToTimer(&timers, pb_TimerID_COPY);
  CUDA_SAFE_CALL(cudaMemcpy(h_cost, d_cost, sizeof(int) * no_of_nodes, cudaMemcpyDeviceToHost));

  pb_SwitchToTimer(&timers, pb_TimerID_IO);
  if (params->outFile) {
    FILE *fpo = fopen(params->outFile, "w");
    fprintf(fpo, "%d\n", no_of_nodes);
    for (int i = 0; i < no_of_nodes; i++) fprintf(fpo, "%d %d\n", i, h_cost[i]);
    fclose(fpo);
  }
  int fail = 0;
  if (params->inpFiles[1]) {
    FILE *fr = fopen(params->inpFiles[1], "r");
    int n = 0;
    if (!fr || fscanf(fr, "%d", &n) != 1 || n != no_of_nodes) {
      fail = 1;
    } else {
      for (int i = 0; i < n; i++) {
        int node, c;
        if (fscanf(fr, "%d %d", &node, &c) != 2 || c != h_cost[node]) {
          if (fail < 5) fprintf(stderr, "cost[%d] = %d, expected %d\n", node, h_cost[node], c);
          fail++;
        }
      }
    }
    if (fr) fclose(fr);
  }
  pb_SwitchToTimer(&timers, pb_TimerID_NONE);
  pb_PrintTimerSet(&timers);

  cudaFree(d_graph_nodes);
  cudaFree(d_graph_edges);
  cudaFree(d_color);
  cudaFree(d_cost);
  cudaFree(d_q1);
  cudaFree(d_q2);
  free(h_graph_nodes);
  free(h_graph_edges);
  free(color);
  free(h_cost);
  pb_FreeParameters(params);
  printf("%s\n", fail ? "FAIL" : "PASS");
  return fail ? 1 : 0;
}
