// bitpack.cu: bit-packing of 32-bit columns at every width 1..32, with the
// width found on the device, frame-of-reference and delta coding, bit
// planes through ballots, and the bit intrinsics against host models.
// Built as the trial built it (at -O0 here): an sm_75 cubin and PTX besides an sm_80
// cubin, whose compute_75 pass a 9.0 device runs (tests/programs_trialzip.sh).
// CUEMU_OPTIONS: -Xcompiler -O0 -arch=sm_75 -gencode arch=compute_80,code=sm_80
#include <algorithm>
#include <random>
#include <vector>

#include "zipk/bitpack.cuh"
#include "zipk/ref.cuh"

using namespace zip;

namespace {

uint32_t host_brev(uint32_t v) {
  uint32_t r = 0;
  for (int i = 0; i < 32; ++i) r |= ((v >> i) & 1u) << (31 - i);
  return r;
}

uint32_t host_byte_perm(uint32_t x, uint32_t y, uint32_t s) {
  uint64_t both = (static_cast<uint64_t>(y) << 32) | x;
  uint32_t r = 0;
  for (int k = 0; k < 4; ++k) {
    unsigned sel = (s >> (4 * k)) & 7;
    r |= static_cast<uint32_t>((both >> (8 * sel)) & 0xff) << (8 * k);
  }
  return r;
}

int clz64(uint64_t v) { return v ? __builtin_clzll(v) : 64; }
int ffs64(uint64_t v) { return v ? __builtin_ctzll(v) + 1 : 0; }

pack::BitFacts host_facts(uint32_t v) {
  const uint64_t v64 = (static_cast<uint64_t>(v) << 32) | host_brev(v ^ 0x5a5a5a5au);
  pack::BitFacts f;
  f.brev = host_brev(v);
  f.popc = __builtin_popcount(v);
  f.ffs = v ? __builtin_ctz(v) + 1 : 0;
  f.bswap = host_byte_perm(v, 0, 0x0123);
  f.perm = host_byte_perm(v, 0xa0b1c2d3u, 0x7351);
  f.clz = v ? __builtin_clz(v) : 32;
  f.popcll = __builtin_popcountll(v64);
  f.ffsll = ffs64(v64);
  f.clzll = clz64(v64 >> (v & 63));
  f.shl = v64 << (v & 63);
  f.shr = v64 >> ((v >> 8) & 63);
  return f;
}

bool same(const pack::BitFacts &a, const pack::BitFacts &b) {
  return a.brev == b.brev && a.popc == b.popc && a.ffs == b.ffs && a.bswap == b.bswap &&
         a.perm == b.perm && a.clz == b.clz && a.popcll == b.popcll && a.ffsll == b.ffsll &&
         a.clzll == b.clzll && a.shl == b.shl && a.shr == b.shr;
}

// Host packing, bit by bit, to compare the packed words exactly.
std::vector<uint32_t> host_pack(const std::vector<uint32_t> &in, unsigned w, uint32_t ref) {
  std::vector<uint32_t> out(in.size() / 32 * w, 0);
  for (size_t g = 0; g < in.size() / 32; ++g)
    for (unsigned i = 0; i < 32; ++i) {
      uint32_t v = in[g * 32 + i] - ref;
      for (unsigned b = 0; b < w; ++b) {
        unsigned pos = i * w + b;
        if ((v >> b) & 1u) out[g * w + pos / 32] |= 1u << (pos % 32);
      }
    }
  return out;
}

}  // namespace

