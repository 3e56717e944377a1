/*
 * cuda_barrier.cu: cuda::barrier<cuda::thread_scope_block> and
 * cuda::memcpy_async (<cuda/barrier>): copies by the block, by its warps
 * and by single threads, with byte counts and cuda::aligned_size_t,
 * completed through the barrier's phases; split arrive/wait, a completion
 * function, wait_parity and arrive_and_drop; and misuse, which the
 * emulator reports naming the line marked in a comment here
 * (tests/check_groups.c checks them all). The misuse kernels compile with
 * nvcc; on a GPU they hang or are undefined.
 */
/* The shims' own <cuda/barrier> (what builds without CCCL get) is the one
 * tested here: with the toolkit's CCCL on the include path, which modules
 * get as programs do (docs/cccl.md), it would be libcu++'s. */
#define CUEMU_OWN_CUDA_BARRIER 1

#include <cooperative_groups.h>
#include <cuda/barrier>
#include <utility>

/* As CUDA's samples do: nvcc warns that a __shared__ cuda::barrier has a
 * constructor, which init() makes harmless. */
#ifdef __CUDACC__
#pragma nv_diag_suppress 20054
#endif

namespace cg = cooperative_groups;
using block_barrier = cuda::barrier<cuda::thread_scope_block>;

static_assert(cuda::thread_scope_system == 0 && cuda::thread_scope_device == 1 &&
                  cuda::thread_scope_block == 2 && cuda::thread_scope_thread == 10,
              "CUDA's thread scope values");

/* Each block copies its n ints (n <= 1024) of src into shared memory with
 * the whole block; reverses them one int per thread (single-thread
 * memcpy_async); copies them back with aligned_size_t<16> (void pointers
 * when n is not a multiple of 4); then, in a block that is a whole number
 * of warps, the warps copy 32-int slices to a third buffer. Each copy
 * completes with a phase of one barrier. dst gets the reversed ints times
 * two. */
extern "C" __global__ void barrier_copy(const int *src, int *dst, int n) {
  __shared__ block_barrier bar;
  __shared__ __align__(16) int first[1024];
  __shared__ __align__(16) int second[1024];
  __shared__ __align__(16) int third[1024];
  cg::thread_block block = cg::this_thread_block();
  unsigned r = block.thread_rank(), size = block.size();
  if (r == 0)
    init(&bar, size);
  block.sync();
  const int *mine = src + (size_t)blockIdx.x * n;

  cuda::memcpy_async(block, first, mine, sizeof(int) * n, bar);
  bar.arrive_and_wait();

  for (unsigned k = r; k < (unsigned)n; k += size)
    cuda::memcpy_async(&second[k], &first[n - 1 - k], sizeof(int), bar);
  block_barrier::arrival_token token = bar.arrive();
  bar.wait(std::move(token));

  if (n % 4 == 0)
    cuda::memcpy_async(block, first, second, cuda::aligned_size_t<16>(sizeof(int) * n), bar);
  else
    cuda::memcpy_async(block, (void *)first, (const void *)second, sizeof(int) * n, bar);
  bar.arrive_and_wait();

  const int *last = first;
  if (size % 32 == 0) {
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    for (unsigned at = warp.meta_group_rank() * 32u; at < (unsigned)n;
         at += warp.meta_group_size() * 32u) {
      size_t count = (unsigned)n - at < 32u ? (unsigned)n - at : 32u;
      cuda::memcpy_async(warp, third + at, first + at, sizeof(int) * count, bar);
    }
    bar.arrive_and_wait();
    last = third;
  }
  for (unsigned k = r; k < (unsigned)n; k += size)
    dst[(size_t)blockIdx.x * n + k] = last[k] * 2;
}

/* Counts the phases of a barrier. */
struct count_phases {
  int *phases;
  __device__ void operator()() noexcept { ++*phases; }
};

/* Two phases of a plain barrier waited for by parity; then phases of a
 * barrier with a completion function: `rounds` rounds in which every thread publishes a value,
 * arrives, works, waits, and reads its neighbour's value; then the odd
 * threads leave the barrier (arrive_and_drop) while the even ones finish
 * that phase and one more of their own. out[3 r ...] gets the sum read,
 * the phases counted after the rounds, and (even threads) at the end. */
extern "C" __global__ void barrier_phases(int *out, int rounds) {
  __shared__ cuda::barrier<cuda::thread_scope_block, count_phases> bar;
  __shared__ block_barrier plain;
  __shared__ int phases;
  __shared__ int data[1024];
  cg::thread_block block = cg::this_thread_block();
  unsigned r = block.thread_rank(), n = block.size();
  if (r == 0) {
    phases = 0;
    init(&bar, n, count_phases{&phases});
    init(&plain, n);
  }
  block.sync();
  (void)plain.arrive();
  plain.wait_parity(false);
  (void)plain.arrive();
  plain.wait_parity(true);
  int acc = 0;
  for (int round = 0; round < rounds; ++round) {
    data[r] = (int)(r * 7u) + round;
    auto token = bar.arrive();
    acc += round;
    bar.wait(std::move(token));
    acc += data[(r + 1) % n];
    bar.arrive_and_wait();
  }
  out[3 * r] = acc;
  out[3 * r + 1] = phases;
  if (r % 2) {
    bar.arrive_and_drop();
    out[3 * r + 2] = -1;
  } else {
    bar.arrive_and_wait();
    bar.arrive_and_wait();
    out[3 * r + 2] = phases;
  }
}

/* ---- Misuse ---------------------------------------------------------------- */

/* The barrier expects one arrival more than the block has: its waits never
 * end. */
extern "C" __global__ void barrier_misuse_never(int *out) {
  __shared__ block_barrier bar;
  cg::thread_block block = cg::this_thread_block();
  if (block.thread_rank() == 0)
    init(&bar, block.size() + 1);
  block.sync();
  bar.arrive_and_wait(); /* BARRIER-NEVER */
  out[threadIdx.x] = 1;
}

/* Two arrivals where the phase expects one. */
extern "C" __global__ void barrier_misuse_overflow(int *out) {
  __shared__ block_barrier bar;
  cg::thread_block block = cg::this_thread_block();
  if (block.thread_rank() == 0)
    init(&bar, 1);
  block.sync();
  if (block.thread_rank() == 0)
    bar.wait(bar.arrive(2)); /* BARRIER-OVERFLOW */
  out[threadIdx.x] = 1;
}

/* aligned_size_t<16> with a pointer that is not 16-byte aligned. */
extern "C" __global__ void barrier_misuse_aligned(int *out) {
  __shared__ block_barrier bar;
  __shared__ __align__(16) int buf[64];
  cg::thread_block block = cg::this_thread_block();
  if (block.thread_rank() == 0)
    init(&bar, block.size());
  block.sync();
  cuda::memcpy_async(block, buf + 1, out, cuda::aligned_size_t<16>(16), bar); /* BARRIER-ALIGNED */
  bar.arrive_and_wait();
}

/* A barrier that init() never set up. */
extern "C" __global__ void barrier_misuse_uninit(int *out) {
  __shared__ block_barrier never_set;
  never_set.arrive_and_wait(); /* BARRIER-UNINIT */
  out[threadIdx.x] = 1;
}
