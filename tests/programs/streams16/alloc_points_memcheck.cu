// alloc_points_memcheck.cu: a stream-ordered allocation exists from its
// place in its stream on, and memcheck (built with --check=mem) sees it so,
// as compute-sanitizer's stream-ordered race tracking does:
//  - a block whose cudaFreeAsync is still queued, taken over by a later
//    cudaMallocAsync of the same size on the same stream, serves that
//    allocation correctly (the kernels after it read and write it), but a
//    kernel issued between the free and that allocation uses freed memory:
//    memcheck reports it (cuemu once made the block live again from the
//    new allocation's call, so the use was hidden);
//  - the pointer from a cudaMallocAsync that took a block over is valid
//    for host calls issued after it even while its stream has run the old
//    free but not reached the new allocation (cuemu once dropped it from
//    its table then: cudaMemsetAsync refused it, cudaPointerGetAttributes
//    did not know it, and cudaMemcpyAsync from pinned memory waited for
//    the held stream);
//  - a kernel on another stream, not ordered after the allocation, that
//    runs while the allocating stream has not reached it (the stream is
//    held by a kernel that waits for the host) is a use before the
//    allocation: memcheck reports it (cuemu once did not).
// Each wrong use makes the device's error sticky: cudaDeviceReset clears it.
// CUEMU_OPTIONS: --check=mem -std=c++17
#include <cstdlib>
#include <cuda_runtime.h>

#include <cstdint>

#include "../check.cuh"
#include "../ordered/ordered_kernels.cuh"

#define RT(call) CHECK((call) == cudaSuccess)

constexpr int kN = 8192;

static bool launch_failed(cudaError_t e) {
  return e == cudaErrorLaunchFailure || e == cudaErrorIllegalAddress;
}

// The pool keeps what is freed, so that blocks are reused.
static void keep_freed_blocks() {
  cudaMemPool_t pool;
  RT(cudaDeviceGetDefaultMemPool(&pool, 0));
  uint64_t keep = UINT64_MAX;
  RT(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep));
}

// Holds the stream, then allocates, fills and frees on it: the returned
// allocation's free is queued behind the held kernel.
static int *allocate_fill_free(cudaStream_t s, Hold &hold) {
  int *a = nullptr;
  hold_until<<<1, 32, 0, s>>>(hold.dflag);
  RT(cudaMallocAsync(&a, kN * sizeof(int), s));
  fill<int><<<kN / 256, 256, 0, s>>>(a, kN, 1, 0);
  RT(cudaFreeAsync(a, s));
  return a;
}

// Right: allocate, use, free, allocate again (the block is taken over while
// its free is queued behind a held kernel), use the new allocation.
static void take_over_serves_new_allocation(cudaStream_t s, int *sum) {
  int *b = nullptr;
  Hold hold(5.0);
  allocate_fill_free(s, hold);
  RT(cudaMallocAsync(&b, kN * sizeof(int), s));
  fill<int><<<kN / 256, 256, 0, s>>>(b, kN, 3, 1); // 3i + 1
  sum_into<int><<<kN / 256, 256, 0, s>>>(b, kN, sum);
  RT(cudaFreeAsync(b, s));
  CHECK(hold.release()); // the host was not held
  RT(cudaStreamSynchronize(s));
  int host = 0;
  RT(cudaMemcpy(&host, sum, sizeof host, cudaMemcpyDeviceToHost));
  CHECK(host == 3 * (kN * (kN - 1) / 2) + kN);
}

// Sets *reached, then holds the stream until *flag is non-zero.
__global__ void mark_and_hold(volatile int *reached, const volatile int *flag) {
  if (threadIdx.x == 0 && blockIdx.x == 0) {
    *reached = 1;
    while (*flag == 0) {
    }
  }
}

