// nw_kernels.cuh: Needleman-Wunsch global alignment (linear gaps) by 16x16
// tiles; one launch per anti-diagonal of tiles, each block one tile, the
// cells of a tile filled by its own anti-diagonals between __syncthreads().
#ifndef TRIALBIO_NW_KERNELS_CUH
#define TRIALBIO_NW_KERNELS_CUH
#include "bio_common.cuh"

namespace nw {

constexpr int kTile = 16;

struct NwParams {
  int match, mismatch, gap;
};

// score is (n+1) x (m+1) ints at a pitch in bytes; row 0 and column 0 are
// filled before the first launch.
template <int TILE>
__global__ void nw_tile_kernel(int* score, size_t pitch, const uint8_t* __restrict__ a,
                               const uint8_t* __restrict__ b, int n, int m, int tile_diag,
                               NwParams p) {
  __shared__ int s[TILE + 1][TILE + 1];
  __shared__ uint8_t sa[TILE], sb[TILE];
  const int tiles_y = (n + TILE - 1) / TILE;
  // Block x of this launch is the tile on the diagonal whose row is the
  // largest that still exists, counting down.
  const int first_row = max(0, tile_diag - ((m + TILE - 1) / TILE - 1));
  const int ty = first_row + blockIdx.x;
  const int tx = tile_diag - ty;
  if (ty >= tiles_y || tx < 0) return;
  const int row0 = ty * TILE, col0 = tx * TILE;
  const int t = threadIdx.x;
  auto at = [&](int r, int c) -> int& {
    return *reinterpret_cast<int*>(reinterpret_cast<char*>(score) + (size_t)r * pitch + c * sizeof(int));
  };
  // Load the tile's top row and left column from the matrix.
  if (t == 0) s[0][0] = at(row0, col0);
  if (col0 + t + 1 <= m) s[0][t + 1] = at(row0, col0 + t + 1);
  if (row0 + t + 1 <= n) s[t + 1][0] = at(row0 + t + 1, col0);
  if (row0 + t < n) sa[t] = a[row0 + t];
  if (col0 + t < m) sb[t] = b[col0 + t];
  __syncthreads();
  for (int d = 0; d < 2 * TILE - 1; ++d) {
    const int i = t;          // row within the tile
    const int j = d - t;      // column within the tile
    if (j >= 0 && j < TILE && row0 + i < n && col0 + j < m) {
      const int sub = sa[i] == sb[j] ? p.match : p.mismatch;
      int v = s[i][j] + sub;
      v = max(v, s[i][j + 1] + p.gap);
      v = max(v, s[i + 1][j] + p.gap);
      s[i + 1][j + 1] = v;
    }
    __syncthreads();
  }
  for (int j = 0; j < TILE; ++j)
    if (row0 + t < n && col0 + j < m) at(row0 + t + 1, col0 + j + 1) = s[t + 1][j + 1];
}

}  // namespace nw

float nw_align(const uint8_t* d_a, const uint8_t* d_b, int n, int m, nw::NwParams p, int* d_score,
               size_t pitch);

#endif  // TRIALBIO_NW_KERNELS_CUH
