// lz77.cu: compresses text-like data with the block LZ77 compressor and
// decodes every chunk on the host.
// Built as the trial built it (at -O0 here): an sm_75 cubin and PTX besides an sm_80
// cubin, whose compute_75 pass a 9.0 device runs (tests/programs_trialzip.sh).
// CUEMU_OPTIONS: -Xcompiler -O0 -arch=sm_75 -gencode arch=compute_80,code=sm_80
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "zipk/lz77.cuh"

using namespace zip;

static std::vector<unsigned char> make_text(size_t n, unsigned seed) {
  static const char *words[] = {"the ", "compressor ", "block ", "shared ", "memory ", "warp ",
                                "token ", "literal ", "match ", "offset ", "length ", "hash ",
                                "table ", "of ", "a ", "and ", "GPU ", "chunk ", "\n", ", "};
  std::mt19937 gen(seed);
  std::uniform_int_distribution<int> pick(0, int(sizeof words / sizeof *words) - 1);
  std::vector<unsigned char> out;
  out.reserve(n);
  while (out.size() < n) {
    if (gen() % 97 == 0) {  // a stretch of noise that does not compress
      for (int i = 0; i < 40 && out.size() < n; ++i) out.push_back(static_cast<unsigned char>(gen()));
      continue;
    }
    for (const char *w = words[pick(gen)]; *w && out.size() < n; ++w) out.push_back(*w);
  }
  return out;
}

int main(int argc, char **argv) {
  const size_t n = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 3 * lz::kChunk * 4 + 1000;
  const std::vector<unsigned char> h_in = make_text(n, 77);
  const int chunks = static_cast<int>(div_up<size_t>(n, lz::kChunk));

  DeviceBuffer<unsigned char> d_in(n), d_literals(size_t(chunks) * lz::kChunk);
  DeviceBuffer<ref::LzToken> d_tokens(size_t(chunks) * lz::kMaxTokens);
  DeviceBuffer<unsigned> d_token_counts(chunks), d_literal_counts(chunks);
  DeviceBuffer<lz::Stats> d_stats(1);
  d_in.upload(h_in.data(), n);
  d_token_counts.zero();
  d_literal_counts.zero();
  d_stats.zero();

  const size_t smem = lz::shared_bytes();
  CUDA_CHECK(cudaFuncSetAttribute(lz::compress_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                  static_cast<int>(smem)));
  lz::compress_kernel<<<chunks, lz::kThreads, smem>>>(d_in, n, d_tokens, d_token_counts,
                                                      d_literals, d_literal_counts, d_stats);
  CUDA_CHECK_LAST();
  CUDA_CHECK(cudaDeviceSynchronize());

  std::vector<unsigned> token_counts(chunks), literal_counts(chunks);
  d_token_counts.download(token_counts.data(), chunks);
  d_literal_counts.download(literal_counts.data(), chunks);
  std::vector<ref::LzToken> tokens(size_t(chunks) * lz::kMaxTokens);
  d_tokens.download(tokens.data(), tokens.size());
  std::vector<unsigned char> literals(size_t(chunks) * lz::kChunk);
  d_literals.download(literals.data(), literals.size());
  lz::Stats stats;
  d_stats.download(&stats, 1);

  bool ok = true;
  size_t total_tokens = 0, total_literals = 0, with_match = 0, matched = 0;
  std::vector<unsigned char> out(n);
  for (int c = 0; c < chunks && ok; ++c) {
    const size_t start = size_t(c) * lz::kChunk;
    const size_t len = std::min<size_t>(lz::kChunk, n - start);
    std::vector<ref::LzToken> mine(tokens.begin() + size_t(c) * lz::kMaxTokens,
                                   tokens.begin() + size_t(c) * lz::kMaxTokens + token_counts[c]);
    for (const auto &t : mine) {
      with_match += t.match_len != 0;
      matched += t.match_len;
    }
    ok = ref::lz_decode(mine, literals.data() + start, literal_counts[c], out.data() + start, len);
    if (!ok) std::printf("  chunk %d does not decode\n", c);
    total_tokens += token_counts[c];
    total_literals += literal_counts[c];
  }
  ok = ok && out == h_in;
  int failures = report("lz77 round trip", ok);
  failures += report("lz77 statistics",
                     stats.tokens[lz::kWithMatch] == with_match &&
                         stats.tokens[lz::kLiteralOnly] + with_match == total_tokens &&
                         stats.matched_bytes == matched && matched + total_literals == n);
  const double packed = total_tokens * 6.0 + total_literals;
  std::printf("  %zu bytes -> %zu tokens, %zu literals (ratio %.2f)\n", n, total_tokens,
              total_literals, n / packed);
  failures += report("lz77 matches most of the text", matched > n / 2);
  std::printf("%s\n", failures ? "FAIL" : "PASS");
  return failures ? 1 : 0;
}
