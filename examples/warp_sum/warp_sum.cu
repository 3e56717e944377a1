/*
 * warp_sum.cu: per-warp sums with shuffles. Each warp of 32 lanes adds its
 * lanes' elements with a butterfly of __shfl_xor_sync (offsets 16, 8, 4, 2,
 * 1), after which every lane holds the same sum, and counts its positive
 * elements with __ballot_sync and __popc. Lane 0 writes both. Lanes past the
 * end of x take part with 0. Blocks must be whole warps.
 */
extern "C" __global__ void warp_sum(int n, const float *x, float *sums,
                                    int *positives) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int warp = i / 32;
  unsigned lane = threadIdx.x % 32;
  float v = i < n ? x[i] : 0.0f;
  unsigned positive = __ballot_sync(0xffffffffu, v > 0.0f);
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_xor_sync(0xffffffffu, v, offset);
  if (lane == 0 && warp * 32 < n) {
    sums[warp] = v;
    positives[warp] = __popc(positive);
  }
}
