// shared_lane_slices.cu: each lane keeps a stack of its own in a row of a
// two-dimensional __shared__ array (`st[tid][depth]`), as the n-queens
// solver of the ISPASS-2009 suite does, and pushes and pops it in a loop
// with no barrier; then a table of its own in a column (`ways[s][tid]`).
// Those accesses touch no other lane's slice, so they need no lockstep
// (docs/warp-lockstep.md): stepped, each one cost a switch between lanes and
// the loops ran about 50 times slower than unstepped (bench/bench_warp_lockstep.cu
// measures it). A loop that does
// exchange values between rows (`x[t][k] += x[t ^ 16][k]`) is still run in
// lockstep and gives a GPU's result.
#include <cstdio>
#include <ctime>

#define LANES 64
#define DEPTH 12

// Counts the subsets of {1..DEPTH} whose sum is `target` by an explicit
// depth-first search, one target per thread.
__global__ void count_subsets(const int *targets, int *counts) {
  __shared__ int sum[LANES][DEPTH + 1];
  __shared__ int next[LANES][DEPTH + 1];
  const int tid = threadIdx.x;
  const int target = targets[tid];
  int found = 0, d = 0;
  sum[tid][0] = 0;
  next[tid][0] = 1;
  while (d >= 0) {
    if (next[tid][d] > DEPTH) {
      --d;
      continue;
    }
    const int v = next[tid][d]++;
    const int s = sum[tid][d] + v;
    if (s == target) ++found;
    if (s < target) {
      sum[tid][d + 1] = s;
      next[tid][d + 1] = v + 1;
      ++d;
    }
  }
  counts[tid] = found;
}

// Counts the same subsets by dynamic programming over a table kept in the
// thread's column: ways[s][tid] is the number of subsets of the values seen
// so far that sum to s.
#define SUMS 80
__global__ void count_subsets_dp(const int *targets, int *counts) {
  __shared__ int ways[SUMS][LANES];
  const int tid = threadIdx.x;
  for (int s = 0; s < SUMS; ++s) ways[s][tid] = s == 0;
  for (int v = 1; v <= DEPTH; ++v)
    for (int s = SUMS - 1; s >= v; --s) ways[s][tid] += ways[s - v][tid];
  counts[tid] = ways[targets[tid]][tid] - (targets[tid] == 0);
}

// Adds to each row the row of the lane 16 away, in a loop with no barrier:
// an exchange between the lanes' rows, which a converged warp makes
// together (all loads before all stores).
__global__ void swap_halves(int *out) {
  __shared__ int x[32][4];
  const int t = threadIdx.x;
  for (int k = 0; k < 4; ++k) x[t][k] = t * 10 + k;
  __syncwarp();
  for (int k = 0; k < 4; ++k) x[t][k] += x[t ^ 16][k];
  __syncwarp();
  for (int k = 0; k < 4; ++k) out[t * 4 + k] = x[t][k];
}

static int subsets(int target) {
  int n = 0;
  for (int m = 1; m < (1 << DEPTH); ++m) {
    int s = 0;
    for (int b = 0; b < DEPTH; ++b)
      if (m & (1 << b)) s += b + 1;
    n += s == target;
  }
  return n;
}

int main() {
  int targets[LANES], *d_targets, *d_counts, counts[LANES];
  for (int i = 0; i < LANES; ++i) targets[i] = 10 + i;
  cudaMalloc(&d_targets, sizeof targets);
  cudaMalloc(&d_counts, sizeof counts);
  cudaMemcpy(d_targets, targets, sizeof targets, cudaMemcpyHostToDevice);
  const clock_t start = clock();
  for (int r = 0; r < 40; ++r) count_subsets<<<1, LANES>>>(d_targets, d_counts);
  cudaDeviceSynchronize();
  const double seconds = (double)(clock() - start) / CLOCKS_PER_SEC;
  cudaMemcpy(counts, d_counts, sizeof counts, cudaMemcpyDeviceToHost);
  for (int i = 0; i < LANES; ++i)
    if (counts[i] != subsets(targets[i])) {
      printf("FAIL: target %d: %d subsets, expected %d\n", targets[i],
             counts[i], subsets(targets[i]));
      return 1;
    }
  const clock_t start_dp = clock();
  for (int r = 0; r < 500; ++r) count_subsets_dp<<<1, LANES>>>(d_targets, d_counts);
  cudaDeviceSynchronize();
  const double seconds_dp = (double)(clock() - start_dp) / CLOCKS_PER_SEC;
  cudaMemcpy(counts, d_counts, sizeof counts, cudaMemcpyDeviceToHost);
  for (int i = 0; i < LANES; ++i)
    if (counts[i] != subsets(targets[i])) {
      printf("FAIL: dp target %d: %d subsets, expected %d\n", targets[i],
             counts[i], subsets(targets[i]));
      return 1;
    }
  int *d_out, out[128];
  cudaMalloc(&d_out, sizeof out);
  swap_halves<<<1, 32>>>(d_out);
  cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost);
  for (int t = 0; t < 32; ++t)
    for (int k = 0; k < 4; ++k)
      if (out[t * 4 + k] != t * 10 + k + (t ^ 16) * 10 + k) {
        printf("FAIL: swap_halves lane %d [%d] = %d\n", t, k, out[t * 4 + k]);
        return 1;
      }
  // Its speed (the rows are not run in lockstep) is bench_warp_lockstep's
  // "lane rows" ratio: tests check results, benchmarks time.
  printf("search: %.3f s, table: %.3f s of processor time\n", seconds,
         seconds_dp);
  printf("PASS\n");
  return 0;
}