int main(int argc, char **argv) {
  const size_t groups = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 64;
  const size_t n = groups * pack::kGroup;
  std::mt19937 gen(2024);
  DeviceBuffer<uint32_t> d_in(n), d_packed(n), d_out(n), d_scalar(1);
  std::vector<uint32_t> h_in(n), h_out(n), h_packed(n);
  int failures = 0;
  const int threads = 128;
  const int blocks = static_cast<int>(div_up<size_t>(n, threads));

  int width_ok = 0, pack_ok = 0, unpack_ok = 0, fixed_ok = 0, planes_ok = 0;
  for (unsigned w = 1; w <= 32; ++w) {
    const uint32_t base = w < 32 ? 1000u + w : 0u;
    for (auto &v : h_in) v = base + (static_cast<uint32_t>(gen()) & low_mask(w));
    h_in[17] = base + low_mask(w);  // the top bit is used
    h_in[5] = base;                 // and so is the reference
    d_in.upload(h_in.data(), n);

    const uint32_t init_min = 0xffffffffu;
    d_scalar.upload(&init_min, 1);
    pack::min_reduce<<<blocks, threads>>>(d_in, n, d_scalar);
    uint32_t reference = 0;
    d_scalar.download(&reference, 1);
    std::vector<uint32_t> shifted(n);
    for (size_t i = 0; i < n; ++i) shifted[i] = h_in[i] - reference;
    DeviceBuffer<uint32_t> d_shifted(n);
    d_shifted.upload(shifted.data(), n);
    d_scalar.zero();
    pack::or_reduce<<<blocks, threads>>>(d_shifted, n, d_scalar);
    uint32_t all = 0;
    d_scalar.download(&all, 1);
    const unsigned found = bit_width(all);
    width_ok += reference == base && found == w;

    pack::pack_kernel<<<blocks, threads>>>(d_in, groups, w, reference, d_packed);
    CUDA_CHECK_LAST();
    d_packed.download(h_packed.data(), groups * w);
    std::vector<uint32_t> want = host_pack(h_in, w, reference);
    pack_ok += std::equal(want.begin(), want.end(), h_packed.begin());

    d_out.zero();
    pack::unpack_kernel<<<blocks, threads>>>(d_packed, groups, w, reference, d_out);
    d_out.download(h_out.data(), n);
    unpack_ok += h_out == h_in;

    d_out.zero();
    bool launched = pack::unpack_fixed_dispatch(w, d_packed, groups, d_out,
                                                std::make_integer_sequence<unsigned, 32>{});
    CUDA_CHECK_LAST();
    d_out.download(h_out.data(), n);
    bool fixed = launched;
    for (size_t i = 0; fixed && i < n; ++i) fixed = h_out[i] == shifted[i];
    fixed_ok += fixed;

    pack::pack_planes<<<blocks, threads>>>(d_shifted, groups, w, d_packed);
    d_out.zero();
    pack::unpack_planes<<<blocks, threads>>>(d_packed, groups, w, d_out);
    d_out.download(h_out.data(), n);
    planes_ok += h_out == shifted;
  }
  failures += report("bitpack width by __clz (32 widths)", width_ok == 32);
  failures += report("bitpack pack words (32 widths)", pack_ok == 32);
  failures += report("bitpack unpack by shuffles (32 widths)", unpack_ok == 32);
  failures += report("bitpack unpack templated (32 widths)", fixed_ok == 32);
  failures += report("bitpack bit planes by ballot (32 widths)", planes_ok == 32);

  // Delta coding of a sorted column, per group of 32.
  uint32_t acc = 5;
  for (auto &v : h_in) v = acc += gen() % 40;
  d_in.upload(h_in.data(), n);
  pack::delta_encode<<<blocks, threads>>>(d_in, n, d_packed);
  pack::delta_decode<<<blocks, threads>>>(d_packed, n, d_out);
  d_out.download(h_out.data(), n);
  failures += report("bitpack delta round trip", h_out == h_in);

  // Intrinsics against host models.
  for (auto &v : h_in) v = static_cast<uint32_t>(gen());
  h_in[0] = 0;
  h_in[1] = 0x80000000u;
  h_in[2] = 1;
  d_in.upload(h_in.data(), n);
  DeviceBuffer<pack::BitFacts> d_facts(n);
  pack::bit_facts<<<blocks, threads>>>(d_in, n, d_facts);
  std::vector<pack::BitFacts> facts(n);
  d_facts.download(facts.data(), n);
  int bad = 0;
  for (size_t i = 0; i < n; ++i) bad += !same(facts[i], host_facts(h_in[i]));
  if (bad) std::printf("  %d of %zu values differ, e.g. value %08x\n", bad, n, h_in[0]);
  failures += report("bitpack intrinsics vs host", bad == 0);
  std::printf("%s\n", failures ? "FAIL" : "PASS");
  return failures ? 1 : 0;
}
