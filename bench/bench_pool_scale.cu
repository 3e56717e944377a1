// bench_pool_scale.cu: the CPU cost of one stream-ordered allocation and
// its free (cudaMallocAsync(16) then cudaFreeAsync on one stream) with
// 100 allocations live against 100,000 live, as graph-heavy programs and
// per-iteration temporaries (CUB temp storage in a loop) keep them. A GPU's
// cost does not grow with the count; cuemu's should not either (it looked
// allocations up by scanning them all: 38 s for 100,000). Each size is
// measured in rounds interleaved with the other (a round: allocate them
// all, then free them all, then synchronise); the process's CPU time per
// allocation, the minimum over the rounds. Prints
//   pool_scale_small_ns: N   pool_scale_large_ns: N   (the samples)
//   pool_scale_ratio: R      (large over small, minimum over minimum)
// Usage: bench_pool_scale [ROUNDS]
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <vector>

static double cpu_ns() {
  timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return t.tv_sec * 1e9 + t.tv_nsec;
}

// CPU nanoseconds per allocation of `reps` rounds of `live` allocations
// live at once; -1 on an error.
static double per_allocation(cudaStream_t stream, int live, int reps) {
  std::vector<void *> p(live);
  double start = cpu_ns();
  for (int r = 0; r < reps; ++r) {
    for (int i = 0; i < live; ++i)
      if (cudaMallocAsync(&p[i], 16, stream) != cudaSuccess)
        return -1;
    for (int i = 0; i < live; ++i)
      if (cudaFreeAsync(p[i], stream) != cudaSuccess)
        return -1;
    if (cudaStreamSynchronize(stream) != cudaSuccess)
      return -1;
  }
  return (cpu_ns() - start) / ((double)live * reps);
}

int main(int argc, char **argv) {
  int rounds = argc > 1 ? atoi(argv[1]) : 5;
  const int small = 100, large = 100000;
  cudaStream_t stream;
  if (cudaStreamCreate(&stream) != cudaSuccess)
    return 1;
  // The pool keeps its memory between rounds, as a program's would.
  cudaMemPool_t pool;
  unsigned long long keep = ~0ull;
  cudaDeviceGetDefaultMemPool(&pool, 0);
  cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep);
  per_allocation(stream, small, 10); // warm up
  double best_small = 0, best_large = 0;
  std::printf("pool_scale_small_ns:");
  std::vector<double> larges;
  for (int r = 0; r < rounds; ++r) {
    double s = per_allocation(stream, small, large / small);
    double l = per_allocation(stream, large, 1);
    if (s < 0 || l < 0) {
      std::fprintf(stderr, "bench_pool_scale: an allocation failed\n");
      return 1;
    }
    std::printf(" %.0f", s);
    larges.push_back(l);
    if (r == 0 || s < best_small)
      best_small = s;
    if (r == 0 || l < best_large)
      best_large = l;
  }
  std::printf("\npool_scale_large_ns:");
  for (double l : larges)
    std::printf(" %.0f", l);
  std::printf("\npool_scale_ratio: %.2f\n", best_large / best_small);
  return 0;
}
