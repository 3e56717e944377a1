/*
 * ptx_sm90.cu: inline PTX of sm_90 that producer-consumer kernels and
 * lock-free code use, against the PTX ISA's definitions:
 * - mbarrier transaction counts: a phase completes only when its pending
 *   arrivals and its tx-count are both zero (expect_tx, complete_tx,
 *   arrive.expect_tx, try_wait.parity / test_wait.parity);
 * - cp.async.bulk global -> shared::cluster with
 *   mbarrier::complete_tx::bytes, shared -> global with bulk_group and
 *   commit_group / wait_group;
 * - bar.red of part of a block (a named barrier of 64 threads that counts,
 *   ands and ors predicates);
 * - ret, which ends a kernel's thread;
 * - %total_smem_size (static and dynamic shared memory in the allocation
 *   units of sm_9x, 128 bytes) and %aggr_smem_size (with the 1 KiB
 *   reserved for the system on sm_90, cudaDevAttrReservedSharedMemoryPerBlock),
 *   and the constant WARP_SZ;
 * - .b128: .reg .b128, the "q" constraint, mov.b128 packing and unpacking,
 *   ld/st.b128 in global and shared memory, atom.cas.b128 (a 128-bit
 *   counter updated by a compare-and-swap loop from every thread) and
 *   atom.exch.b128.
 * Prints PASS when all is well.
 */
#include <cuda_runtime.h>

#include <cstdio>

#include "../check.cuh"

namespace {

constexpr int kItems = 256; /* floats copied per block: 1 KiB */

__device__ unsigned smem_address(const void *p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

__device__ void mbar_init(unsigned long long *bar, unsigned count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_address(bar)), "r"(count)
               : "memory");
}

__device__ bool mbar_test_parity(unsigned long long *bar, unsigned parity) {
  unsigned done;
  asm volatile("{ .reg .pred p;\n\t"
               "mbarrier.test_wait.parity.shared::cta.b64 p, [%1], %2;\n\t"
               "selp.u32 %0, 1, 0, p; }"
               : "=r"(done)
               : "r"(smem_address(bar)), "r"(parity)
               : "memory");
  return done != 0;
}

__device__ void mbar_wait_parity(unsigned long long *bar, unsigned parity) {
  asm volatile("{ .reg .pred done;\n"
               "WAIT:\n\t"
               "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n\t"
               "@!done bra WAIT; }" ::"r"(smem_address(bar)),
               "r"(parity)
               : "memory");
}

__device__ void mbar_arrive(unsigned long long *bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(smem_address(bar)) : "memory");
}

/* tx[0..3] of each block: whether phase 0 had completed after the
 * arrivals with 96 bytes expected (0), after 64 of them completed (0),
 * after all 96 (1); whether phase 1 completed with the copy issued before
 * its expect_tx (1). */
__global__ void transaction_counts(unsigned *tx) {
  __shared__ unsigned long long bar;
  __shared__ unsigned seen[4];
  if (threadIdx.x == 0) {
    mbar_init(&bar, blockDim.x);
    asm volatile("mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%0], %1;" ::"r"(
                     smem_address(&bar)),
                 "r"(96u)
                 : "memory");
  }
  __syncthreads();
  mbar_arrive(&bar);
  __syncthreads(); /* every arrival is in; 96 bytes are still expected */
  if (threadIdx.x == 0) {
    seen[0] = mbar_test_parity(&bar, 0);
    asm volatile("mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [%0], %1;" ::"r"(
                     smem_address(&bar)),
                 "r"(64u)
                 : "memory");
    seen[1] = mbar_test_parity(&bar, 0);
    asm volatile("mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [%0], %1;" ::"r"(
                     smem_address(&bar)),
                 "r"(32u)
                 : "memory");
    seen[2] = mbar_test_parity(&bar, 0);
  }
  __syncthreads();
  /* Phase 1: the transactions complete before they are expected (the
   * tx-count goes below zero), then the arrivals come. */
  if (threadIdx.x == 0)
    asm volatile("mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [%0], %1;" ::"r"(
                     smem_address(&bar)),
                 "r"(48u)
                 : "memory");
  __syncthreads();
  if (threadIdx.x == 0)
    asm volatile("mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 _, [%0], %1;" ::"r"(
                     smem_address(&bar)),
                 "r"(48u)
                 : "memory");
  else
    mbar_arrive(&bar);
  mbar_wait_parity(&bar, 1);
  if (threadIdx.x == 0) {
    seen[3] = mbar_test_parity(&bar, 1);
    for (int k = 0; k < 4; ++k) tx[4 * blockIdx.x + k] = seen[k];
  }
}

