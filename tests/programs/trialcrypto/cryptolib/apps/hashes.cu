// hashes.cu - SHA-256 over many messages and an MD5 brute-force search.
// NVCC_OPTIONS: -rdc=true -I../include -I../host
#include <cstring>
#include <vector>
#include "../host/host_ref.hpp"
#include "md5.cuh"
#include "sha256.cuh"

constexpr int SLOT = 112;

static int test_sha256(int n) {
  XorShift64 rng(42);
  std::vector<uint8_t> msgs((size_t)n * SLOT);
  std::vector<uint32_t> lens(n);
  for (int i = 0; i < n; ++i) {
    static const uint32_t edge[4] = {0, 3, 55, 56};
    lens[i] = (i < 4) ? edge[i] : rng.next32() % (SLOT - 8);
    for (int b = 0; b < SLOT; ++b) msgs[(size_t)i * SLOT + b] = (uint8_t)rng.next();
  }
  // "abc" in slot 0 with length 3 is the FIPS 180-2 example.
  lens[1] = 3;
  std::memcpy(&msgs[SLOT], "abc", 3);
  uint8_t *d_msgs;
  uint32_t *d_lens, *d_out;
  CUDA_CHECK(cudaMalloc(&d_msgs, msgs.size()));
  CUDA_CHECK(cudaMalloc(&d_lens, n * sizeof(uint32_t)));
  CUDA_CHECK(cudaMalloc(&d_out, (size_t)n * 8 * sizeof(uint32_t)));
  CUDA_CHECK(cudaMemcpy(d_msgs, msgs.data(), msgs.size(), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_lens, lens.data(), n * sizeof(uint32_t), cudaMemcpyHostToDevice));
  const int threads = 128;
  sha256_many<SLOT><<<(n + threads - 1) / threads, threads>>>(d_msgs, d_lens, d_out, n);
  CUDA_CHECK_LAST();
  std::vector<uint32_t> out((size_t)n * 8);
  CUDA_CHECK(cudaMemcpy(out.data(), d_out, out.size() * sizeof(uint32_t), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    uint32_t ref_digest[8];
    ref::sha256(&msgs[(size_t)i * SLOT], lens[i], ref_digest);
    if (std::memcmp(ref_digest, &out[(size_t)i * 8], 32) != 0 && bad++ < 3)
      std::printf("sha256 mismatch at %d (len %u): %08x vs %08x\n", i, lens[i], out[(size_t)i * 8], ref_digest[0]);
  }
  const bool abc_ok = out[8] == 0xba7816bfu && out[15] == 0xf20015adu;
  CUDA_CHECK(cudaFree(d_msgs));
  CUDA_CHECK(cudaFree(d_lens));
  CUDA_CHECK(cudaFree(d_out));
  return report("sha256_many", bad == 0 && abc_ok);
}

static int test_md5(void) {
  constexpr int LEN = 4;
  // The secret is a word of four letters; its index is what the search finds.
  const char secret[] = "gpuz";
  uint64_t secret_idx = 0;
  for (int i = 0; i < LEN; ++i) secret_idx = secret_idx * 26 + (secret[i] - 'a');
  uint32_t target[4];
  ref::md5(reinterpret_cast<const uint8_t *>(secret), LEN, target);
  md5_setup();
  const uint64_t first = secret_idx - 3000;
  const int n = 4096;
  uint32_t *d_word0;
  unsigned long long *d_found;
  CUDA_CHECK(cudaMalloc(&d_word0, n * sizeof(uint32_t)));
  CUDA_CHECK(cudaMalloc(&d_found, sizeof(unsigned long long)));
  CUDA_CHECK(cudaMemset(d_found, 0xff, sizeof(unsigned long long)));
  md5_crack<LEN><<<n / 256, 256>>>(first, n, make_uint4(target[0], target[1], target[2], target[3]), d_word0, d_found);
  CUDA_CHECK_LAST();
  unsigned long long found = 0;
  std::vector<uint32_t> word0(n);
  CUDA_CHECK(cudaMemcpy(&found, d_found, sizeof(found), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(word0.data(), d_word0, n * sizeof(uint32_t), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < n; i += 7) {
    char cand[LEN];
    uint64_t idx = first + i;
    for (int k = LEN - 1; k >= 0; --k) {
      cand[k] = 'a' + (char)(idx % 26);
      idx /= 26;
    }
    uint32_t h[4];
    ref::md5(reinterpret_cast<const uint8_t *>(cand), LEN, h);
    if (h[0] != word0[i] && bad++ < 3) std::printf("md5 mismatch at %d\n", i);
  }
  CUDA_CHECK(cudaFree(d_word0));
  CUDA_CHECK(cudaFree(d_found));
  return report("md5_crack", bad == 0 && found == secret_idx);
}

// The constant tables live in the library (another translation unit):
// read them back through the extern declarations, as tools that dump or
// patch the tables do.
static int test_symbols(void) {
  uint32_t k[64], h0[8];
  CUDA_CHECK(cudaMemcpyFromSymbol(k, c_sha256_K, sizeof(k)));
  CUDA_CHECK(cudaMemcpyFromSymbol(h0, c_sha256_H0, sizeof(h0), 0, cudaMemcpyDeviceToHost));
  uint32_t *addr = nullptr;
  size_t size = 0;
  CUDA_CHECK(cudaGetSymbolAddress((void **)&addr, c_sha256_K));
  CUDA_CHECK(cudaGetSymbolSize(&size, c_sha256_K));
  uint32_t last = 0;
  CUDA_CHECK(cudaMemcpy(&last, addr + 63, sizeof(last), cudaMemcpyDeviceToHost));
  // Patch one word through an offset and put it back.
  const uint32_t patched = 0x12345678u;
  CUDA_CHECK(cudaMemcpyToSymbol(c_sha256_K, &patched, 4, 4 * 5));
  uint32_t check = 0;
  CUDA_CHECK(cudaMemcpyFromSymbol(&check, c_sha256_K, 4, 4 * 5));
  CUDA_CHECK(cudaMemcpyToSymbol(c_sha256_K, &k[5], 4, 4 * 5));
  return report("library_symbols", k[0] == 0x428a2f98u && k[63] == 0xc67178f2u && h0[7] == 0x5be0cd19u &&
                                       size == sizeof(k) && last == 0xc67178f2u && check == patched);
}

int main() {
  int fails = 0;
  fails += test_symbols();
  fails += test_sha256(1000);
  fails += test_md5();
  std::printf("%s\n", fails ? "FAIL" : "PASS");
  return fails ? 1 : 0;
}
