// atomic_spin_flags.cu: blocks that wait for a later block through atomics
// only, in each of the forms real kernels use: atomicAdd(p, 0),
// atomicOr(p, 0), atomicCAS(p, 0, 0) as a read, a spin lock taken with
// atomicCAS or atomicExch, cuda::atomic_ref::load and PTX ld.acquire. No
// volatile access and no __nanosleep: on a GPU every block of the small
// grid is resident and the waits end; cuemu sees each loop as a spin
// (the atomic leaves memory as it was, again and again at one address) and
// starts the block waited for, with CUEMU_WORKERS=1 too
// (tests/programs_progress.sh). A last kernel spins with atomics on a
// shared-memory flag that another warp of its block sets.
#include <cstdio>
#include <cuda/atomic>
#include <cuda_runtime.h>

#define CHECK(call)                                                        \
  do {                                                                     \
    cudaError_t err_ = (call);                                             \
    if (err_ != cudaSuccess) {                                             \
      printf("FAIL: %s: %s\n", #call, cudaGetErrorString(err_));           \
      return 1;                                                            \
    }                                                                      \
  } while (0)

enum { kAdd, kOr, kCasRead, kCasLock, kExchLock, kAtomicRef, kLdAcquire, kForms };
static const char *const kNames[kForms] = {
    "atomicAdd(p, 0)", "atomicOr(p, 0)", "atomicCAS(p, 0, 0)", "atomicCAS lock",
    "atomicExch lock", "cuda::atomic_ref load", "ld.acquire"};
static const int kBlocks = 8;

__device__ int read_flag(int *flag, int form) {
  switch (form) {
  case kAdd:
    return atomicAdd(flag, 0);
  case kOr:
    return atomicOr(flag, 0);
  case kCasRead:
    return atomicCAS(flag, 0, 0);
  case kAtomicRef: {
    cuda::atomic_ref<int, cuda::thread_scope_device> ref(*flag);
    return ref.load(cuda::memory_order_acquire);
  }
  default: {
    int v;
    asm volatile("ld.acquire.gpu.global.b32 %0, [%1];" : "=r"(v) : "l"(flag) : "memory");
    return v;
  }
  }
}

// Block b waits for block b + 1 (the last one waits for nothing), then
// adds its number to the sum and sets its own flag. The lock forms take a
// lock that the last block holds at the start and frees when it ends.
__global__ void chain(int *flags, int *lock, int *sum, int form) {
  if (threadIdx.x != 0)
    return;
  unsigned b = blockIdx.x;
  if (form == kCasLock || form == kExchLock) {
    if (b + 1 == gridDim.x) {
      atomicAdd(sum, (int)b);
      atomicExch(lock, 0);
      return;
    }
    if (form == kCasLock)
      while (atomicCAS(lock, 0, 1) != 0) {
      }
    else
      while (atomicExch(lock, 1) != 0) {
      }
    atomicAdd(sum, (int)b);
    __threadfence();
    atomicExch(lock, 0);
    return;
  }
  if (b + 1 < gridDim.x)
    while (read_flag(&flags[b + 1], form) == 0) {
    }
  atomicAdd(sum, (int)b);
  __threadfence();
  atomicExch(&flags[b], 1);
}

// Warp 0 waits for warp 1 of the same block through a shared flag.
__global__ void shared_flag(int *out) {
  __shared__ int flag;
  __shared__ int value;
  if (threadIdx.x == 0) {
    flag = 0;
    value = 0;
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    while (atomicAdd(&flag, 0) == 0) {
    }
    out[blockIdx.x] = atomicAdd(&value, 0);
  } else if (threadIdx.x == 32) {
    atomicExch(&value, 42 + (int)blockIdx.x);
    atomicExch(&flag, 1);
  }
}

int main() {
  int *flags, *lock, *sum, *out;
  CHECK(cudaMalloc(&flags, kBlocks * sizeof(int)));
  CHECK(cudaMalloc(&lock, sizeof(int)));
  CHECK(cudaMallocManaged(&sum, sizeof(int)));
  CHECK(cudaMallocManaged(&out, 2 * sizeof(int)));
  const int one = 1;
  for (int form = 0; form < kForms; ++form) {
    CHECK(cudaMemset(flags, 0, kBlocks * sizeof(int)));
    CHECK(cudaMemcpy(lock, &one, sizeof one, cudaMemcpyHostToDevice));
    *sum = 0;
    chain<<<kBlocks, 32>>>(flags, lock, sum, form);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    if (*sum != kBlocks * (kBlocks - 1) / 2) {
      printf("FAIL: %s: sum %d, expected %d\n", kNames[form], *sum,
             kBlocks * (kBlocks - 1) / 2);
      return 1;
    }
  }
  shared_flag<<<2, 64>>>(out);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  if (out[0] != 42 || out[1] != 43) {
    printf("FAIL: shared flag: %d %d, expected 42 43\n", out[0], out[1]);
    return 1;
  }
  printf("PASS\n");
  return 0;
}