/* Each block copies its kItems floats of in into shared memory with one
 * bulk copy, every thread waits on the mbarrier, scales its share, and
 * thread 0 writes the block back with a bulk copy to global memory. */
__global__ void bulk_scale(const float *in, float *out, float factor) {
  alignas(16) __shared__ float tile[kItems];
  alignas(16) __shared__ float result[kItems];
  __shared__ unsigned long long bar;
  const unsigned bytes = kItems * sizeof(float);
  if (threadIdx.x == 0) mbar_init(&bar, blockDim.x);
  __syncthreads();
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(
                     smem_address(&bar)),
                 "r"(bytes)
                 : "memory");
    asm volatile(
        "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, "
        "[%3];" ::"r"(smem_address(tile)),
        "l"(in + blockIdx.x * kItems), "r"(bytes), "r"(smem_address(&bar))
        : "memory");
  } else {
    mbar_arrive(&bar);
  }
  mbar_wait_parity(&bar, 0);
  for (int i = threadIdx.x; i < kItems; i += blockDim.x) result[i] = factor * tile[i];
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  if (threadIdx.x == 0) {
    asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" ::"l"(
                     out + blockIdx.x * kItems),
                 "r"(smem_address(result)), "r"(bytes)
                 : "memory");
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
    asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
    asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
  }
}

/* bar.red of half a block: warps 0-1 on barrier 1, warps 2-3 on barrier
 * 2, each 64 threads, reducing predicates of their own. */
__global__ void partial_bar_red(unsigned *out) {
  const unsigned t = threadIdx.x;
  unsigned count, all, any;
  if (t < 64) {
    /* Thread t's predicate: t % 3 == 0 (22 of 0..63). */
    asm volatile("{ .reg .pred p, q, r;\n\t"
                 "setp.eq.u32 p, %3, 0;\n\t"
                 "bar.red.popc.u32 %0, 1, 64, p;\n\t"
                 "bar.red.and.pred q, 1, 64, p;\n\t"
                 "barrier.red.or.pred r, 1, 64, !p;\n\t"
                 "selp.u32 %1, 1, 0, q; selp.u32 %2, 1, 0, r; }"
                 : "=r"(count), "=r"(all), "=r"(any)
                 : "r"(t % 3)
                 : "memory");
  } else {
    /* Every predicate true: t >= 64. */
    asm volatile("{ .reg .pred p, q, r;\n\t"
                 "setp.ge.u32 p, %3, 64;\n\t"
                 "bar.red.popc.u32 %0, 2, 64, p;\n\t"
                 "bar.red.and.pred q, 2, 64, p;\n\t"
                 "bar.red.or.pred r, 2, 64, !p;\n\t"
                 "selp.u32 %1, 1, 0, q; selp.u32 %2, 1, 0, r; }"
                 : "=r"(count), "=r"(all), "=r"(any)
                 : "r"(t)
                 : "memory");
  }
  out[t] = count | (all << 16) | (any << 17);
}

/* Odd threads leave through ret before writing. */
__global__ void leave_with_ret(int *out) {
  const unsigned t = threadIdx.x;
  out[t] = -1;
  asm volatile("{ .reg .pred odd;\n\t"
               "setp.ne.u32 odd, %0, 0;\n\t"
               "@odd ret; }" ::"r"(t & 1)
               : "memory");
  out[t] = static_cast<int>(t);
}

/* The shared-memory special registers of a kernel with 256 bytes of
 * static shared memory, launched with `dynamic` bytes more. */
__global__ void smem_sizes(unsigned *out) {
  __shared__ float staged[64];
  extern __shared__ unsigned char dynamic_part[];
  staged[threadIdx.x] = 1.0f;
  dynamic_part[threadIdx.x] = 2;
  __syncthreads();
  unsigned total, aggregate, dynamic, warp;
  asm volatile("mov.u32 %0, %%total_smem_size;\n\t"
               "mov.u32 %1, %%aggr_smem_size;\n\t"
               "mov.u32 %2, %%dynamic_smem_size;\n\t"
               "mov.u32 %3, WARP_SZ;"
               : "=r"(total), "=r"(aggregate), "=r"(dynamic), "=r"(warp));
  if (threadIdx.x == 0 && blockIdx.x == 0) {
    out[0] = total;
    out[1] = aggregate;
    out[2] = dynamic;
    out[3] = static_cast<unsigned>(staged[1] + dynamic_part[1]) + 100 * warp;
  }
}

