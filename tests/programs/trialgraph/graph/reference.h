// reference.h: serial host versions of every algorithm, for checking.
#ifndef TRIALGRAPH_REFERENCE_H
#define TRIALGRAPH_REFERENCE_H
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <queue>
#include <vector>
#include "csr_graph.h"

inline std::vector<int> host_bfs(const CsrGraph &g, index_t src) {
  std::vector<int> depth(g.nnodes, -1);
  std::queue<index_t> q;
  depth[src] = 0;
  q.push(src);
  while (!q.empty()) {
    index_t v = q.front(); q.pop();
    for (index_t e = g.row_start[v]; e < g.row_start[v + 1]; ++e) {
      index_t d = g.edge_dst[e];
      if (depth[d] < 0) { depth[d] = depth[v] + 1; q.push(d); }
    }
  }
  return depth;
}

const int kInfDist = std::numeric_limits<int>::max() / 2;

inline std::vector<int> host_dijkstra(const CsrGraph &g, index_t src) {
  std::vector<int> dist(g.nnodes, kInfDist);
  typedef std::pair<int, index_t> Item;
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> pq;
  dist[src] = 0;
  pq.push(Item(0, src));
  while (!pq.empty()) {
    Item it = pq.top(); pq.pop();
    if (it.first > dist[it.second]) continue;
    index_t v = it.second;
    for (index_t e = g.row_start[v]; e < g.row_start[v + 1]; ++e) {
      int nd = it.first + g.edge_wt[e];
      if (nd < dist[g.edge_dst[e]]) { dist[g.edge_dst[e]] = nd; pq.push(Item(nd, g.edge_dst[e])); }
    }
  }
  return dist;
}

inline std::vector<int> host_components(const CsrGraph &g) {
  std::vector<int> label(g.nnodes, -1);
  for (index_t s = 0; s < g.nnodes; ++s) {
    if (label[s] >= 0) continue;
    std::vector<index_t> stack(1, s);
    label[s] = s;
    while (!stack.empty()) {
      index_t v = stack.back(); stack.pop_back();
      for (index_t e = g.row_start[v]; e < g.row_start[v + 1]; ++e)
        if (label[g.edge_dst[e]] < 0) { label[g.edge_dst[e]] = s; stack.push_back(g.edge_dst[e]); }
    }
  }
  return label;  // smallest vertex id of each component
}

inline long long host_triangles(const CsrGraph &g) {
  long long count = 0;
  for (index_t u = 0; u < g.nnodes; ++u)
    for (index_t e = g.row_start[u]; e < g.row_start[u + 1]; ++e) {
      index_t v = g.edge_dst[e];
      if (v <= u) continue;
      index_t i = g.row_start[u], j = g.row_start[v];
      while (i < g.row_start[u + 1] && j < g.row_start[v + 1]) {
        index_t a = g.edge_dst[i], b = g.edge_dst[j];
        if (a < b) ++i; else if (b < a) ++j;
        else { if (a > v) ++count; ++i; ++j; }
      }
    }
  return count;
}

inline std::vector<float> host_pagerank(const CsrGraph &g, float damping, int iters) {
  // The graph is symmetric, so in-neighbours are out-neighbours.
  std::vector<float> pr(g.nnodes, 1.0f / g.nnodes), next(g.nnodes);
  for (int it = 0; it < iters; ++it) {
    for (index_t v = 0; v < g.nnodes; ++v) {
      float sum = 0;
      for (index_t e = g.row_start[v]; e < g.row_start[v + 1]; ++e) {
        index_t u = g.edge_dst[e];
        sum += pr[u] / g.degree(u);
      }
      next[v] = (1 - damping) / g.nnodes + damping * sum;
    }
    pr.swap(next);
  }
  return pr;
}

#endif  // TRIALGRAPH_REFERENCE_H
