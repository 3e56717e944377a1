/*
 * thread_layout.cuh: where a thread stands in its block and grid, for test
 * kernels that run in blocks and grids of any shape. Threads and blocks are
 * numbered row-major (x fastest), as CUDA numbers the lanes of a warp.
 */
#ifndef CUEMU_TESTS_THREAD_LAYOUT_CUH
#define CUEMU_TESTS_THREAD_LAYOUT_CUH

/* The calling thread's row-major number in its block. */
__device__ inline unsigned linear_thread() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}

/* The calling thread's block's row-major number in the grid. */
__device__ inline unsigned linear_block() {
  return blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
}

/* The number of threads of a block. */
__device__ inline unsigned block_threads() {
  return blockDim.x * blockDim.y * blockDim.z;
}

/* The lanes that exist in the warp of thread `t` of a block of `n`. */
__device__ inline unsigned present_lanes(unsigned t, unsigned n) {
  unsigned count = n - t / 32 * 32;
  return count >= 32 ? 0xffffffffu : (1u << count) - 1;
}

/* Whether thread `t` of its block is a lane of the mask `m`. */
__device__ inline bool lane_in_mask(unsigned m, unsigned t) {
  return (m >> (t % 32)) & 1u;
}

#endif /* CUEMU_TESTS_THREAD_LAYOUT_CUH */