/* A pair of 64-bit counters updated together. */
struct alignas(16) Pair {
  unsigned long long lo, hi;
};

__device__ unsigned __int128 as_wide(Pair p) {
  return (static_cast<unsigned __int128>(p.hi) << 64) | p.lo;
}

/* Thread 0 of block 0: out[0..1], the halves of {a, b} packed and
 * unpacked; out[2..3], a Pair copied through shared memory with
 * ld/st.b128 (the shared array given as an "l" operand); a failing
 * compare-and-swap and an exchange on exch[0]. Every thread adds (1, t)
 * to *counter with a compare-and-swap loop. */
__global__ void wide_ops(const Pair *in, unsigned long long *out, Pair *counter, Pair *exch) {
  __shared__ Pair staged[2];
  const unsigned t = threadIdx.x;
  if (t == 0 && blockIdx.x == 0) {
    unsigned long long lo, hi;
    unsigned __int128 packed;
    asm volatile("{ .reg .b128 w;\n\t"
                 "mov.b128 w, {%3, %4};\n\t"
                 "mov.b128 %2, w;\n\t"
                 "mov.b128 {%0, %1}, w; }"
                 : "=l"(lo), "=l"(hi), "=q"(packed)
                 : "l"(in[0].lo), "l"(in[0].hi));
    out[0] = lo;
    out[1] = hi;
    out[4] = static_cast<unsigned long long>(packed >> 64) ^ static_cast<unsigned long long>(packed);
    asm volatile("{ .reg .b128 v; .reg .u64 s;\n\t"
                 "ld.global.b128 v, [%0];\n\t"
                 "cvta.to.shared.u64 s, %1;\n\t"
                 "st.shared.b128 [s+16], v; }" ::"l"(in + 1),
                 "l"(staged)
                 : "memory");
    out[2] = staged[1].lo;
    out[3] = staged[1].hi;
    /* A compare-and-swap that fails leaves memory as it was and gives
     * its value; exch gives the old value. */
    unsigned __int128 old, wrong = 7, next = as_wide(Pair{5, 6});
    asm volatile("atom.cas.relaxed.gpu.global.b128 %0, [%1], %2, %3;"
                 : "=q"(old)
                 : "l"(exch), "q"(wrong), "q"(next)
                 : "memory");
    out[5] = static_cast<unsigned long long>(old);
    out[6] = static_cast<unsigned long long>(old >> 64);
    asm volatile("atom.exch.b128 %0, [%1], %2;" : "=q"(old) : "l"(exch), "q"(next) : "memory");
    out[7] = static_cast<unsigned long long>(old) + static_cast<unsigned long long>(old >> 64);
  }
  unsigned __int128 seen = as_wide(*counter), old;
  for (;;) {
    const unsigned __int128 want = seen + (static_cast<unsigned __int128>(t) << 64) + 1;
    asm volatile("atom.cas.b128 %0, [%1], %2, %3;"
                 : "=q"(old)
                 : "l"(counter), "q"(seen), "q"(want)
                 : "memory");
    if (old == seen) break;
    seen = old;
  }
}

} // namespace

