/*
 * lj_cells.cu: Lennard-Jones and soft-sphere forces from a cell list (particles
 * binned with atomicAdd counters, sorted by cell with thrust::sort_by_key,
 * cell ranges found with an extern __shared__ kernel) and a Verlet
 * neighbour list with a skin; positions float4 read through __ldg; a
 * templated force functor passed to a kernel template; checked against an
 * O(N^2) host sum.
 * From a trial of molecular-dynamics code (tests/programs_trialmd.sh).
 * CUEMU_OPTIONS: -Iinclude --expt-relaxed-constexpr
 * NVCC_OPTIONS: -Iinclude --expt-relaxed-constexpr
 */
#include <limits>
#include <cuda_runtime.h>
#include <cstdlib>
#include <thrust/device_ptr.h>
#include <thrust/sort.h>
#include <thrust/execution_policy.h>
#include <cmath>
#include <random>
#include <vector>
#include "cell_list.cuh"

using namespace md;

template <typename Force>
static void host_forces(const std::vector<float4> &pos, float L, const Force &force,
                        std::vector<double> &f, double &energy) {
  int n = (int)pos.size();
  f.assign(3 * n, 0.0);
  energy = 0.0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      if (i == j) continue;
      vec3 d = min_image(vec3(pos[i]) - vec3(pos[j]), L);
      float e = 0.f;
      float fr = force(d.norm2(), e);
      f[3 * i] += d.x * fr;
      f[3 * i + 1] += d.y * fr;
      f[3 * i + 2] += d.z * fr;
      energy += 0.5 * e;
    }
}

template <typename Force>
static bool check_forces(const char *name, const float4 *d_sorted, const std::vector<float4> &sorted, int n,
                         float L, const int *d_nbr, const int *d_nn, float4 *d_force, Force force) {
  int blocks = (n + kBlockSize - 1) / kBlockSize;
  compute_forces<<<blocks, kBlockSize>>>(d_sorted, n, L, d_nbr, d_nn, force, d_force);
  CUDA_CHECK_LAST();
  std::vector<float4> got(n);
  CUDA_CHECK(cudaMemcpy(got.data(), d_force, n * sizeof(float4), cudaMemcpyDeviceToHost));
  std::vector<double> ref;
  double eref;
  host_forces(sorted, L, force, ref, eref);
  double egot = 0.0, maxerr = 0.0, fscale = 0.0;
  for (int i = 0; i < n; ++i) {
    egot += got[i].w;
    double g[3] = {got[i].x, got[i].y, got[i].z};
    for (int k = 0; k < 3; ++k) {
      maxerr = fmax(maxerr, fabs(g[k] - ref[3 * i + k]));
      fscale = fmax(fscale, fabs(ref[3 * i + k]));
    }
  }
  bool ok = maxerr <= 1e-3 * fmax(fscale, 1.0) && fabs(egot - eref) <= 1e-3 * fmax(fabs(eref), 1.0);
  printf("%s: energy %.5f (host %.5f), max force error %.3g of %.3g\n", name, egot, eref, maxerr, fscale);
  return ok;
}

