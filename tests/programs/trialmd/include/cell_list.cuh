// cell_list.cuh: binning, cell ranges, neighbour lists and the force kernel.
#pragma once
#include "md_common.cuh"

namespace md {

struct CellGrid {
  int3 dim;      // cells per side
  float3 size;   // cell edge
  float L;       // cubic box
  __host__ __device__ int3 cell_of(float3 p) const {
    int3 c;
    c.x = min(max(int(p.x / size.x), 0), dim.x - 1);
    c.y = min(max(int(p.y / size.y), 0), dim.y - 1);
    c.z = min(max(int(p.z / size.z), 0), dim.z - 1);
    return c;
  }
  __host__ __device__ int index(int3 c) const {
    c.x = (c.x + dim.x) % dim.x;
    c.y = (c.y + dim.y) % dim.y;
    c.z = (c.z + dim.z) % dim.z;
    return (c.z * dim.y + c.y) * dim.x + c.x;
  }
  __host__ __device__ int count() const { return dim.x * dim.y * dim.z; }
};

__global__ void bin_particles(const float4 *__restrict__ pos, int n, CellGrid grid,
                              unsigned *cell_of_particle, unsigned *particle_index,
                              unsigned *cell_count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float4 p = __ldg(&pos[i]);
  int3 c = grid.cell_of(make_float3(p.x, p.y, p.z));
  unsigned h = grid.index(c);
  cell_of_particle[i] = h;
  particle_index[i] = i;
  atomicAdd(&cell_count[h], 1u);
}

// The classic cell range kernel: each thread compares its cell with the one
// before it, the previous cell of the block's first thread loaded by an extra
// thread into shared memory.
__global__ void find_cell_ranges(const unsigned *__restrict__ sorted_cell, const unsigned *__restrict__ sorted_index,
                                 const float4 *__restrict__ pos, int n, unsigned *cell_start,
                                 unsigned *cell_end, float4 *sorted_pos) {
  extern __shared__ unsigned shared_cell[]; // blockDim.x + 1
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned cell = 0;
  if (i < n) {
    cell = sorted_cell[i];
    shared_cell[threadIdx.x + 1] = cell;
    if (i > 0 && threadIdx.x == 0) shared_cell[0] = sorted_cell[i - 1];
  }
  __syncthreads();
  if (i < n) {
    if (i == 0 || cell != shared_cell[threadIdx.x]) {
      cell_start[cell] = i;
      if (i > 0) cell_end[shared_cell[threadIdx.x]] = i;
    }
    if (i == n - 1) cell_end[cell] = i + 1;
    sorted_pos[i] = __ldg(&pos[sorted_index[i]]);
  }
}

__global__ void build_neighbor_list(const float4 *__restrict__ sorted_pos, int n, CellGrid grid,
                                    const unsigned *__restrict__ cell_start,
                                    const unsigned *__restrict__ cell_end, float rlist2,
                                    int *neighbors, int *num_neighbors, int *overflow) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float4 pi = __ldg(&sorted_pos[i]);
  int3 c = grid.cell_of(make_float3(pi.x, pi.y, pi.z));
  int count = 0;
  for (int dz = -1; dz <= 1; ++dz)
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        int h = grid.index(make_int3(c.x + dx, c.y + dy, c.z + dz));
        unsigned start = cell_start[h];
        if (start == 0xffffffffu) continue;
        unsigned end = cell_end[h];
        for (unsigned j = start; j < end; ++j) {
          if (j == (unsigned)i) continue;
          float4 pj = __ldg(&sorted_pos[j]);
          vec3 d = min_image(vec3(pi) - vec3(pj), grid.L);
          if (d.norm2() < rlist2) {
            if (count < kMaxNeighbors) neighbors[count * n + i] = j; // column-major, coalesced
            ++count;
          }
        }
      }
  num_neighbors[i] = count;
  if (count > kMaxNeighbors) atomicMax(overflow, count);
}

// One thread per particle; positions read through the read-only cache.
template <typename Force>
__global__ void compute_forces(const float4 *__restrict__ pos, int n, float L,
                               const int *__restrict__ neighbors, const int *__restrict__ num_neighbors,
                               Force force, float4 *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float4 pi = __ldg(&pos[i]);
  vec3 f;
  float e = 0.f;
  int nn = num_neighbors[i];
  for (int k = 0; k < nn; ++k) {
    int j = __ldg(&neighbors[k * n + i]);
    float4 pj = __ldg(&pos[j]);
    vec3 d = min_image(vec3(pi) - vec3(pj), L);
    float r2 = d.norm2();
    float fr = force(r2, e);
    f += d * fr;
  }
  out[i] = make_float4(f.x, f.y, f.z, 0.5f * e);
}

} // namespace md
