/*
 * gdb_shuffle.cu: the program that tests/gdb/gdb_warp_switch.sh debugs.
 * One warp sums its lanes' values with two rounds of __shfl_down_sync and
 * __shfl_xor_sync; lanes that wait at a shuffle are suspended in a light
 * frame on x86-64 (emulator/core/cuemu_warp_sync_x86_64.S). The test finds
 * its lines through the "LINE:name" markers.
 */
#include <cstdio>

__global__ void warp_sum(const int *in, int *out) {
  unsigned lane = threadIdx.x;
  int mine = in[lane];
  int down = __shfl_down_sync(0xffffffffu, mine, 1); /* LINE:first_shuffle */
  int both = mine + down; /* LINE:after_shuffle */
  int flip = __shfl_xor_sync(0xffffffffu, both, 16); /* LINE:second_shuffle */
  out[lane] = both + flip;
}

int main() {
  int h_in[32], h_out[32], *d_in, *d_out, bad = 0;
  for (int i = 0; i < 32; ++i)
    h_in[i] = 10 * i + 7;
  cudaMalloc(&d_in, sizeof h_in);
  cudaMalloc(&d_out, sizeof h_out);
  cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);
  warp_sum<<<1, 32>>>(d_in, d_out);
  cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 32; ++i) {
    int both = h_in[i] + h_in[i + 1 < 32 ? i + 1 : i];
    int j = i ^ 16;
    int other = h_in[j] + h_in[j + 1 < 32 ? j + 1 : j];
    bad += h_out[i] != both + other;
  }
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
