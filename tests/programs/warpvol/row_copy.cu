// row_copy.cu: the lanes of a warp store the entries of a plain __shared__
// row and lane 0 copies the row out with memcpy, with no __syncwarp()
// between, once per step of a loop: the table of the last position of each
// letter in every prefix of a text, as an edit-distance program builds it
// before its wavefront. The converged warp makes all its stores before lane
// 0's copy, so a GPU gives the table; run one lane after another, lane 0
// copied rows that the other lanes had not written yet (every letter but A
// stayed 0) and the edit distances that followed came out wrong, with no
// diagnostic: the steps took memcpy for a call that may synchronise.
// Checked: the whole table against the host's, and the same table with
// the row reached through a pointer and cleared by lane 0 with memset. A
// checked build (--check=race, whose copies stay calls of the C library's
// memcpy and memset) gives the same table, with racecheck's reports.
#include <cstdio>
#include <cstring>

#include <cuda_runtime.h>

#include "../check.cuh"

constexpr int kLetters = 26;

__global__ void last_positions(unsigned short *table, const char *text, int n) {
  __shared__ unsigned short row[kLetters];
  if (threadIdx.x < kLetters) {
    unsigned short last = 0;
    for (int i = 0; i <= n; i++) {
      if (i > 0 && text[i - 1] == 'A' + threadIdx.x)
        last = i;
      row[threadIdx.x] = last;
      if (threadIdx.x == 0)
        memcpy(table + kLetters * i, row, sizeof row);
    }
  }
}

/* The same table through a pointer to the row, each row first cleared by
 * lane 0 with memset (the lanes then store over it). */
__global__ void last_positions_moved(unsigned short *table, const char *text,
                                     int n) {
  __shared__ unsigned short row[kLetters];
  unsigned short *r = row;
  if (threadIdx.x < kLetters) {
    unsigned short last = 0;
    for (int i = 0; i <= n; i++) {
      if (threadIdx.x == 0)
        memset(r, 0xff, kLetters * sizeof *r);
      if (i > 0 && text[i - 1] == 'A' + threadIdx.x)
        last = i;
      r[threadIdx.x] = last;
      if (threadIdx.x == 0)
        memcpy(table + kLetters * i, r, kLetters * sizeof *r);
    }
  }
}

int main() {
  const char text[] = "GATTACAGATTACAXYZZYQUICKBROWNFOX";
  const int n = sizeof text - 1;
  const int entries = (n + 1) * kLetters;
  char *d_text;
  unsigned short *d_table;
  unsigned short table[entries], moved[entries];
  cudaMalloc(&d_text, n);
  cudaMalloc(&d_table, sizeof table);
  cudaMemcpy(d_text, text, n, cudaMemcpyHostToDevice);
  last_positions<<<1, 32>>>(d_table, d_text, n);
  cudaMemcpy(table, d_table, sizeof table, cudaMemcpyDeviceToHost);
  last_positions_moved<<<1, 32>>>(d_table, d_text, n);
  cudaMemcpy(moved, d_table, sizeof moved, cudaMemcpyDeviceToHost);
  CHECK(cudaGetLastError() == cudaSuccess);

  int wrong = 0, wrong_moved = 0;
  for (int i = 0; i <= n; i++)
    for (int c = 0; c < kLetters; c++) {
      int want = 0;
      for (int j = 1; j <= i; j++)
        if (text[j - 1] == 'A' + c)
          want = j;
      wrong += table[kLetters * i + c] != want;
      wrong_moved += moved[kLetters * i + c] != want;
    }
  std::printf("last G %d, last X %d; %d and %d entries wrong\n",
              table[kLetters * n + ('G' - 'A')], table[kLetters * n + ('X' - 'A')],
              wrong, wrong_moved);
  CHECK(table[kLetters * n + ('G' - 'A')] == 8);
  CHECK(wrong == 0);
  CHECK(wrong_moved == 0);
  cudaFree(d_text);
  cudaFree(d_table);
  return finish();
}
