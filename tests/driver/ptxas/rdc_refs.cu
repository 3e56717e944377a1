// A unit of relocatable device code (-dc) in the style of hash and
// big-number libraries: its kernels read a __constant__ table and call a
// __device__ function that other files of the program define, and one of
// them loops around warp collectives (g++ gives such a kernel a second,
// local symbol, NAME.localalias, at the same address when it is global).
// nvcc's ptxas prints both kernels under their mangled names, after the
// unit's global memory ("48 bytes gmem").
extern __constant__ unsigned round_keys[64];
extern __device__ unsigned mix(unsigned x);
// The unit's own global memory: 48 bytes ("48 bytes gmem").
__device__ unsigned long long claimed_total;
__device__ int claim_rounds[10];

__global__ void expand(unsigned *out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = mix(round_keys[i % 64] ^ i);
}

__global__ void claim(unsigned long long *slots, unsigned long long key) {
  const int lane = threadIdx.x & 31;
  bool done = false;
  while (!done) {
    const unsigned empty = __ballot_sync(0xffffffffu, slots[lane] == ~0ull);
    const int winner = __ffs(empty) - 1;
    int claimed = 0;
    if (lane == winner) claimed = atomicCAS(&slots[lane], ~0ull, key) == ~0ull;
    done = __shfl_sync(0xffffffffu, claimed, winner);
    claim_rounds[lane % 10]++;
  }
  if (lane == 0) atomicAdd(&claimed_total, 1ull);
}
