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
