// perturb_work_list.cu: work lists filled through an atomicAdd counter, the
// way graph codes build their frontiers (a trial of Martin Burtscher's
// graph codes: ECL-SCC's edge list, Indigo's populate_worklist, ECL-SGB's
// breadth-first frontier). Which place each thread gets depends on the
// order, so the lists come out permuted, as on a GPU; their contents as sets
// do not. In a frontier even the thread that adds a vertex depends on the
// order (the first to claim it). Run again under schedule
// perturbation (CUEMU_CHECK_SCHEDULES=1, tests/programs_trialmst.sh), which
// reported every such list as a race before.
#include <algorithm>
#include <cstdio>
#include <cuda_runtime.h>
#include <vector>

/* One place per item: the odd values, as ints. */
__global__ void keep_odd(const int *in, int n, int *list, int *size) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && (in[i] & 1))
    list[atomicAdd(size, 1)] = in[i];
}

/* One add per warp (aggregated): the warp's leader takes as many places as
 * the warp has items, and each lane writes its pair at its rank. */
__global__ void keep_edges(const int *from, const int *to, int n, int2 *list,
                           unsigned *size) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  bool keep = i < n && from[i] < to[i];
  unsigned mask = __ballot_sync(0xffffffffu, keep);
  int lane = threadIdx.x % 32;
  unsigned base = 0;
  if (lane == 0 && mask)
    base = atomicAdd(size, (unsigned)__popc(mask));
  base = __shfl_sync(0xffffffffu, base, 0);
  if (keep)
    list[base + __popc(mask & ((1u << lane) - 1))] = make_int2(from[i], to[i]);
}

/* The next frontier of a breadth-first step: each edge's thread claims its
 * head by atomicCAS, and the thread that claimed it adds it. */
__global__ void expand(const int *from, const int *to, int n, int *claimed,
                       int *next, int *size) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && (from[i] & 1) && atomicCAS(&claimed[to[i]], 0, 1) == 0)
    next[atomicAdd(size, 1)] = to[i];
}

int main() {
  const int n = 3000;
  std::vector<int> in(n), from(n), to(n);
  for (int i = 0; i < n; ++i) {
    in[i] = (i * 7919) % 10007;
    from[i] = (i * 31) % 997;
    to[i] = (i * 57) % 991;
  }
  int *d_in, *d_from, *d_to, *d_list, *d_size, *d_claimed, *d_next, *d_nsize;
  int2 *d_edges;
  unsigned *d_esize;
  cudaMalloc(&d_in, n * sizeof(int));
  cudaMalloc(&d_from, n * sizeof(int));
  cudaMalloc(&d_to, n * sizeof(int));
  cudaMalloc(&d_list, n * sizeof(int));
  cudaMalloc(&d_size, sizeof(int));
  cudaMalloc(&d_edges, n * sizeof(int2));
  cudaMalloc(&d_esize, sizeof(unsigned));
  cudaMalloc(&d_claimed, 1000 * sizeof(int));
  cudaMalloc(&d_next, 1000 * sizeof(int));
  cudaMalloc(&d_nsize, sizeof(int));
  cudaMemcpy(d_in, in.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(d_from, from.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(d_to, to.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemset(d_list, 0, n * sizeof(int));
  cudaMemset(d_size, 0, sizeof(int));
  cudaMemset(d_edges, 0, n * sizeof(int2));
  cudaMemset(d_esize, 0, sizeof(unsigned));
  cudaMemset(d_claimed, 0, 1000 * sizeof(int));
  cudaMemset(d_next, 0, 1000 * sizeof(int));
  cudaMemset(d_nsize, 0, sizeof(int));
  keep_odd<<<(n + 255) / 256, 256>>>(d_in, n, d_list, d_size);
  keep_edges<<<(n + 127) / 128, 128>>>(d_from, d_to, n, d_edges, d_esize);
  expand<<<(n + 255) / 256, 256>>>(d_from, d_to, n, d_claimed, d_next, d_nsize);
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) {
    printf("FAIL: %s\n", cudaGetErrorString(e));
    return 1;
  }
  int size, nsize;
  unsigned esize;
  std::vector<int> next(1000);
  cudaMemcpy(&nsize, d_nsize, sizeof nsize, cudaMemcpyDeviceToHost);
  cudaMemcpy(next.data(), d_next, 1000 * sizeof(int), cudaMemcpyDeviceToHost);
  std::vector<int> list(n);
  std::vector<int2> edges(n);
  cudaMemcpy(&size, d_size, sizeof size, cudaMemcpyDeviceToHost);
  cudaMemcpy(&esize, d_esize, sizeof esize, cudaMemcpyDeviceToHost);
  cudaMemcpy(list.data(), d_list, n * sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(edges.data(), d_edges, n * sizeof(int2), cudaMemcpyDeviceToHost);

  std::vector<int> odd, got(list.begin(), list.begin() + size);
  std::vector<long long> want_edges, got_edges;
  std::vector<int> heads, got_heads(next.begin(), next.begin() + nsize);
  for (int i = 0; i < n; ++i) {
    if ((from[i] & 1) &&
        std::find(heads.begin(), heads.end(), to[i]) == heads.end())
      heads.push_back(to[i]);
    if (in[i] & 1)
      odd.push_back(in[i]);
    if (from[i] < to[i])
      want_edges.push_back((long long)from[i] << 32 | to[i]);
  }
  for (unsigned k = 0; k < esize; ++k)
    got_edges.push_back((long long)edges[k].x << 32 | edges[k].y);
  std::sort(odd.begin(), odd.end());
  std::sort(got.begin(), got.end());
  std::sort(want_edges.begin(), want_edges.end());
  std::sort(got_edges.begin(), got_edges.end());
  std::sort(heads.begin(), heads.end());
  std::sort(got_heads.begin(), got_heads.end());
  if (got != odd || got_edges != want_edges || got_heads != heads) {
    printf("FAIL: %d odd values of %zu, %u edges of %zu, %d heads of %zu\n",
           size, odd.size(), esize, want_edges.size(), nsize, heads.size());
    return 1;
  }
  printf("PASS\n");
  return 0;
}
