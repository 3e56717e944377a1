// bitmap_index.cu: a bitmap index over three low-cardinality columns,
// WHERE a IN (1, 3) AND b = 2 AND NOT c = 5 by AND/OR/ANDNOT of 64-bit
// words, then ORDER BY score DESC LIMIT 16 by block bitonic sorts.
// From the trialdb trial (GPU query operators), kept as a test by
// tests/programs_trialdb.sh.
// CUEMU_OPTIONS: -O0 -I. -rdc=true --expt-relaxed-constexpr --extended-lambda gdb/hash_device.cu gdb/select_device.cu gdb/host_ref.cpp gdb/device_info.cpp
// NVCC_OPTIONS: -I. -rdc=true --expt-relaxed-constexpr --extended-lambda
#include <algorithm>
#include <optional>
#include <type_traits>
#include <vector>

#include <gdb/bitmap.cuh>
#include <gdb/common.cuh>
#include <gdb/host_ref.h>
#include <gdb/topk.cuh>

using namespace gdb;

constexpr int kTopK = 16, kTile = 1024;

__global__ void gather_scores(const unsigned* __restrict__ rows, unsigned n, const float* __restrict__ score,
                              scored_row* __restrict__ out) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    out[i] = scored_row{score[rows[i]], rows[i]};
}

template <typename F>
__global__ void for_each_index(unsigned n, F f) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) f(i);
}

// A host bitmap of words W: the first set row, if any.
template <typename W>
static std::optional<size_t> first_set(const std::vector<W>& bits) {
  static_assert(std::is_unsigned_v<W>, "words are unsigned");
  for (size_t w = 0; w < bits.size(); ++w) {
    if (bits[w] == 0) continue;
    if constexpr (sizeof(W) == 8) return w * 64 + size_t(__builtin_ctzll(bits[w]));
    else return w * sizeof(W) * 8 + size_t(__builtin_ctz(bits[w]));
  }
  return std::nullopt;
}

template <typename W>
static std::vector<W> host_bitmap(const std::vector<bool>& rows) {
  constexpr size_t bits = sizeof(W) * 8;
  std::vector<W> out((rows.size() + bits - 1) / bits, 0);
  for (size_t r = 0; r < rows.size(); ++r)
    if (rows[r]) out[r / bits] |= W(1) << (r % bits);
  return out;
}

