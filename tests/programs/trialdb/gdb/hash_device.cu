// hash_device.cu: device definitions of the hash declared in hash.cuh.
// NVCC_OPTIONS: -rdc=true -I..
#include "gdb/hash.cuh"

namespace gdb {

__constant__ unsigned long long d_hash_seed = kHostSeed;
__device__ unsigned long long d_hash_calls = 0;

__device__ uint32_t hash_key(unsigned long long key) { return uint32_t(mix64(key, d_hash_seed)); }

__device__ uint32_t hash_group(int key) {
  return uint32_t(mix64(static_cast<uint64_t>(static_cast<uint32_t>(key)), d_hash_seed) >> 32);
}

}  // namespace gdb
