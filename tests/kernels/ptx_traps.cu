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

/* A tensor copy given something that is not a tensor map (zeros, 64-byte
 * aligned): on a GPU an illegal instruction, here the end of the launch
 * naming cp.async.bulk.tensor and the line. */
extern "C" __global__ void ptx_tensor_not_a_map(const unsigned long long *map, int *out) {
  __shared__ alignas(128) int tile[64];
  __shared__ alignas(8) unsigned long long bar;
  const unsigned t = static_cast<unsigned>(__cvta_generic_to_shared(tile));
  const unsigned b = static_cast<unsigned>(__cvta_generic_to_shared(&bar));
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(b) : "memory");
    /* The report names the instruction's line, the statement's second. */
    asm volatile(
        "cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes" /* PTX_NOT_A_MAP */
                 " [%0], [%1, {%2}], [%3];"
                 ::"r"(t), "l"(map), "r"(0), "r"(b) : "memory");
  }
  out[threadIdx.x] = tile[threadIdx.x];
}
