// alloc_in_stream_order.cu: stream-ordered allocation returns at once, as
// CUDA's does, while the stream's earlier work is still pending:
//  - cudaMallocAsync, cudaFreeAsync (and cudaMallocFromPoolAsync) behind a
//    kernel that holds the stream until the host raises a flag return
//    without waiting for it (a host that waited would only get on when a
//    valve thread raises the flag after seconds: the test fails then);
//  - a loop that allocates, uses and frees on the held stream computes the
//    right sums, and reuses the freed blocks (the pool's used memory stays
//    at one round's);
//  - a block freed on one stream serves another that waited for an event
//    recorded after the free (cudaMemPoolReuseFollowEventDependencies),
//    and not a third stream with no order to the free while the free has
//    not run (AllowOpportunistic only takes completed frees).
// CUEMU_OPTIONS: -std=c++17
#include <cuda_runtime.h>

#include <cstdint>

#include "../check.cuh"
#include "ordered_kernels.cuh"

#define RT(call) CHECK((call) == cudaSuccess)

static const int N = 1 << 14;
static const int Rounds = 6;

static long long expected_sum(int round) {
  // sum over i of 2 * (i + round) + 1.
  return 2LL * ((long long)N * (N - 1) / 2 + (long long)N * round) + N;
}

static uint64_t pool_attr(cudaMemPool_t pool, cudaMemPoolAttr a) {
  uint64_t v = 0;
  RT(cudaMemPoolGetAttribute(pool, a, &v));
  return v;
}

// A loop of allocate, compute, free on a held stream.
static void loop_on_held_stream() {
  cudaStream_t s;
  RT(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  cudaMemPool_t pool;
  RT(cudaDeviceGetDefaultMemPool(&pool, 0));
  uint64_t zero = 0;
  RT(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &zero));
  int *sums;
  RT(cudaMalloc(&sums, Rounds * sizeof(int)));
  RT(cudaMemset(sums, 0, Rounds * sizeof(int)));
  Hold hold(5.0);
  hold_until<<<1, 32, 0, s>>>(hold.dflag);
  for (int round = 0; round < Rounds; ++round) {
    int *a = nullptr, *b = nullptr;
    RT(cudaMallocAsync(&a, N * sizeof(int), s));
    RT(cudaMallocFromPoolAsync(&b, N * sizeof(int), pool, s));
    CHECK(a && b && a != b);
    fill<int><<<N / 256, 256, 0, s>>>(a, N, 1, round);
    twice_plus<int><<<N / 256, 256, 0, s>>>(a, b, N, 1);
    RT(cudaFreeAsync(a, s));
    sum_into<int><<<N / 256, 256, 0, s>>>(b, N, sums + round);
    RT(cudaFreeAsync(b, s));
  }
  if (!streams_run_inline()) {
    CHECK(cudaStreamQuery(s) == cudaErrorNotReady);
    CHECK(cudaGetLastError() == cudaSuccess);
  }
  CHECK(hold.release()); // the host was never held
  RT(cudaStreamSynchronize(s));
  int host[Rounds];
  RT(cudaMemcpy(host, sums, sizeof host, cudaMemcpyDeviceToHost));
  for (int round = 0; round < Rounds; ++round)
    CHECK(host[round] == (int)expected_sum(round));
#ifdef __CUEMU__
  // Each round took the blocks the round before freed on the stream.
  CHECK(pool_attr(pool, cudaMemPoolAttrUsedMemHigh) <= 2 * N * sizeof(int) +
                                                           2 * 65536);
#endif
  CHECK(pool_attr(pool, cudaMemPoolAttrUsedMemCurrent) == 0);
  RT(cudaFree(sums));
  RT(cudaStreamDestroy(s));
}

// Reuse across streams follows the event dependencies.
static void reuse_across_streams() {
  cudaStream_t s1, s2, s3;
  RT(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
  RT(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
  RT(cudaStreamCreateWithFlags(&s3, cudaStreamNonBlocking));
  cudaEvent_t freed;
  RT(cudaEventCreateWithFlags(&freed, cudaEventDisableTiming));
  int *sum;
  RT(cudaMalloc(&sum, 2 * sizeof(int)));
  RT(cudaMemset(sum, 0, 2 * sizeof(int)));
  Hold hold(5.0);
  int *a = nullptr, *b = nullptr, *c = nullptr;
  hold_until<<<1, 32, 0, s1>>>(hold.dflag);
  RT(cudaMallocAsync(&a, N * sizeof(int), s1));
  fill<int><<<N / 256, 256, 0, s1>>>(a, N, 7, 0);
  RT(cudaFreeAsync(a, s1));
  RT(cudaEventRecord(freed, s1));
  RT(cudaStreamWaitEvent(s2, freed, 0));
  RT(cudaMallocAsync(&b, N * sizeof(int), s2));
  RT(cudaMallocAsync(&c, N * sizeof(int), s3));
#ifdef __CUEMU__
  if (!streams_run_inline()) {
    CHECK(b == a); // s2 is ordered after the free
    CHECK(c != a); // s3 is not, and the free has not run
  }
#endif
  fill<int><<<N / 256, 256, 0, s2>>>(b, N, 1, 0);
  twice_plus<int><<<N / 256, 256, 0, s2>>>(b, b, N, 1);
  sum_into<int><<<N / 256, 256, 0, s2>>>(b, N, sum);
  fill<int><<<N / 256, 256, 0, s3>>>(c, N, 1, 3);
  twice_plus<int><<<N / 256, 256, 0, s3>>>(c, c, N, 1);
  sum_into<int><<<N / 256, 256, 0, s3>>>(c, N, sum + 1);
  RT(cudaFreeAsync(b, s2));
  RT(cudaFreeAsync(c, s3));
  if (!streams_run_inline())
    CHECK(cudaStreamQuery(s2) == cudaErrorNotReady);
  cudaGetLastError();
  CHECK(hold.release());
  RT(cudaDeviceSynchronize());
  int host[2];
  RT(cudaMemcpy(host, sum, sizeof host, cudaMemcpyDeviceToHost));
  CHECK(host[0] == (int)expected_sum(0));
  CHECK(host[1] == (int)expected_sum(3));
  RT(cudaEventDestroy(freed));
  RT(cudaFree(sum));
  RT(cudaStreamDestroy(s1));
  RT(cudaStreamDestroy(s2));
  RT(cudaStreamDestroy(s3));
}

int main() {
  RT(cudaSetDeviceFlags(cudaDeviceMapHost));
  loop_on_held_stream();
  reuse_across_streams();
  RT(cudaGetLastError());
  return finish();
}
