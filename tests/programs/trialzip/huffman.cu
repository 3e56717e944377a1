// huffman.cu: Huffman coding of a skewed byte stream: device histogram,
// host code lengths, code book in __constant__ memory, bit offsets from a
// CUB scan, atomicOr into a word stream, a chunk-parallel decoder.
// Built as the trial built it (at -O0 here): an sm_75 cubin and PTX besides an sm_80
// cubin, whose compute_75 pass a 9.0 device runs (tests/programs_trialzip.sh).
// CUEMU_OPTIONS: -Xcompiler -O0 -arch=sm_75 -gencode arch=compute_80,code=sm_80
#include <cmath>
#include <cstring>
#include <random>
#include <vector>
#include <cub/device/device_scan.cuh>

#include "zipk/huffman.cuh"
#include "zipk/ref.cuh"

using namespace zip;

static huff::DecodeTable make_table(const std::vector<int> &len, const std::vector<uint32_t> &codes) {
  huff::DecodeTable t;
  std::memset(&t, 0, sizeof t);
  int idx = 0;
  for (int l = 1; l <= huff::kMaxLen; ++l) {
    t.first_index[l] = idx;
    bool first = true;
    for (int s = 0; s < huff::kSymbols; ++s) {
      if (len[s] != l) continue;
      if (first) t.first_code[l] = codes[s];
      first = false;
      t.symbols[idx++] = static_cast<uint8_t>(s);
      ++t.count[l];
      t.max_len = l;
    }
  }
  return t;
}

int main(int argc, char **argv) {
  const size_t n = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 50000;
  std::mt19937 gen(42);
  std::geometric_distribution<int> geo(0.08);
  std::vector<uint8_t> h_in(n);
  for (auto &b : h_in) b = static_cast<uint8_t>(std::min(geo(gen), 255));
  h_in[n / 2] = 255;  // a rare symbol with a long code

  DeviceBuffer<uint8_t> d_in(n), d_out(n);
  d_in.upload(h_in.data(), n);
  DeviceBuffer<unsigned> d_hist(huff::kSymbols);
  d_hist.zero();
  huff::histogram_kernel<256><<<64, 256>>>(d_in, n, d_hist);
  CUDA_CHECK_LAST();
  std::vector<unsigned> hist(huff::kSymbols);
  d_hist.download(hist.data(), hist.size());
  std::vector<int> freq(hist.begin(), hist.end());
  bool ok = freq == ref::byte_histogram(std::vector<unsigned char>(h_in.begin(), h_in.end()));
  int failures = report("huffman histogram", ok);

  std::vector<int> len = ref::huffman_lengths(freq, huff::kMaxLen);
  std::vector<uint32_t> codes = ref::canonical_codes(len);
  std::vector<uint8_t> len8(len.begin(), len.end());
  CUDA_CHECK(cudaMemcpyToSymbol(huff::c_codes, codes.data(), sizeof(uint32_t) * huff::kSymbols));
  CUDA_CHECK(cudaMemcpyToSymbol(huff::c_lengths, len8.data(), huff::kSymbols));

  DeviceBuffer<uint64_t> d_bits(n), d_offsets(n);
  const int threads = 256;
  const int blocks = static_cast<int>(div_up<size_t>(n, threads));
  huff::code_lengths_kernel<<<blocks, threads>>>(d_in, n, d_bits);
  void *temp = nullptr;
  size_t temp_bytes = 0;
  CUDA_CHECK(cub::DeviceScan::ExclusiveSum(temp, temp_bytes, d_bits.get(), d_offsets.get(), n));
  CUDA_CHECK(cudaMalloc(&temp, temp_bytes));
  CUDA_CHECK(cub::DeviceScan::ExclusiveSum(temp, temp_bytes, d_bits.get(), d_offsets.get(), n));
  CUDA_CHECK(cudaFree(temp));
  uint64_t last_off = 0;
  CUDA_CHECK(cudaMemcpy(&last_off, d_offsets.get() + n - 1, sizeof last_off, cudaMemcpyDeviceToHost));
  const uint64_t total_bits = last_off + len[h_in[n - 1]];
  uint64_t want_bits = 0;
  for (uint8_t b : h_in) want_bits += len[b];
  failures += report("huffman total bits", total_bits == want_bits);

  const size_t nwords = div_up<uint64_t>(total_bits, 32) + 1;
  DeviceBuffer<uint32_t> d_words(nwords);
  d_words.zero();
  huff::encode_kernel<<<blocks, threads>>>(d_in, d_offsets, n, d_words);
  CUDA_CHECK_LAST();

  // The host writes the same stream bit by bit.
  std::vector<uint32_t> want(nwords, 0);
  uint64_t p = 0;
  for (uint8_t b : h_in)
    for (int k = len[b] - 1; k >= 0; --k, ++p)
      if ((codes[b] >> k) & 1) want[p >> 5] |= 0x80000000u >> (p & 31);
  std::vector<uint32_t> words(nwords);
  d_words.download(words.data(), nwords);
  failures += report("huffman encoded stream", words == want);

  const size_t chunks = div_up<size_t>(n, huff::kChunk);
  DeviceBuffer<uint64_t> d_starts(chunks);
  huff::chunk_starts_kernel<<<div_up<size_t>(chunks, 128), 128>>>(d_offsets, n, d_starts);
  huff::DecodeTable table = make_table(len, codes);
  DeviceBuffer<huff::DecodeTable> d_table(1);
  d_table.upload(&table, 1);
  d_out.zero();
  huff::decode_kernel<<<div_up<size_t>(chunks, 64), 64>>>(d_words, d_starts, d_table, n, d_out);
  CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<uint8_t> back(n);
  d_out.download(back.data(), n);
  failures += report("huffman round trip", back == h_in);
  std::printf("  %zu bytes -> %llu bits (%.2f bits/symbol)\n", n,
              static_cast<unsigned long long>(total_bits), double(total_bits) / n);
  std::printf("%s\n", failures ? "FAIL" : "PASS");
  return failures ? 1 : 0;
}
