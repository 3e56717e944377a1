// kmer_count.cu: counts canonical 15-mers of a genome-like sequence twice,
// with a hash table (atomicCAS on 64-bit keys) and with Thrust's sort and
// reduce_by_key, plus CUB's run-length encoding; all must agree with a host
// std::map.
#include <map>
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/sort.h>
#include <thrust/reduce.h>
#include <thrust/remove.h>
#include <thrust/iterator/constant_iterator.h>
#include <cub/cub.cuh>
#include "bio/kmer_kernels.cuh"

constexpr int K = 15;
constexpr int BINS = 32;

struct is_empty_key {
  __host__ __device__ bool operator()(unsigned long long k) const { return k == kmer::kEmpty; }
};

int main() {
  std::mt19937 rng(99u);
  // A small repeat-rich genome: copies of a few motifs with mutations and Ns.
  std::string motif[4];
  for (auto& mo : motif) mo = bio::random_dna(rng, 60);
  std::string genome;
  while (genome.size() < 20000) {
    std::string piece = (rng() % 3) ? motif[rng() % 4] : bio::random_dna(rng, 40);
    if (rng() % 2) piece[rng() % piece.size()] = "ACGTN"[rng() % 5];
    if (rng() % 2) {  // reverse complement copies, to exercise canonical k-mers
      std::string rc(piece.rbegin(), piece.rend());
      for (auto& c : rc) c = c == 'A' ? 'T' : c == 'C' ? 'G' : c == 'G' ? 'C' : c == 'T' ? 'A' : c;
      piece = rc;
    }
    genome += piece;
  }
  const int n = (int)genome.size();
  std::map<uint64_t, unsigned> ref;
  for (int p = 0; p + K <= n; ++p) {
    const uint64_t key = kmer::canonical_at<K>(genome.data(), p);
    if (key != kmer::kEmpty) ++ref[key];
  }
  const unsigned int capacity = 1u << 15;
  char* d_seq;
  unsigned long long* d_keys;
  unsigned int *d_counts, *d_hist, *d_overflow;
  CUDA_CHECK(cudaMalloc(&d_seq, n));
  CUDA_CHECK(cudaMalloc(&d_keys, capacity * sizeof(unsigned long long)));
  CUDA_CHECK(cudaMalloc(&d_counts, capacity * sizeof(unsigned int)));
  CUDA_CHECK(cudaMalloc(&d_hist, BINS * sizeof(unsigned int)));
  CUDA_CHECK(cudaMalloc(&d_overflow, sizeof(unsigned int)));
  CUDA_CHECK(cudaMemcpy(d_seq, genome.data(), n, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset(d_keys, 0xff, capacity * sizeof(unsigned long long)));
  CUDA_CHECK(cudaMemset(d_counts, 0, capacity * sizeof(unsigned int)));
  CUDA_CHECK(cudaMemset(d_hist, 0, BINS * sizeof(unsigned int)));
  CUDA_CHECK(cudaMemset(d_overflow, 0, sizeof(unsigned int)));
  bio::GpuTimer timer;
  timer.start();
  kmer::count_kernel<K><<<64, 128>>>(d_seq, n, d_keys, d_counts, capacity, d_overflow);
  CUDA_CHECK_LAST();
  kmer::histogram_kernel<BINS><<<32, 128>>>(d_counts, capacity, d_hist);
  CUDA_CHECK_LAST();
  const float ms_hash = timer.stop();

  std::vector<unsigned long long> keys(capacity);
  std::vector<unsigned int> counts(capacity), hist(BINS);
  unsigned int overflow = 0;
  CUDA_CHECK(cudaMemcpy(keys.data(), d_keys, capacity * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(counts.data(), d_counts, capacity * sizeof(unsigned int), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(hist.data(), d_hist, BINS * sizeof(unsigned int), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(&overflow, d_overflow, sizeof(unsigned int), cudaMemcpyDeviceToHost));
  int bad = overflow ? 1 : 0;
  std::map<uint64_t, unsigned> hashed;
  for (unsigned i = 0; i < capacity; ++i)
    if (keys[i] != kmer::kEmpty) {
      if (hashed.count(keys[i]) && bad++ < 5) printf("key %llx twice in the table\n", keys[i]);
      hashed[keys[i]] = counts[i];
    }
  if (hashed != ref && bad++ < 5) printf("hash table: %zu distinct, expected %zu\n", hashed.size(), ref.size());
  std::vector<unsigned> ref_hist(BINS, 0);
  for (auto& kv : ref) ++ref_hist[kv.second < BINS ? kv.second : BINS - 1];
  for (int b = 0; b < BINS; ++b)
    if (hist[b] != ref_hist[b] && bad++ < 5) printf("histogram bin %d: %u expected %u\n", b, hist[b], ref_hist[b]);

  // The sort-based count with Thrust.
  timer.start();
  thrust::device_vector<unsigned long long> all(n - K + 1);
  kmer::extract_kernel<K><<<64, 128>>>(d_seq, n, thrust::raw_pointer_cast(all.data()));
  CUDA_CHECK_LAST();
  all.erase(thrust::remove_if(all.begin(), all.end(), is_empty_key()), all.end());
  thrust::sort(all.begin(), all.end());
  thrust::device_vector<unsigned long long> uniq(all.size());
  thrust::device_vector<unsigned int> ucount(all.size());
  auto ends = thrust::reduce_by_key(all.begin(), all.end(), thrust::constant_iterator<unsigned int>(1),
                                    uniq.begin(), ucount.begin());
  const size_t distinct = ends.first - uniq.begin();
  const float ms_sort = timer.stop();
  thrust::host_vector<unsigned long long> h_uniq(uniq.begin(), uniq.begin() + distinct);
  thrust::host_vector<unsigned int> h_ucount(ucount.begin(), ucount.begin() + distinct);
  std::map<uint64_t, unsigned> sorted;
  for (size_t i = 0; i < distinct; ++i) sorted[h_uniq[i]] = h_ucount[i];
  if (sorted != hashed && bad++ < 5) printf("thrust: %zu distinct, hash table %zu\n", distinct, hashed.size());

  // The same runs with CUB's run-length encoding of the sorted keys.
  unsigned long long* d_unique;
  unsigned int *d_runs, *d_num;
  CUDA_CHECK(cudaMalloc(&d_unique, all.size() * sizeof(unsigned long long)));
  CUDA_CHECK(cudaMalloc(&d_runs, all.size() * sizeof(unsigned int)));
  CUDA_CHECK(cudaMalloc(&d_num, sizeof(unsigned int)));
  size_t temp_bytes = 0;
  CUDA_CHECK(cub::DeviceRunLengthEncode::Encode(nullptr, temp_bytes, thrust::raw_pointer_cast(all.data()),
                                                d_unique, d_runs, d_num, (int)all.size()));
  void* d_temp;
  CUDA_CHECK(cudaMalloc(&d_temp, temp_bytes));
  CUDA_CHECK(cub::DeviceRunLengthEncode::Encode(d_temp, temp_bytes, thrust::raw_pointer_cast(all.data()),
                                                d_unique, d_runs, d_num, (int)all.size()));
  unsigned int runs = 0;
  CUDA_CHECK(cudaMemcpy(&runs, d_num, sizeof(unsigned int), cudaMemcpyDeviceToHost));
  std::vector<unsigned int> h_runs(runs);
  CUDA_CHECK(cudaMemcpy(h_runs.data(), d_runs, runs * sizeof(unsigned int), cudaMemcpyDeviceToHost));
  if (runs != distinct && bad++ < 5) printf("cub: %u runs, thrust %zu\n", runs, distinct);
  for (unsigned i = 0; i < runs && i < distinct; ++i)
    if (h_runs[i] != h_ucount[i] && bad++ < 5) printf("cub run %u: %u expected %u\n", i, h_runs[i], h_ucount[i]);

  printf("%d bases, %zu distinct canonical %d-mers, hash %.3f ms, sort %.3f ms\n", n, ref.size(), K, ms_hash, ms_sort);
  for (int b = 1; b < 8; ++b) printf("  count %d: %u k-mers\n", b, hist[b]);
  CUDA_CHECK(cudaFree(d_seq));
  CUDA_CHECK(cudaFree(d_keys));
  CUDA_CHECK(cudaFree(d_counts));
  CUDA_CHECK(cudaFree(d_hist));
  CUDA_CHECK(cudaFree(d_overflow));
  CUDA_CHECK(cudaFree(d_unique));
  CUDA_CHECK(cudaFree(d_runs));
  CUDA_CHECK(cudaFree(d_num));
  CUDA_CHECK(cudaFree(d_temp));
  return bio::report("kmer_count", bad == 0);
}