int main() {
  const int blocks = 3;
  unsigned *tx = nullptr;
  CHECK(cudaMallocManaged(&tx, 4 * blocks * sizeof(unsigned)) == cudaSuccess);
  transaction_counts<<<blocks, 96>>>(tx);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  for (int b = 0; b < blocks; ++b) {
    CHECK(tx[4 * b + 0] == 0);
    CHECK(tx[4 * b + 1] == 0);
    CHECK(tx[4 * b + 2] == 1);
    CHECK(tx[4 * b + 3] == 1);
  }

  float *in = nullptr, *out = nullptr;
  CHECK(cudaMallocManaged(&in, blocks * kItems * sizeof(float)) == cudaSuccess);
  CHECK(cudaMallocManaged(&out, blocks * kItems * sizeof(float)) == cudaSuccess);
  for (int i = 0; i < blocks * kItems; ++i) {
    in[i] = 0.5f * static_cast<float>(i) - 7.0f;
    out[i] = 0.0f;
  }
  bulk_scale<<<blocks, 64>>>(in, out, 3.0f);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  int wrong = 0;
  for (int i = 0; i < blocks * kItems; ++i) wrong += out[i] != 3.0f * in[i];
  CHECK(wrong == 0);

  unsigned *red = nullptr;
  CHECK(cudaMallocManaged(&red, 128 * sizeof(unsigned)) == cudaSuccess);
  partial_bar_red<<<1, 128>>>(red);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  for (unsigned t = 0; t < 64; ++t) CHECK(red[t] == (22u | (0u << 16) | (1u << 17)));
  for (unsigned t = 64; t < 128; ++t) CHECK(red[t] == (64u | (1u << 16) | (0u << 17)));

  int *left = nullptr;
  CHECK(cudaMallocManaged(&left, 64 * sizeof(int)) == cudaSuccess);
  leave_with_ret<<<1, 64>>>(left);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  for (int t = 0; t < 64; ++t) CHECK(left[t] == ((t & 1) ? -1 : t));

  unsigned *sizes = nullptr;
  int reserved = 0;
  CHECK(cudaMallocManaged(&sizes, 4 * sizeof(unsigned)) == cudaSuccess);
  CHECK(cudaDeviceGetAttribute(&reserved, cudaDevAttrReservedSharedMemoryPerBlock, 0) ==
        cudaSuccess);
  smem_sizes<<<2, 64, 100>>>(sizes);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(sizes[0] == 384); /* 256 + 100 bytes in units of 128 */
  CHECK(sizes[1] == 384 + static_cast<unsigned>(reserved));
  CHECK(sizes[2] == 100);
  CHECK(sizes[3] == 3 + 100 * 32); /* WARP_SZ is 32 */
  CHECK(reserved == 1024);

  Pair *pairs = nullptr, *counter = nullptr, *exch = nullptr;
  unsigned long long *words = nullptr;
  CHECK(cudaMallocManaged(&pairs, 2 * sizeof(Pair)) == cudaSuccess);
  CHECK(cudaMallocManaged(&counter, sizeof(Pair)) == cudaSuccess);
  CHECK(cudaMallocManaged(&exch, sizeof(Pair)) == cudaSuccess);
  CHECK(cudaMallocManaged(&words, 8 * sizeof(unsigned long long)) == cudaSuccess);
  pairs[0] = Pair{0x1122334455667788ULL, 0x99aabbccddeeff00ULL};
  pairs[1] = Pair{0x0123456789abcdefULL, 0xfedcba9876543210ULL};
  *counter = Pair{~0ULL - 40, 100}; /* the low half carries into the high one */
  *exch = Pair{3, 4};
  wide_ops<<<3, 96>>>(pairs, words, counter, exch);
  const cudaError_t wide_status = cudaDeviceSynchronize();
  CHECK(wide_status == cudaSuccess);
  if (wide_status != cudaSuccess) std::printf("%s\n", cudaGetErrorString(wide_status));
  CHECK(words[0] == 0x1122334455667788ULL);
  CHECK(words[1] == 0x99aabbccddeeff00ULL);
  CHECK(words[2] == 0x0123456789abcdefULL);
  CHECK(words[3] == 0xfedcba9876543210ULL);
  CHECK(words[4] == (0x1122334455667788ULL ^ 0x99aabbccddeeff00ULL));
  CHECK(words[5] == 3 && words[6] == 4); /* the failed compare-and-swap */
  CHECK(words[7] == 7);                  /* exch saw {3, 4} */
  CHECK(exch->lo == 5 && exch->hi == 6);
  /* 288 additions of 1 to the low half (40 before the carry) and of
   * 3 * (0 + ... + 95) to the high half, plus the carry. */
  CHECK(counter->lo == 288 - 41);
  CHECK(counter->hi == 100 + 3 * (95 * 96 / 2) + 1);
  CHECK(cudaFree(pairs) == cudaSuccess);
  CHECK(cudaFree(counter) == cudaSuccess);
  CHECK(cudaFree(exch) == cudaSuccess);
  CHECK(cudaFree(words) == cudaSuccess);

  CHECK(cudaFree(sizes) == cudaSuccess);
  CHECK(cudaFree(tx) == cudaSuccess);
  CHECK(cudaFree(in) == cudaSuccess);
  CHECK(cudaFree(out) == cudaSuccess);
  CHECK(cudaFree(red) == cudaSuccess);
  CHECK(cudaFree(left) == cudaSuccess);
  return finish();
}
