// fm_search.cu: builds the suffix array, BWT and occurrence checkpoints of a
// random genome on the host, searches reads (exact copies, mutated copies,
// random) on the device and checks every hit count and position against a
// naive host search.
#include <algorithm>
#include <numeric>
#include "bio/fm_index.cuh"

constexpr int kReadLen = 24;

int main() {
  std::mt19937 rng(31337u);
  const std::string text = bio::random_dna(rng, 12000) + "ACGTACGTACGTACGTACGTACGTACGT";
  const uint32_t n = (uint32_t)text.size() + 1;  // with the sentinel
  // Suffix array by sorting (the sentinel sorts first).
  std::vector<uint32_t> sa(n);
  std::iota(sa.begin(), sa.end(), 0u);
  std::sort(sa.begin(), sa.end(), [&](uint32_t a, uint32_t b) {
    return text.compare(a, std::string::npos, text, b, std::string::npos) < 0;
  });
  // With the sentinel as the smallest, the empty suffix (n-1) sorts first;
  // std::string::compare already puts a prefix before a longer string.
  std::vector<uint32_t> bwt_words((n + 15) / 16, 0u);
  const int nck = n / fm::kCheckpoint + 1;
  std::vector<uint32_t> occ_host[4];
  for (auto& o : occ_host) o.assign(nck + 1, 0u);
  uint32_t counts[4] = {0, 0, 0, 0};
  uint32_t dollar = 0;
  for (uint32_t i = 0; i < n; ++i) {
    if (i % fm::kCheckpoint == 0)
      for (int c = 0; c < 4; ++c) occ_host[c][i / fm::kCheckpoint] = counts[c];
    int c;
    if (sa[i] == 0) {
      dollar = i;
      c = 0;
    } else {
      c = bio::dna_code(text[sa[i] - 1]);
      ++counts[c];
    }
    bwt_words[i / 16] |= (uint32_t)c << (2 * (i % 16));
  }
  if (n % fm::kCheckpoint == 0)
    for (int c = 0; c < 4; ++c) occ_host[c][n / fm::kCheckpoint] = counts[c];
  fm::FmIndexView ix{};
  ix.C[0] = 1;
  for (int c = 0; c < 4; ++c) ix.C[c + 1] = ix.C[c] + counts[c];
  ix.length = n;
  ix.dollar = dollar;

  // Reads: exact substrings, substrings with one mismatch, random strings.
  const int nreads = 600;
  std::vector<std::string> reads(nreads);
  for (int r = 0; r < nreads; ++r) {
    if (r % 3 == 2) {
      reads[r] = bio::random_dna(rng, kReadLen);
    } else {
      reads[r] = text.substr(rng() % (text.size() - kReadLen), kReadLen);
      if (r % 3 == 1) reads[r][rng() % kReadLen] = "ACGT"[rng() % 4];
    }
  }
  reads[0] = "ACGTACGTACGTACGTACGTACGT";  // several hits in the tandem repeat
  constexpr int kWords = (kReadLen + 15) / 16;
  std::vector<uint32_t> packed(nreads * kWords);
  for (int r = 0; r < nreads; ++r) {
    uint8_t codes[kReadLen];
    for (int i = 0; i < kReadLen; ++i) codes[i] = (uint8_t)bio::dna_code(reads[r][i]);
    bio::Packer<2>::pack(codes, kReadLen, &packed[r * kWords]);
  }

  uint32_t *d_bwt, *d_occ[4], *d_reads;
  uint2* d_ranges;
  CUDA_CHECK(cudaMalloc(&d_bwt, bwt_words.size() * sizeof(uint32_t)));
  CUDA_CHECK(cudaMemcpy(d_bwt, bwt_words.data(), bwt_words.size() * sizeof(uint32_t), cudaMemcpyHostToDevice));
  for (int c = 0; c < 4; ++c) {
    CUDA_CHECK(cudaMalloc(&d_occ[c], occ_host[c].size() * sizeof(uint32_t)));
    CUDA_CHECK(cudaMemcpy(d_occ[c], occ_host[c].data(), occ_host[c].size() * sizeof(uint32_t), cudaMemcpyHostToDevice));
    ix.occ[c] = d_occ[c];
  }
  ix.bwt = d_bwt;
  CUDA_CHECK(cudaMalloc(&d_reads, packed.size() * sizeof(uint32_t)));
  CUDA_CHECK(cudaMalloc(&d_ranges, nreads * sizeof(uint2)));
  CUDA_CHECK(cudaMemcpy(d_reads, packed.data(), packed.size() * sizeof(uint32_t), cudaMemcpyHostToDevice));
  bio::GpuTimer timer;
  timer.start();
  fm::backward_search_kernel<kReadLen><<<(nreads + 127) / 128, 128>>>(ix, d_reads, nreads, d_ranges);
  CUDA_CHECK_LAST();
  const float ms = timer.stop();
  std::vector<uint2> ranges(nreads);
  CUDA_CHECK(cudaMemcpy(ranges.data(), d_ranges, nreads * sizeof(uint2), cudaMemcpyDeviceToHost));

  int bad = 0, mapped = 0;
  long hits = 0;
  for (int r = 0; r < nreads; ++r) {
    std::vector<uint32_t> naive;
    for (size_t p = text.find(reads[r]); p != std::string::npos; p = text.find(reads[r], p + 1))
      naive.push_back((uint32_t)p);
    std::vector<uint32_t> found(sa.begin() + ranges[r].x, sa.begin() + ranges[r].y);
    std::sort(found.begin(), found.end());
    if (found != naive && bad++ < 5)
      printf("read %d: %zu hits expected %zu\n", r, found.size(), naive.size());
    mapped += !naive.empty();
    hits += (long)naive.size();
  }
  printf("%d reads of %d bases on %u bases: %d mapped, %ld hits (read 0: %u), %.3f ms\n", nreads, kReadLen,
         n - 1, mapped, hits, ranges[0].y - ranges[0].x, ms);
  CUDA_CHECK(cudaFree(d_bwt));
  for (int c = 0; c < 4; ++c) CUDA_CHECK(cudaFree(d_occ[c]));
  CUDA_CHECK(cudaFree(d_reads));
  CUDA_CHECK(cudaFree(d_ranges));
  return bio::report("fm_search", bad == 0);
}