// Right: the stream runs the old free and is held before the allocation
// that took the block over; host calls issued meanwhile take its pointer.
static void take_over_pointer_valid_before_point(cudaStream_t s) {
  int *a = nullptr, *b = nullptr, *reached = nullptr, *dreached = nullptr,
      *pinned = nullptr;
  RT(cudaHostAlloc(&reached, sizeof(int), cudaHostAllocMapped));
  RT(cudaHostGetDevicePointer(&dreached, reached, 0));
  RT(cudaMallocHost(&pinned, kN * sizeof(int)));
  for (int i = 0; i < kN; ++i)
    pinned[i] = 7 * i;
  *reached = 0;
  Hold hold(5.0);
  RT(cudaMallocAsync(&a, kN * sizeof(int), s));
  fill<int><<<kN / 256, 256, 0, s>>>(a, kN, 1, 0);
  RT(cudaFreeAsync(a, s));
  mark_and_hold<<<1, 32, 0, s>>>(dreached, hold.dflag);
  RT(cudaMallocAsync(&b, kN * sizeof(int), s));
  // The stream has run the free once the held kernel runs (bounded wait:
  // the valve ends the hold after 5 s).
  for (int i = 0; i < 5000 && !__atomic_load_n(reached, __ATOMIC_ACQUIRE);
       ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  CHECK(*reached == 1);
  cudaPointerAttributes at{};
  RT(cudaPointerGetAttributes(&at, b));
  CHECK(at.type == cudaMemoryTypeDevice && at.devicePointer == b);
  RT(cudaMemsetAsync(b, 0, kN * sizeof(int), s));
  RT(cudaMemcpyAsync(b, pinned, kN / 2 * sizeof(int), cudaMemcpyHostToDevice,
                     s));
  CHECK(hold.release()); // neither call waited for the held stream
  RT(cudaStreamSynchronize(s));
  int *back = nullptr;
  RT(cudaMallocHost(&back, kN * sizeof(int)));
  RT(cudaMemcpy(back, b, kN * sizeof(int), cudaMemcpyDeviceToHost));
  bool same = true;
  for (int i = 0; i < kN; ++i)
    same = same && back[i] == (i < kN / 2 ? 7 * i : 0);
  CHECK(same);
  RT(cudaFreeAsync(b, s));
  RT(cudaStreamSynchronize(s));
  RT(cudaFreeHost(back));
  RT(cudaFreeHost(pinned));
  RT(cudaFreeHost(reached));
}

// Wrong: a kernel between the free and the allocation that takes the block
// over reads the freed allocation.
static void use_between_free_and_take_over(cudaStream_t s, int *sum) {
  int *b = nullptr;
  Hold hold(5.0);
  int *a = allocate_fill_free(s, hold);
  sum_into<int><<<kN / 256, 256, 0, s>>>(a, kN, sum); // after the free
  // With CUEMU_STREAMS=sync the wrong use has run (and failed) already.
  cudaError_t e = cudaMallocAsync(&b, kN * sizeof(int), s);
  CHECK(e == cudaSuccess || (streams_run_inline() && launch_failed(e)));
  if (e == cudaSuccess)
    fill<int><<<kN / 256, 256, 0, s>>>(b, kN, 1, 0);
  CHECK(hold.release());
  CHECK(launch_failed(cudaStreamSynchronize(s)));
}

// Wrong: a kernel on s2 uses s1's allocation before s1 has reached it.
static void use_before_alloc(cudaStream_t s1, cudaStream_t s2) {
  int *p = nullptr;
  Hold hold(5.0);
  hold_until<<<1, 32, 0, s1>>>(hold.dflag);
  RT(cudaMallocAsync(&p, kN * sizeof(int), s1));
  fill<int><<<kN / 256, 256, 0, s2>>>(p, kN, 1, 0); // not ordered after it
  cudaError_t e = cudaStreamSynchronize(s2);
  CHECK(hold.release());
  // Issued one after the other, the operations run in that order: the
  // allocation is reached before the kernel runs, and nothing is wrong
  // that the emulator can see.
  if (streams_run_inline())
    CHECK(e == cudaSuccess);
  else
    CHECK(launch_failed(e));
  cudaDeviceSynchronize();
}

int main() {
#ifdef __CUEMU__
  /* Its memcheck reports are expected: they leave the exit status 0
   * (they count for it otherwise, docs/checkers.md). */
  setenv("CUEMU_CHECK_EXIT_STATUS", "0", 1);
#endif
  RT(cudaSetDeviceFlags(cudaDeviceMapHost));
  for (int round = 0; round < 3; ++round) {
    keep_freed_blocks();
    cudaStream_t s1, s2;
    RT(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
    RT(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
    int *sum;
    RT(cudaMalloc(&sum, sizeof(int)));
    RT(cudaMemset(sum, 0, sizeof(int)));
    if (round == 0) {
      take_over_serves_new_allocation(s1, sum);
      take_over_pointer_valid_before_point(s1);
      RT(cudaStreamDestroy(s1));
      RT(cudaStreamDestroy(s2));
      RT(cudaFree(sum));
    } else if (round == 1) {
      use_between_free_and_take_over(s1, sum);
    } else {
      use_before_alloc(s1, s2);
    }
    RT(cudaDeviceReset()); // clears the sticky error of a wrong use
    RT(cudaSetDeviceFlags(cudaDeviceMapHost));
  }
  return finish();
}
