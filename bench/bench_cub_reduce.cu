/*
 * bench_cub_reduce.cu: the sum of each block's 256 floats, by
 * cub::BlockReduce (the toolkit's CUB, BLOCK_REDUCE_WARP_REDUCTIONS and
 * BLOCK_REDUCE_RAKING) against the hand-written shared-memory tree of
 * examples/block_sum (included as it is), in one process: each variant is
 * launched in turn, several times, and the minimum time of each is kept.
 * Prints the times and "cub_block_reduce_over_hand_written: R" (CUB's
 * default algorithm over the hand-written kernel). run_bench.sh runs it.
 */
#include <chrono>
#include <cmath>
#include <cstdio>
#include <vector>

#include <cub/block/block_reduce.cuh>

#include "../examples/block_sum/block_sum.cu"

template <cub::BlockReduceAlgorithm ALG>
__global__ void cub_block_sum(int n, const float *x, float *sums) {
  using BR = cub::BlockReduce<float, BLOCK_SUM_THREADS, ALG>;
  __shared__ typename BR::TempStorage tmp;
  const int i = blockIdx.x * BLOCK_SUM_THREADS + threadIdx.x;
  const float s = BR(tmp).Sum(i < n ? x[i] : 0.0f);
  if (threadIdx.x == 0) sums[blockIdx.x] = s;
}

template <typename Launch> static double best_ms(Launch launch, int reps) {
  double best = 1e30;
  for (int r = 0; r < reps; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    launch();
    cudaDeviceSynchronize();
    auto t1 = std::chrono::steady_clock::now();
    const double ms = std::chrono::duration<double, std::milli>(t1 - t0).count();
    best = ms < best ? ms : best;
  }
  return best;
}

int main(int argc, char **argv) {
  const int n = 1 << 20, blocks = n / BLOCK_SUM_THREADS;
  const int reps = argc > 1 ? std::atoi(argv[1]) : 7;
  std::vector<float> hx(n);
  for (int i = 0; i < n; ++i) hx[i] = (float)((i * 37) % 101) * 0.25f;
  float *x, *sums;
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&sums, 3 * blocks * sizeof(float));
  cudaMemcpy(x, hx.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  double hand = 1e30, warp = 1e30, raking = 1e30;
  for (int round = 0; round < 3; ++round) { /* interleaved */
    double h = best_ms([&] { block_sum<<<blocks, BLOCK_SUM_THREADS>>>(n, x, sums); }, reps);
    double w = best_ms([&] {
      cub_block_sum<cub::BLOCK_REDUCE_WARP_REDUCTIONS>
          <<<blocks, BLOCK_SUM_THREADS>>>(n, x, sums + blocks);
    }, reps);
    double r = best_ms([&] {
      cub_block_sum<cub::BLOCK_REDUCE_RAKING>
          <<<blocks, BLOCK_SUM_THREADS>>>(n, x, sums + 2 * blocks);
    }, reps);
    hand = h < hand ? h : hand;
    warp = w < warp ? w : warp;
    raking = r < raking ? r : raking;
  }
  std::vector<float> got(3 * blocks);
  cudaMemcpy(got.data(), sums, got.size() * sizeof(float), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int b = 0; b < blocks; ++b) {
    double want = 0;
    for (int t = 0; t < BLOCK_SUM_THREADS; ++t) want += hx[b * BLOCK_SUM_THREADS + t];
    for (int v = 0; v < 3; ++v) bad += std::fabs(got[v * blocks + b] - want) > 1e-3 * want + 1e-3;
  }
  std::printf("hand_written_ms: %.3f\ncub_warp_reductions_ms: %.3f\ncub_raking_ms: %.3f\n", hand,
              warp, raking);
  std::printf("cub_block_reduce_over_hand_written: %.2f\n", warp / hand);
  std::printf("cub_raking_over_hand_written: %.2f\n", raking / hand);
  if (bad) std::printf("wrong sums: %d\n", bad);
  cudaFree(x);
  cudaFree(sums);
  return bad ? 1 : 0;
}
