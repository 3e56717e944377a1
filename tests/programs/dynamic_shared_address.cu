/*
 * dynamic_shared_address.cu: an `extern __shared__` unsized array is an
 * array, as on a GPU, at namespace scope and in a function body: `&name`
 * and `reinterpret_cast<U &>(name)` (CUB's way to lay temporary storage
 * over the dynamic buffer) are the buffer's address and contents, not those
 * of a pointer to it; the array decays to a pointer for a template's `T *`;
 * and a lambda that copies by default reads it where it is, in a body where
 * `&name` is the buffer's address too.
 */
#include "check.cuh"

extern __shared__ unsigned char raw[];

struct Pair {
  float lo, hi;
};

/* Storage laid over the dynamic buffer as CUB's TempStorage is. */
struct Totals {
  int sum[4];
  int count;
};

template <class T> __device__ void put(T *where, int i, T v) { where[i] = v; }

/* Namespace scope: `&raw` is the buffer, seen through another type. */
__global__ void pairs_through_address(float *out) {
  Pair *p = reinterpret_cast<Pair *>(&raw);
  p[threadIdx.x].lo = threadIdx.x;
  p[threadIdx.x].hi = -1.0f * threadIdx.x;
  __syncthreads();
  const float *f = reinterpret_cast<const float *>(raw);
  unsigned other = blockDim.x - 1 - threadIdx.x;
  out[threadIdx.x] = f[2 * other] + 10.0f * f[2 * other + 1] +
                     (static_cast<void *>(&raw) == static_cast<void *>(raw));
}

/* In a function template's body: a reference to the buffer's storage. */
template <class T> __global__ void totals_by_reference(int *out) {
  extern __shared__ T smem[];
  Totals &t = reinterpret_cast<Totals &>(smem);
  if (threadIdx.x == 0) {
    for (int i = 0; i < 4; i++) t.sum[i] = 0;
    t.count = 0;
  }
  __syncthreads();
  atomicAdd(&t.sum[threadIdx.x % 4], (int)threadIdx.x);
  atomicAdd(&t.count, 1);
  __syncthreads();
  put(smem, 0, smem[0]); /* T * deduced from the array */
  if (threadIdx.x == 0) {
    const int *words = reinterpret_cast<const int *>(&smem[0]);
    for (int i = 0; i < 5; i++) out[i] = words[i];
    out[5] = (void *)&smem == (void *)smem;
  }
}

/* A two-dimensional one, and a lambda that copies by default. */
__global__ void tile_rows(float *out) {
  extern __shared__ float tile[][33];
  float(*rows)[33] = tile;
  rows[threadIdx.y][threadIdx.x] = threadIdx.y * 100 + threadIdx.x;
  __syncthreads();
  auto read = [=](int r, int c) { return tile[r][c]; };
  int i = threadIdx.y * blockDim.x + threadIdx.x;
  out[i] = read(threadIdx.x % blockDim.y, threadIdx.y) +
           1000.0f * ((char *)&tile[1][0] - (char *)&tile[0][0] == 33 * sizeof(float) &&
                      (void *)&tile == (void *)tile);
}

int main() {
  const int n = 32;
  float *pairs = nullptr, *tiles = nullptr;
  int *totals = nullptr;
  CHECK(cudaMallocManaged(&pairs, n * sizeof(float)) == cudaSuccess);
  CHECK(cudaMallocManaged(&totals, 6 * sizeof(int)) == cudaSuccess);
  CHECK(cudaMallocManaged(&tiles, 8 * 4 * sizeof(float)) == cudaSuccess);
  pairs_through_address<<<1, n, n * sizeof(Pair)>>>(pairs);
  totals_by_reference<unsigned char><<<1, 64, sizeof(Totals)>>>(totals);
  tile_rows<<<1, dim3(8, 4), 4 * 33 * sizeof(float)>>>(tiles);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  for (int i = 0; i < n; i++) {
    int other = n - 1 - i;
    CHECK(pairs[i] == other - 10.0f * other + 1.0f);
  }
  for (int r = 0; r < 4; r++) {
    int want = 0;
    for (int t = r; t < 64; t += 4) want += t;
    CHECK(totals[r] == want);
  }
  CHECK(totals[4] == 64 && totals[5] == 1);
  for (int y = 0; y < 4; y++)
    for (int x = 0; x < 8; x++)
      CHECK(tiles[y * 8 + x] == (x % 4) * 100 + y + 1000.0f);
  return finish();
}
