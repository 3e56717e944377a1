#include "graph.h"
#include <queue>
CSRGraph make_grid_graph(int w, int h) {
  CSRGraph g; g.n = w * h; g.row.assign(g.n + 1, 0);
  for (int y = 0; y < h; ++y) for (int x = 0; x < w; ++x) {
    int v = y * w + x;
    if (x > 0) g.col.push_back(v - 1);
    if (x + 1 < w) g.col.push_back(v + 1);
    if (y > 0) g.col.push_back(v - w);
    if (y + 1 < h) g.col.push_back(v + w);
    if ((x * 7 + y * 3) % 11 == 0) g.col.push_back((v * 37 + 11) % g.n);
    g.row[v + 1] = (int)g.col.size();
  }
  g.m = (int)g.col.size(); return g;
}
std::vector<int> bfs_host(const CSRGraph &g, int src) {
  std::vector<int> d(g.n, -1); std::queue<int> q; d[src] = 0; q.push(src);
  while (!q.empty()) { int u = q.front(); q.pop();
    for (int e = g.row[u]; e < g.row[u + 1]; ++e) if (d[g.col[e]] < 0) { d[g.col[e]] = d[u] + 1; q.push(g.col[e]); } }
  return d;
}
