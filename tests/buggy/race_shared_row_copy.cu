// race_shared_row_copy.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: race
// EXPECT: race shared RAW table_right line 20 line 22
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

/* The lanes of a warp store the entries of a __shared__ row and lane 0
 * copies the row out with memcpy, with no __syncwarp() between (a race
 * since Volta; tests/programs/warpvol/row_copy.cu is the correct-output
 * twin). Racecheck names the store and the copy; the checked build, whose
 * copies stay calls of the C library's memcpy, steps them in lockstep all
 * the same, so the table comes out as a GPU's ("table_right"). */
__global__ void last_positions(unsigned short *table, const char *text, int n) {
  __shared__ unsigned short row[26];
  unsigned short last = 0;
  for (int i = 0; i <= n; i++) {
    if (i > 0 && text[i - 1] == 'A' + threadIdx.x)
      last = i;
    row[threadIdx.x] = last;
    if (threadIdx.x == 0)
      memcpy(table + 26 * i, row, sizeof row);
  }
}

int main() {
  const char text[] = "GATTACA";
  const int n = sizeof text - 1;
  char *d_text;
  unsigned short *d_table, table[(n + 1) * 26];
  cudaMalloc(&d_text, n);
  cudaMalloc(&d_table, sizeof table);
  cudaMemcpy(d_text, text, n, cudaMemcpyHostToDevice);
  last_positions<<<1, 26>>>(d_table, d_text, n);
  cudaMemcpy(table, d_table, sizeof table, cudaMemcpyDeviceToHost);
  // The last A, C, G and T of GATTACA: 7, 6, 1, 4.
  bool right = table[26 * n + 0] == 7 && table[26 * n + 2] == 6 &&
               table[26 * n + 6] == 1 && table[26 * n + 19] == 4;
  printf("%s\n", right ? "table_right" : "table_wrong");
  return 0;
}