int main() {
  const int side = 12;
  const int n = side * side * side;
  const float spacing = 1.2f, L = side * spacing;
  const float rc = 2.5f, skin = 0.3f;
  CellGrid grid;
  int nc = (int)(L / (rc + skin));
  grid.dim = make_int3(nc, nc, nc);
  grid.size = make_float3(L / nc, L / nc, L / nc);
  grid.L = L;

  std::mt19937 rng(1234);
  std::uniform_real_distribution<float> jitter(-0.15f, 0.15f);
  std::vector<float4> pos(n);
  for (int i = 0; i < n; ++i) {
    int x = i % side, y = (i / side) % side, z = i / (side * side);
    pos[i] = make_float4(wrap_position((x + 0.5f) * spacing + jitter(rng), L),
                         wrap_position((y + 0.5f) * spacing + jitter(rng), L),
                         wrap_position((z + 0.5f) * spacing + jitter(rng), L), (float)(i % 2));
  }

  float4 *d_pos, *d_sorted, *d_force;
  unsigned *d_cell, *d_index, *d_count, *d_start, *d_end;
  int *d_nbr, *d_nn, *d_overflow;
  int ncells = grid.count();
  CUDA_CHECK(cudaMalloc(&d_pos, n * sizeof(float4)));
  CUDA_CHECK(cudaMalloc(&d_sorted, n * sizeof(float4)));
  CUDA_CHECK(cudaMalloc(&d_force, n * sizeof(float4)));
  CUDA_CHECK(cudaMalloc(&d_cell, n * sizeof(unsigned)));
  CUDA_CHECK(cudaMalloc(&d_index, n * sizeof(unsigned)));
  CUDA_CHECK(cudaMalloc(&d_count, ncells * sizeof(unsigned)));
  CUDA_CHECK(cudaMalloc(&d_start, ncells * sizeof(unsigned)));
  CUDA_CHECK(cudaMalloc(&d_end, ncells * sizeof(unsigned)));
  CUDA_CHECK(cudaMalloc(&d_nbr, (size_t)kMaxNeighbors * n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_nn, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_overflow, sizeof(int)));
  CUDA_CHECK(cudaMemcpy(d_pos, pos.data(), n * sizeof(float4), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset(d_count, 0, ncells * sizeof(unsigned)));
  CUDA_CHECK(cudaMemset(d_start, 0xff, ncells * sizeof(unsigned)));
  CUDA_CHECK(cudaMemset(d_end, 0, ncells * sizeof(unsigned)));
  CUDA_CHECK(cudaMemset(d_overflow, 0, sizeof(int)));

  int blocks = (n + kBlockSize - 1) / kBlockSize;
  bin_particles<<<blocks, kBlockSize>>>(d_pos, n, grid, d_cell, d_index, d_count);
  CUDA_CHECK_LAST();
  thrust::device_ptr<unsigned> keys(d_cell), vals(d_index);
  thrust::sort_by_key(thrust::device, keys, keys + n, vals);
  find_cell_ranges<<<blocks, kBlockSize, (kBlockSize + 1) * sizeof(unsigned)>>>(d_cell, d_index, d_pos, n,
                                                                                d_start, d_end, d_sorted);
  CUDA_CHECK_LAST();
  float rlist = rc + skin;
  build_neighbor_list<<<blocks, kBlockSize>>>(d_sorted, n, grid, d_start, d_end, rlist * rlist, d_nbr, d_nn,
                                              d_overflow);
  CUDA_CHECK_LAST();
  CUDA_CHECK(cudaDeviceSynchronize());

  bool ok = true;
  // The cell counts, the sorted order and the cell ranges against the host.
  std::vector<unsigned> count(ncells), start(ncells), end(ncells), cell(n), index(n);
  CUDA_CHECK(cudaMemcpy(count.data(), d_count, ncells * sizeof(unsigned), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(start.data(), d_start, ncells * sizeof(unsigned), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(end.data(), d_end, ncells * sizeof(unsigned), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(cell.data(), d_cell, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(index.data(), d_index, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
  std::vector<unsigned> hcount(ncells, 0);
  for (int i = 0; i < n; ++i)
    hcount[grid.index(grid.cell_of(make_float3(pos[i].x, pos[i].y, pos[i].z)))]++;
  std::vector<char> seen(n, 0);
  for (int i = 0; i < n; ++i) {
    if (i > 0 && cell[i] < cell[i - 1]) ok = false;
    if (index[i] >= (unsigned)n || seen[index[i]]) ok = false;
    else seen[index[i]] = 1;
  }
  for (int c = 0; c < ncells; ++c) {
    unsigned len = count[c] ? end[c] - start[c] : 0;
    if (count[c] != hcount[c] || len != hcount[c]) ok = false;
  }
  printf("cells: %d of %d particles binned into %d cells: %s\n", n, n, ncells, ok ? "ok" : "wrong");

  std::vector<float4> sorted(n);
  for (int i = 0; i < n; ++i) sorted[i] = pos[index[i]];
  std::vector<int> nn(n);
  int overflow = 0;
  CUDA_CHECK(cudaMemcpy(nn.data(), d_nn, n * sizeof(int), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(&overflow, d_overflow, sizeof(int), cudaMemcpyDeviceToHost));
  long pairs = 0, hpairs = 0;
  for (int i = 0; i < n; ++i) pairs += nn[i];
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      if (i != j && min_image(vec3(sorted[i]) - vec3(sorted[j]), L).norm2() < rlist * rlist) ++hpairs;
  printf("neighbours: %ld (host %ld), overflow %d\n", pairs, hpairs, overflow);
  ok = ok && pairs == hpairs && overflow == 0;

  ok = check_forces("lj", d_sorted, sorted, n, L, d_nbr, d_nn, d_force, LJForce(1.f, 1.f, rc)) && ok;
  ok = check_forces("soft", d_sorted, sorted, n, L, d_nbr, d_nn, d_force, SoftSphereForce(10.f, 1.3f)) && ok;

  cudaFree(d_pos); cudaFree(d_sorted); cudaFree(d_force); cudaFree(d_cell); cudaFree(d_index);
  cudaFree(d_count); cudaFree(d_start); cudaFree(d_end); cudaFree(d_nbr); cudaFree(d_nn); cudaFree(d_overflow);
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
