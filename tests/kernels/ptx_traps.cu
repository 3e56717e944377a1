/*
 * ptx_traps.cu: inline PTX that ends a launch, for tests/check_ptx.c:
 * `trap;`, and a bar.sync whose thread count is smaller than the block
 * (a barrier of part of a block, which cuemu does not emulate).
 */
extern "C" __global__ void ptx_trap(int *out) {
  if (threadIdx.x == 3)
    asm volatile("trap;"); /* PTX_TRAP */
  out[threadIdx.x] = 1;
}

extern "C" __global__ void ptx_partial_barrier(int *out) {
  asm volatile("bar.sync 1, 32;"); /* PTX_PARTIAL_BAR */
  out[threadIdx.x] = 1;
}

/* A named barrier's thread count must be a multiple of the warp size
 * (48 in a block of 64; ptxas refuses such a constant, so it is a
 * register). */
extern "C" __global__ void ptx_bad_barrier_count(int *out) {
  asm volatile("bar.sync 1, %0;" ::"r"(blockDim.x - 16));
  out[threadIdx.x] = 1;
}
