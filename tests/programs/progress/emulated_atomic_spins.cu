// emulated_atomic_spins.cu: blocks that wait for a later block through
// atomics that have no instruction of their own on a CPU (built from a
// compare-and-swap loop: float and __half atomicAdd, atomicMax) or through
// a compare-and-swap with computed operands: a float flag read with
// atomicAdd(p, 0.0f), a __half flag with atomicAdd(h, 0), an int flag with
// atomicMax(p, 0), a float flag read by a user's atomicMax for floats (a
// CAS loop through __float_as_int), a 16-bit flag read by atomicCAS(p, z, z)
// with z computed, and a spin lock taken with atomicCAS(lock, 0, id). On a
// GPU every block of the small grid is resident and the waits end; cuemu
// must see each loop as a spin (the atomic leaves memory as it was, again
// and again at one address) and start the block waited for, with
// CUEMU_WORKERS=1 too (tests/programs_progress.sh). cuemu once spun
// forever on them with one worker.
#include <cstdio>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#define CHECK(call)                                                        \
  do {                                                                     \
    cudaError_t err_ = (call);                                             \
    if (err_ != cudaSuccess) {                                             \
      printf("FAIL: %s: %s\n", #call, cudaGetErrorString(err_));           \
      return 1;                                                            \
    }                                                                      \
  } while (0)

enum { kFloatAdd, kHalfAdd, kIntMax, kFloatCasMax, kShortCas, kCasLockId, kForms };
static const char *const kNames[kForms] = {
    "atomicAdd(float *, 0.0f)", "atomicAdd(__half *, 0)", "atomicMax(int *, 0)",
    "user float atomicMax (CAS loop)", "atomicCAS(unsigned short *, z, z)",
    "atomicCAS(lock, 0, id)"};
static const int kBlocks = 6;

struct flags {
  float f[kBlocks];
  __half h[kBlocks];
  int i[kBlocks];
  unsigned short s[kBlocks];
};

// A float atomicMax as real kernels write it: a CAS loop on the bits.
__device__ float atomic_max_float(float *address, float value) {
  int *bits = reinterpret_cast<int *>(address);
  int old = *bits, assumed;
  do {
    assumed = old;
    old = atomicCAS(bits, assumed, __float_as_int(fmaxf(value, __int_as_float(assumed))));
  } while (assumed != old);
  return __int_as_float(old);
}

__device__ bool is_set(flags *fl, int b, int form) {
  // Zero as the compiler cannot know it (blockIdx.x is below 2^31).
  unsigned short z = (unsigned short)(blockIdx.x >> 31);
  switch (form) {
  case kFloatAdd: return atomicAdd(&fl->f[b], 0.0f) != 0.0f;
  case kHalfAdd: return __half2float(atomicAdd(&fl->h[b], __float2half(0.0f))) != 0.0f;
  case kIntMax: return atomicMax(&fl->i[b], 0) != 0;
  case kFloatCasMax: return atomic_max_float(&fl->f[b], 0.0f) != 0.0f;
  default: return atomicCAS(&fl->s[b], z, z) != 0;
  }
}

__device__ void set(flags *fl, int b, int form) {
  switch (form) {
  case kFloatAdd:
  case kFloatCasMax: atomicExch(&fl->f[b], 1.0f); break;
  case kHalfAdd: atomicAdd(&fl->h[b], __float2half(1.0f)); break;
  case kIntMax: atomicExch(&fl->i[b], 1); break;
  default: atomicCAS(&fl->s[b], (unsigned short)0, (unsigned short)1); break;
  }
}

// Block b waits for block b + 1 (the last one waits for nothing), adds its
// number to the sum and sets its own flag. The lock form takes a lock that
// the last block holds at the start and frees when it ends, each block
// with its own id.
__global__ void chain(flags *fl, int *lock, int *sum, int form) {
  if (threadIdx.x != 0)
    return;
  int b = (int)blockIdx.x;
  if (form == kCasLockId) {
    if (b + 1 == (int)gridDim.x) {
      atomicAdd(sum, b);
      atomicExch(lock, 0);
      return;
    }
    while (atomicCAS(lock, 0, b + 1) != 0) {
    }
    atomicAdd(sum, b);
    __threadfence();
    atomicExch(lock, 0);
    return;
  }
  if (b + 1 < (int)gridDim.x)
    while (!is_set(fl, b + 1, form)) {
    }
  atomicAdd(sum, b);
  __threadfence();
  set(fl, b, form);
}

int main() {
  flags *fl;
  int *lock, *sum;
  CHECK(cudaMalloc(&fl, sizeof(flags)));
  CHECK(cudaMalloc(&lock, sizeof(int)));
  CHECK(cudaMallocManaged(&sum, sizeof(int)));
  const int held = kBlocks;
  for (int form = 0; form < kForms; ++form) {
    CHECK(cudaMemset(fl, 0, sizeof(flags)));
    CHECK(cudaMemcpy(lock, &held, sizeof held, cudaMemcpyHostToDevice));
    *sum = 0;
    chain<<<kBlocks, 32>>>(fl, lock, sum, form);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    if (*sum != kBlocks * (kBlocks - 1) / 2) {
      printf("FAIL: %s: sum %d, expected %d\n", kNames[form], *sum, kBlocks * (kBlocks - 1) / 2);
      return 1;
    }
  }
  printf("PASS\n");
  return 0;
}
