// ref.cuh: host reference implementations the codecs are checked against
// (inline, so that the programs build as one: tests/programs.sh).
#ifndef ZIPK_REF_CUH
#define ZIPK_REF_CUH
#include <cstddef>
#include <cstdint>
#include <vector>
#include <algorithm>
#include <cstring>
#include <queue>

#include "bits.cuh"

namespace ref {

template <typename T>
void rle_encode(const std::vector<T> &in, std::vector<T> &vals, std::vector<int> &lens) {
  vals.clear();
  lens.clear();
  for (size_t i = 0; i < in.size(); ++i) {
    if (i == 0 || in[i] != in[i - 1]) {
      vals.push_back(in[i]);
      lens.push_back(1);
    } else {
      ++lens.back();
    }
  }
}

// One LZ77 token: at output position pos, lit_len literals taken from the
// literal stream at lit_off, then a match of match_len bytes at distance dist.
struct LzToken {
  uint32_t pos;
  uint32_t lit_off;
  uint16_t lit_len;
  uint16_t match_len;
  uint32_t dist;
};
struct BloomParams {
  uint64_t num_bits;
  int num_hashes;
  uint64_t seed;
};


inline std::vector<int> byte_histogram(const std::vector<unsigned char> &in) {
  std::vector<int> h(256, 0);
  for (unsigned char c : in) ++h[c];
  return h;
}

// Huffman code lengths (0 for absent symbols), limited to max_len bits.
inline std::vector<int> huffman_lengths(const std::vector<int> &freq, int max_len) {
  const int n = static_cast<int>(freq.size());
  std::vector<int> len(n, 0);
  // Tree nodes: leaves 0..n-1, internal nodes after; parents recorded.
  std::vector<int> parent(2 * n, -1);
  using Item = std::pair<long long, int>;
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> pq;
  int used = 0;
  for (int i = 0; i < n; ++i)
    if (freq[i] > 0) {
      pq.push({freq[i], i});
      ++used;
    }
  if (used == 0) return len;
  if (used == 1) {
    for (int i = 0; i < n; ++i)
      if (freq[i] > 0) len[i] = 1;
    return len;
  }
  int next = n;
  while (pq.size() > 1) {
    Item a = pq.top();
    pq.pop();
    Item b = pq.top();
    pq.pop();
    parent[a.second] = next;
    parent[b.second] = next;
    pq.push({a.first + b.first, next});
    ++next;
  }
  for (int i = 0; i < n; ++i) {
    if (freq[i] == 0) continue;
    int d = 0;
    for (int j = i; parent[j] >= 0; j = parent[j]) ++d;
    len[i] = std::min(d, max_len);
  }
  // Repair the Kraft sum if lengths were clipped: lengthen the shortest
  // codes until the sum fits.
  auto kraft = [&]() {
    long long k = 0;
    for (int l : len)
      if (l) k += 1LL << (max_len - l);
    return k;
  };
  while (kraft() > (1LL << max_len)) {
    int best = -1;
    for (int i = 0; i < n; ++i)
      if (len[i] && len[i] < max_len && (best < 0 || len[i] > len[best])) best = i;
    ++len[best];
  }
  return len;
}

// Canonical codes for the lengths (MSB-first codes, right aligned).
inline std::vector<uint32_t> canonical_codes(const std::vector<int> &lengths) {
  int max_len = 0;
  for (int l : lengths) max_len = std::max(max_len, l);
  std::vector<int> count(max_len + 1, 0);
  for (int l : lengths)
    if (l) ++count[l];
  std::vector<uint32_t> next_code(max_len + 2, 0);
  uint32_t code = 0;
  for (int l = 1; l <= max_len; ++l) {
    code = (code + count[l - 1]) << 1;
    next_code[l] = code;
  }
  std::vector<uint32_t> codes(lengths.size(), 0);
  for (size_t s = 0; s < lengths.size(); ++s)
    if (lengths[s]) codes[s] = next_code[lengths[s]]++;
  return codes;
}

// Decodes one chunk's tokens (any order) into out; false on a bad token.
inline bool lz_decode(std::vector<LzToken> tokens, const unsigned char *literals, size_t nlit,
               unsigned char *out, size_t out_len) {
  std::sort(tokens.begin(), tokens.end(),
            [](const LzToken &a, const LzToken &b) { return a.pos < b.pos; });
  size_t at = 0;
  for (const LzToken &t : tokens) {
    if (t.pos != at) return false;
    if (t.lit_off + t.lit_len > nlit || at + t.lit_len > out_len) return false;
    std::memcpy(out + at, literals + t.lit_off, t.lit_len);
    at += t.lit_len;
    if (t.match_len) {
      if (t.dist == 0 || t.dist > at || at + t.match_len > out_len) return false;
      for (unsigned i = 0; i < t.match_len; ++i, ++at) out[at] = out[at - t.dist];
    }
  }
  return at == out_len;
}

inline uint64_t bloom_bit(const BloomParams &p, uint64_t key, int i) {
  uint64_t h1 = zip::fmix64(key ^ p.seed);
  uint64_t h2 = zip::fmix64(h1 + 0x9e3779b97f4a7c15ULL) | 1;
  return zip::mulhi64(h1 + static_cast<uint64_t>(i) * h2, p.num_bits);
}

inline void bloom_insert(std::vector<uint32_t> &bits, const BloomParams &p, uint64_t key) {
  for (int i = 0; i < p.num_hashes; ++i) {
    uint64_t b = bloom_bit(p, key, i);
    bits[b >> 5] |= 1u << (b & 31);
  }
}

inline bool bloom_query(const std::vector<uint32_t> &bits, const BloomParams &p, uint64_t key) {
  for (int i = 0; i < p.num_hashes; ++i) {
    uint64_t b = bloom_bit(p, key, i);
    if (!(bits[b >> 5] & (1u << (b & 31)))) return false;
  }
  return true;
}

}  // namespace ref
#endif  // ZIPK_REF_CUH