int main(int argc, char** argv) {
  const size_t rows = argc > 1 ? size_t(atol(argv[1])) : 500000;
  const size_t words = (rows + kWordBits - 1) / kWordBits;
  std::vector<unsigned char> a(rows), b(rows), c(rows);
  uint64_t seed = 3;
  for (size_t r = 0; r < rows; ++r) {
    uint64_t x = host::splitmix(seed);
    a[r] = (unsigned char)(x % 8);
    b[r] = (unsigned char)((x >> 8) % 4);
    c[r] = (unsigned char)((x >> 16) % 16);
  }
  auto score = host::random_floats(rows, 0.f, 1e6f, 4);

  std::vector<bool> hits(rows);
  std::vector<unsigned> expect_rows;
  for (size_t r = 0; r < rows; ++r) {
    hits[r] = (a[r] == 1 || a[r] == 3) && b[r] == 2 && c[r] != 5;
    if (hits[r]) expect_rows.push_back(unsigned(r));
  }

  column<unsigned char> d_a(a), d_b(b), d_c(c);
  column<word_t> bm_a(8 * words), bm_b(4 * words), bm_c(16 * words), result(words);
  build_bitmaps<<<grid_for(words * 32, 256, 256), 256>>>(d_a.data(), rows, 8, words, bm_a.data());
  build_bitmaps<<<grid_for(words * 32, 256, 256), 256>>>(d_b.data(), rows, 4, words, bm_b.data());
  build_bitmaps<<<grid_for(words * 32, 256, 256), 256>>>(d_c.data(), rows, 16, words, bm_c.data());
  GDB_CHECK_LAST();
  const unsigned grid = grid_for(words, 256, 64);
  GDB_CUDA_TRY(cudaMemcpy(result.data(), bm_a.data() + 1 * words, words * sizeof(word_t), cudaMemcpyDeviceToDevice));
  combine_bitmaps<bitop::op_or><<<grid, 256>>>(result.data(), bm_a.data() + 3 * words, words);
  combine_bitmaps<bitop::op_and><<<grid, 256>>>(result.data(), bm_b.data() + 2 * words, words);
  combine_bitmaps<bitop::op_andnot><<<grid, 256>>>(result.data(), bm_c.data() + 5 * words, words);
  GDB_CHECK_LAST();

  auto got_bits = result.download();
  int failures = report("bitmap AND/OR/ANDNOT", got_bits == host_bitmap<word_t>(hits));
  const auto first64 = first_set(got_bits);
  const auto first32 = first_set(host_bitmap<unsigned>(hits));
  failures += report("first row (optional)", first64 && first32 && *first64 == *first32 &&
                                                  *first64 == (expect_rows.empty() ? 0 : expect_rows[0]));

  column<unsigned> d_rows(rows), d_count(1), d_word_base(words);
  column<int> d_mismatch(1);
  column<unsigned long long> d_last(1);
  d_count.fill_bytes(0);
  d_mismatch.fill_bytes(0);
  d_last.fill_bytes(0);
  bitmap_to_rows<<<grid, 256>>>(result.data(), words, d_rows.data(), d_count.data(), d_word_base.data());
  bit_positions<<<grid, 256>>>(result.data(), words, d_mismatch.data(), d_last.data());
  GDB_CHECK_LAST();
  const unsigned count = d_count.download()[0];
  auto got_rows = d_rows.download(count);
  std::sort(got_rows.begin(), got_rows.end());
  failures += report("bitmap to rows (__ffsll)", got_rows == expect_rows);
  failures += report("__brev/__clz against __ffs", d_mismatch.download()[0] == 0);
  failures += report("last row (__clzll)", !expect_rows.empty() && d_last.download()[0] == expect_rows.back());

  // ORDER BY score DESC LIMIT kTopK: one bitonic tile per block, then one
  // more round on the blocks' winners until a single tile remains.
  column<float> d_score(score);
  column<scored_row> cand(count);
  gather_scores<<<grid_for(count, 256, 64), 256>>>(d_rows.data(), count, d_score.data(), cand.data());
  size_t n = count;
  const scored_row* src = cand.data();
  std::vector<column<scored_row>> rounds;
  while (true) {
    const unsigned blocks = unsigned((n + kTile - 1) / kTile);
    rounds.emplace_back(size_t(blocks) * kTopK);
    block_topk<kTile, kTopK><<<blocks, kTile / 2>>>(src, n, rounds.back().data());
    GDB_CHECK_LAST();
    src = rounds.back().data();
    n = size_t(blocks) * kTopK;
    if (blocks == 1) break;
  }
  auto top = rounds.back().download(kTopK);
  std::vector<scored_row> expect_top;
  for (unsigned r : expect_rows) expect_top.push_back({score[r], r});
  std::partial_sort(expect_top.begin(), expect_top.begin() + kTopK, expect_top.end(), ranks_before);
  bool top_ok = true;
  for (int i = 0; i < kTopK; ++i) top_ok &= top[i].row == expect_top[i].row && top[i].score == expect_top[i].score;
  failures += report("top-k by bitonic sort", top_ok);
  // SUM(c) WHERE the query, by the bit-sliced index of c.
  {
    column<word_t> slices(4 * words);
    column<unsigned long long> d_sum(1);
    d_sum.fill_bytes(0);
    build_slices<4><<<grid_for(words * 32, 256, 256), 256>>>(d_c.data(), rows, words, slices.data());
    sliced_sum<4, 256><<<grid, 256>>>(slices.data(), result.data(), words, d_sum.data());
    GDB_CHECK_LAST();
    unsigned long long want = 0;
    for (unsigned r : expect_rows) want += c[r];
    failures += report("bit-sliced SUM", d_sum.download()[0] == want);

    column<unsigned> walked(64), walked_count(1);
    walk_rows<<<1, 32>>>(result.data(), words, walked.data(), 64, walked_count.data());
    auto w = walked.download();
    bool walk_ok = walked_count.download()[0] == std::min<unsigned>(64, unsigned(expect_rows.size()));
    for (unsigned i = 0; walk_ok && i < 64 && i < expect_rows.size(); ++i) walk_ok &= w[i] == expect_rows[i];
    failures += report("cuda::std::optional row walk", walk_ok);

    // Top-k by block radix sorts, the winners merged on the host.
    constexpr int kSortBlock = 128, kSortItems = 8, kChunk = kSortBlock * kSortItems;
    column<float> cand_scores(count);
    const float* score_col = d_score.data();
    const unsigned* row_col = d_rows.data();
    float* cs = cand_scores.data();
    auto gather = [=] __device__(unsigned i) { cs[i] = score_col[row_col[i]]; };
    for_each_index<<<grid_for(count, 256, 64), 256>>>(count, gather);
    const unsigned blocks = (count + kChunk - 1) / kChunk;
    column<float> top_s(size_t(blocks) * kTopK);
    column<unsigned> top_r(size_t(blocks) * kTopK);
    radix_topk<kSortBlock, kSortItems, kTopK><<<blocks, kSortBlock>>>(cand_scores.data(), d_rows.data(), count,
                                                                      top_s.data(), top_r.data());
    GDB_CHECK_LAST();
    auto hs = top_s.download();
    auto hr = top_r.download();
    std::vector<scored_row> merged;
    for (size_t i = 0; i < hs.size(); ++i) merged.push_back({hs[i], hr[i]});
    std::partial_sort(merged.begin(), merged.begin() + kTopK, merged.end(), ranks_before);
    bool radix_ok = true;
    for (int i = 0; i < kTopK; ++i) radix_ok &= merged[i].row == expect_top[i].row;
    failures += report("top-k by cub::BlockRadixSort", radix_ok);
  }
  std::fprintf(stderr, "bitmap: %zu rows, %u selected, best row %u (%.1f)\n", rows, count, top[0].row, top[0].score);
  std::printf("%s\n", failures ? "FAIL" : "PASS");
  return failures ? 1 : 0;
}
