// member_exchange.cu: warp-synchronous loops in the methods of a class that
// reaches shared memory through a member (docs/warp-lockstep.md), as CUB's
// agents reach their TempStorage through the member reference `s`.
//
// - A method that stores through the member reference into its own slots and
//   synchronises before reading others' exchanges nothing: the plugins must
//   not take the load of the member itself (`this->s`) for a load of another
//   element of the array that the store reaches. (They did in units built by
//   clang++, and every lane of the warp waited at a lockstep step at every
//   store of CUB's radix sort; its speed is bench/bench_sort.cu's: tests
//   check results, benchmarks time.)
// - A method whose loop does exchange values through a member pointer
//   (`p[t] += p[t + s]` with `p` a member, no barrier) is still run in
//   lockstep, with both compilers, and gives the GPU's tree sum; run one lane
//   after another, lane 0 would add elements that no other lane had summed.
#include <cstdio>

#define THREADS 64
#define ITEMS 4

struct ScatterStorage {
  int keys_out[THREADS * ITEMS];
  int counts[THREADS];
};

// Scatters each thread's keys to the ranks it computed, through the member
// reference `s`, then reads them back in order.
struct Scatterer {
  ScatterStorage &s;
  __device__ explicit Scatterer(ScatterStorage &storage) : s(storage) {}
  __device__ void scatter(const int (&keys)[ITEMS], const int (&ranks)[ITEMS]) {
    for (int u = 0; u < ITEMS; ++u)
      s.keys_out[ranks[u]] = keys[u];
  }
  __device__ void count(int t) {
    for (int u = 0; u < ITEMS; ++u)
      s.counts[t] += s.keys_out[t * ITEMS + u] != 0;
  }
};

__global__ void member_scatter(const int *in, int *out, int *counts) {
  __shared__ ScatterStorage storage;
  const int t = threadIdx.x;
  int keys[ITEMS], ranks[ITEMS];
  for (int u = 0; u < ITEMS; ++u) {
    keys[u] = in[t * ITEMS + u];
    // Item u of thread t goes to slot u * THREADS + t (a transpose).
    ranks[u] = u * THREADS + t;
  }
  storage.counts[t] = 0;
  Scatterer agent(storage);
  agent.scatter(keys, ranks);
  __syncthreads();
  agent.count(t);
  for (int u = 0; u < ITEMS; ++u)
    out[t * ITEMS + u] = storage.keys_out[t * ITEMS + u];
  counts[t] = storage.counts[t];
}

// Sums a warp's values in shared memory with the pre-Volta loop tail,
// through a member pointer.
struct WarpSum {
  int *p;
  __device__ explicit WarpSum(int *values) : p(values) {}
  __device__ void tail(int t) {
    for (int s = 16; s > 0; s >>= 1)
      if (t < s)
        p[t] += p[t + s];
  }
};

__global__ void member_tail(const int *in, int *out) {
  __shared__ int values[32];
  const int t = threadIdx.x;
  values[t] = in[t];
  __syncwarp();
  WarpSum sum(values);
  sum.tail(t);
  __syncwarp();
  if (t == 0)
    *out = values[0];
}

int main() {
  const int n = THREADS * ITEMS;
  int in[n], out[n], counts[THREADS];
  for (int i = 0; i < n; ++i)
    in[i] = (i * 7) % 5; // some zeros among the keys
  int *d_in, *d_out, *d_counts;
  cudaMalloc(&d_in, sizeof in);
  cudaMalloc(&d_out, sizeof out);
  cudaMalloc(&d_counts, sizeof counts);
  cudaMemcpy(d_in, in, sizeof in, cudaMemcpyHostToDevice);
  member_scatter<<<1, THREADS>>>(d_in, d_out, d_counts);
  cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost);
  cudaMemcpy(counts, d_counts, sizeof counts, cudaMemcpyDeviceToHost);
  for (int t = 0; t < THREADS; ++t) {
    int nonzero = 0;
    for (int u = 0; u < ITEMS; ++u) {
      // Slot t * ITEMS + u = u' * THREADS + t' holds item u' of thread t'.
      const int slot = t * ITEMS + u;
      const int expected = in[(slot % THREADS) * ITEMS + slot / THREADS];
      if (out[slot] != expected) {
        printf("FAIL: member_scatter slot %d = %d, expected %d\n", slot,
               out[slot], expected);
        return 1;
      }
      nonzero += expected != 0;
    }
    if (counts[t] != nonzero) {
      printf("FAIL: member_scatter count %d = %d, expected %d\n", t, counts[t],
             nonzero);
      return 1;
    }
  }
  int values[32], total = 0, sum = 0;
  for (int i = 0; i < 32; ++i)
    total += values[i] = i + 1;
  cudaMemcpy(d_in, values, sizeof values, cudaMemcpyHostToDevice);
  member_tail<<<1, 32>>>(d_in, d_out);
  cudaMemcpy(&sum, d_out, sizeof sum, cudaMemcpyDeviceToHost);
  if (sum != total) {
    printf("FAIL: member_tail sum %d, expected %d (the GPU's tree sum)\n", sum,
           total);
    return 1;
  }
  printf("PASS\n");
  return 0;
}
