/*
 * deposit.cu: particles deposit their weight (a charge) and a count into
 * the cells of a grid. Each block accumulates its particles in a copy of the
 * grid in dynamic shared memory (extern __shared__: n_cells floats, then
 * n_cells ints), with shared-memory atomics, and then adds each non-empty
 * cell to the global grid with one global atomicAdd per cell and block.
 * charge and counts are added to, not overwritten. Particles with a cell
 * outside [0, n_cells) are dropped.
 */
extern "C" __global__ void deposit(int n, const int *cell,
                                   const float *weight, int n_cells,
                                   float *charge, int *counts) {
  extern __shared__ float deposit_shared[];
  float *local_charge = deposit_shared;
  int *local_counts = (int *)(deposit_shared + n_cells);
  for (int c = threadIdx.x; c < n_cells; c += blockDim.x) {
    local_charge[c] = 0.0f;
    local_counts[c] = 0;
  }
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && cell[i] >= 0 && cell[i] < n_cells) {
    atomicAdd(&local_charge[cell[i]], weight[i]);
    atomicAdd(&local_counts[cell[i]], 1);
  }
  __syncthreads();
  for (int c = threadIdx.x; c < n_cells; c += blockDim.x)
    if (local_counts[c] != 0) {
      atomicAdd(&charge[c], local_charge[c]);
      atomicAdd(&counts[c], local_counts[c]);
    }
}
