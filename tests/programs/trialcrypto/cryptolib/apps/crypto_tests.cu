// crypto_tests.cu - the trial's programs (hashes, miner, aes, modexp, ntt,
// hashtable, bitops, keccak) in one unit, so that the test builds one
// program beside the library: each file's main is renamed and run in turn;
// keccak's driver is C (host/keccak_driver.c), which calls the CUDA side's
// extern "C" keccak_selftest() (keccak_gpu.cu).
// NVCC_OPTIONS: -rdc=true -I../include -I../host
#include <cstring>

#define main hashes_main
#include "hashes.cu"
#undef main
#define main miner_main
#include "miner.cu"
#undef main
#define main aes_main
#include "aes.cu"
#undef main
#define main modexp_main
#include "modexp.cu"
#undef main
#define main ntt_main
#include "ntt.cu"
#undef main
#define main hashtable_main
#include "hashtable.cu"
#undef main
#define main bitops_main
#include "bitops.cu"
#undef main
#include "keccak_gpu.cu"

extern "C" int keccak_driver_main(void);

int main(int argc, char **argv) {
  static const struct {
    const char *name;
    int (*run)();
  } programs[] = {{"hashes", hashes_main}, {"miner", miner_main}, {"aes", aes_main},
                  {"modexp", modexp_main}, {"ntt", ntt_main}, {"hashtable", hashtable_main},
                  {"bitops", bitops_main}, {"keccak", keccak_driver_main}};
  int failed = 0;
  for (const auto &p : programs) {
    if (argc > 1 && std::strcmp(argv[1], p.name) != 0) continue;
    std::printf("== %s\n", p.name);
    failed += p.run() != 0;
  }
  std::printf("crypto_tests: %s\n", failed ? "FAIL" : "PASS");
  return failed ? 1 : 0;
}
