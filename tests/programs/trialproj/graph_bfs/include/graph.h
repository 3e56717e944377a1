#pragma once
#include <vector>
struct CSRGraph { int n; int m; std::vector<int> row; std::vector<int> col; };
CSRGraph make_grid_graph(int w, int h);
std::vector<int> bfs_host(const CSRGraph &g, int src);
