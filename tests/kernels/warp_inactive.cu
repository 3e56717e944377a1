// warp_inactive.cu: a shuffle whose source lanes are outside its mask. CUDA
// leaves the values unspecified; cuemu gives each lane its own value and,
// with checkers on (CUEMU_CHECK), warns.

extern "C" __global__ void shfl_outside_mask(int *out) {
  unsigned lane = threadIdx.x % 32;
  if (lane % 2 == 0)
    out[threadIdx.x] = __shfl_sync(0x55555555u, (int)threadIdx.x, lane + 1);
}
