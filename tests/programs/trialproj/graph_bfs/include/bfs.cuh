#pragma once
#include <utility>
struct DeviceGraph { int n, m; int *row, *col; };
void bfs_frontier(const DeviceGraph &g, int src, int *d_dist, int use_cg);
void bfs_persistent(const DeviceGraph &g, int src, int *d_dist);
