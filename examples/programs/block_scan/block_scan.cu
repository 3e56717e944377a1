/*
 * block_scan: an inclusive prefix sum of 250,000 integers built from a
 * block-wide scan.
 *
 * Each block scans its BLOCK_SIZE elements with the Hillis-Steele algorithm:
 * at step d every thread adds the element 2^d places to its left. Reading
 * and writing one array in the same step would race, so the block keeps two
 * buffers in shared memory and swaps their roles after each step, with a
 * __syncthreads() between steps. Threads past the end of the input scan a
 * zero, so the last, partial block needs no special case.
 *
 * Three launches make the whole scan: scan every block (keeping each
 * block's total), scan the block totals with one block, then add to each
 * block the total of all the blocks before it.
 */
#include <vector>

#define EXAMPLE_NAME "block_scan"
#include "../common/example.cuh"

#define BLOCK_SIZE 512

/* Scans each block's part of in[0..n) into out; block b's total goes to
 * block_sums[b] unless block_sums is null. */
__global__ void block_scan(const int *__restrict__ in, int *__restrict__ out,
                           int *__restrict__ block_sums, int n) {
  __shared__ int buf[2][BLOCK_SIZE];
  const int tid = threadIdx.x;
  const int i = blockIdx.x * BLOCK_SIZE + tid;
  int src = 0;
  buf[src][tid] = i < n ? in[i] : 0;
  __syncthreads();
  for (int offset = 1; offset < BLOCK_SIZE; offset *= 2) {
    const int dst = 1 - src;
    if (tid >= offset)
      buf[dst][tid] = buf[src][tid] + buf[src][tid - offset];
    else
      buf[dst][tid] = buf[src][tid];
    __syncthreads();
    src = dst;
  }
  if (i < n)
    out[i] = buf[src][tid];
  if (block_sums && tid == BLOCK_SIZE - 1)
    block_sums[blockIdx.x] = buf[src][tid];
}

/* Adds the inclusive scan of the blocks before block b to its elements. */
__global__ void add_block_offsets(int *data, const int *scanned_sums, int n) {
  const int i = blockIdx.x * BLOCK_SIZE + threadIdx.x;
  if (blockIdx.x > 0 && i < n)
    data[i] += scanned_sums[blockIdx.x - 1];
}

static void inclusive_scan_host(const std::vector<int> &in,
                                std::vector<int> &out) {
  int sum = 0;
  for (size_t i = 0; i < in.size(); ++i) {
    sum += in[i];
    out[i] = sum;
  }
}

int main(void) {
  example_seed(77u);
  constexpr int n = 250000;
  constexpr int blocks = (n + BLOCK_SIZE - 1) / BLOCK_SIZE;
  /* One block scans the block totals. */
  static_assert(blocks <= BLOCK_SIZE, "too many blocks for a two-level scan");
  std::vector<int> in(n), expect(n), got(n);
  for (int i = 0; i < n; ++i)
    in[i] = (int)(example_random_u32() >> 24) - 100; /* -100..155 */
  inclusive_scan_host(in, expect);

  int *d_in = nullptr, *d_out = nullptr, *d_sums = nullptr,
      *d_scanned = nullptr;
  CHECK(cudaMalloc(&d_in, n * sizeof(int)));
  CHECK(cudaMalloc(&d_out, n * sizeof(int)));
  CHECK(cudaMalloc(&d_sums, blocks * sizeof(int)));
  CHECK(cudaMalloc(&d_scanned, blocks * sizeof(int)));
  CHECK(cudaMemcpy(d_in, in.data(), n * sizeof(int), cudaMemcpyHostToDevice));

  block_scan<<<blocks, BLOCK_SIZE>>>(d_in, d_out, d_sums, n);
  CHECK(cudaGetLastError());
  block_scan<<<1, BLOCK_SIZE>>>(d_sums, d_scanned, nullptr, blocks);
  CHECK(cudaGetLastError());
  add_block_offsets<<<blocks, BLOCK_SIZE>>>(d_out, d_scanned, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());

  CHECK(cudaMemcpy(got.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_out));
  CHECK(cudaFree(d_sums));
  CHECK(cudaFree(d_scanned));

  const example_mismatches r = example_compare(got.data(), expect.data(), n);
  if (r.bad)
    return example_fail("%zu of %d elements wrong, first at %zu (got %d, "
                        "expected %d)",
                        r.bad, n, r.first_bad, got[r.first_bad],
                        expect[r.first_bad]);
  return example_pass("exact over %d elements, %d blocks of %d", n, blocks,
                      BLOCK_SIZE);
}
