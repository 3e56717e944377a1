/*
 * cub_scan_initcheck.cu: CUB collectives under initcheck. cub::BlockScan
 * over 120 threads (raking over 30 threads, whose shared-memory warp scan
 * has lane 0 read the word before its own for an exclusive value that CUB
 * leaves undefined there and never uses) and cub::BlockHistogram; results
 * against a host reference. tests/checkers_cub.sh builds it with
 * `--check=init` alone, where it must get no report; with the argument
 * `unwritten` the input's second half is never written, and initcheck
 * must report CUB's read of it (global memory) at the line that calls
 * cub::LoadDirectBlocked.
 */
#include <cstring>

#include <cub/block/block_histogram.cuh>
#include <cub/block/block_load.cuh>
#include <cub/block/block_scan.cuh>

#include "cub_test.cuh"

constexpr int THREADS = 120, BINS = 16;

__global__ void scan_and_count(const Triple *in, Triple *out, unsigned char *keys,
                               int *histogram) {
  using Scan = cub::BlockScan<Triple, THREADS, cub::BLOCK_SCAN_RAKING>;
  using Histogram = cub::BlockHistogram<unsigned char, THREADS, 1, BINS>;
  __shared__ typename Scan::TempStorage scan_tmp;
  __shared__ typename Histogram::TempStorage histogram_tmp;
  __shared__ int bins[BINS];
  Triple item[1];
  cub::LoadDirectBlocked(threadIdx.x, in, item);
  Triple inclusive, exclusive;
  Scan(scan_tmp).InclusiveScan(item[0], inclusive, TripleOp());
  __syncthreads();
  Scan(scan_tmp).ExclusiveScan(item[0], exclusive, Triple{}, TripleOp());
  out[2 * threadIdx.x] = inclusive;
  out[2 * threadIdx.x + 1] = exclusive;
  unsigned char key[1] = {keys[threadIdx.x]};
  Histogram(histogram_tmp).Histogram(key, bins);
  __syncthreads();
  if (threadIdx.x < BINS) histogram[threadIdx.x] = bins[threadIdx.x];
}

int main(int argc, char **argv) {
  const bool unwritten = argc > 1 && std::strcmp(argv[1], "unwritten") == 0;
  std::vector<Triple> in = inputs<Triple>(THREADS, 7);
  std::vector<unsigned char> keys(THREADS);
  for (int i = 0; i < THREADS; ++i) keys[(size_t)i] = (unsigned char)(i * 7 % BINS);
  Triple *d_in = nullptr, *d_out = nullptr;
  unsigned char *d_keys = to_device(keys);
  int *d_histogram = nullptr;
  cudaMalloc(&d_in, THREADS * sizeof(Triple));
  cudaMemcpy(d_in, in.data(), (unwritten ? THREADS / 2 : THREADS) * sizeof(Triple),
             cudaMemcpyHostToDevice);
  cudaMalloc(&d_out, 2 * THREADS * sizeof(Triple));
  cudaMalloc(&d_histogram, BINS * sizeof(int));
  scan_and_count<<<1, THREADS>>>(d_in, d_out, d_keys, d_histogram);
  CHECK_LAUNCH();
  const std::vector<Triple> out = to_host(d_out, 2 * THREADS);
  const std::vector<int> histogram = to_host(d_histogram, BINS);
  Triple sum{};
  std::vector<int> want(BINS, 0);
  for (int i = 0; i < THREADS; ++i) {
    CHECK(out[2 * (size_t)i + 1] == sum);
    sum = sum + in[(size_t)i];
    CHECK(out[2 * (size_t)i] == sum);
    ++want[keys[(size_t)i]];
  }
  CHECK(histogram == want);
  return finish();
}
