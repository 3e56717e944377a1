// warp_tools.cuh: a header-only library of device code, included as a
// system header (-isystem), as CCCL-style libraries are: its __device__
// functions keep their bodies in cuemu's host pass, which then reads the
// whole shim prelude (cuemu_host_decls.h).
#ifndef WARP_TOOLS_CUH
#define WARP_TOOLS_CUH

namespace warp_tools {

// The lane's index, read from PTX's %laneid.
__device__ inline unsigned lane_id() {
  unsigned r;
  asm("mov.u32 %0, %%laneid;" : "=r"(r));
  return r;
}

// The sum of v over the warp, in every lane (butterfly shuffles).
__device__ inline int warp_sum(int v) {
  for (int m = 16; m > 0; m /= 2)
    v += __shfl_xor_sync(0xffffffffu, v, m);
  return v;
}

// Each warp's sum of in[], added to *total by its lane 0.
template <typename T>
__global__ void sum_into(const T *in, int n, int *total) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int s = warp_sum(i < n ? (int)in[i] : 0);
  if (lane_id() == 0)
    atomicAdd(total, s);
}

} // namespace warp_tools

#endif
