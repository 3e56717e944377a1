/*
 * gdb_reduce.cu: the program that the gdb batch tests (tests/gdb/*.sh)
 * debug. Each of 4 blocks of 16 threads sums ten times its threads' inputs
 * in shared memory with a tree, one __syncthreads() per step; then a second
 * kernel passes values around through dynamic shared memory; the program
 * checks both results. The tests find their lines through the
 * "LINE:name" markers, so that edits here do not break them.
 */
#include <cstdio>

#define THREADS 16
#define BLOCKS 4

/* The sum of two slots of the tree. */
__device__ int pair_sum(const int *s, unsigned i, unsigned stride) {
  int total = s[i] + s[i + stride]; /* LINE:pair_sum */
  return total;
}

__global__ void block_sum(const int *in, int *out) {
  __shared__ int sdata[THREADS];
  const unsigned tid = threadIdx.x;
  int mine = in[blockIdx.x * blockDim.x + tid] * 10; /* LINE:load */
  sdata[tid] = mine;
  __syncthreads(); /* LINE:first_barrier */
  int after = sdata[(tid + 1) % blockDim.x]; /* LINE:after_barrier */
  for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (tid < stride)
      sdata[tid] = pair_sum(sdata, tid, stride); /* LINE:tree_step */
    __syncthreads(); /* LINE:tree_barrier */
  }
  if (tid == 0) /* LINE:after_loop */
    out[blockIdx.x] = sdata[0] + after - after; /* LINE:store */
}

/* Every block adds three times its neighbour's input to each out[i], going
 * through dynamic shared memory (extern __shared__, which cuemu-cc
 * rewrites). No code in this file names gridDim: a breakpoint condition can
 * still name it. */
__global__ void rotate(const int *in, int *out) {
  extern __shared__ int ring[];
  ring[threadIdx.x] = in[threadIdx.x] * 3;
  __syncthreads();
  atomicAdd(&out[threadIdx.x], ring[(threadIdx.x + 1) % blockDim.x]); /* LINE:rotate */
}

int main(void) {
  int in[THREADS * BLOCKS], out[BLOCKS];
  for (int i = 0; i < THREADS * BLOCKS; ++i)
    in[i] = i;
  int *d_in, *d_out;
  cudaMalloc(&d_in, sizeof in);
  cudaMalloc(&d_out, sizeof out);
  cudaMemcpy(d_in, in, sizeof in, cudaMemcpyHostToDevice);
  block_sum<<<BLOCKS, THREADS>>>(d_in, d_out);
  cudaError_t err = cudaDeviceSynchronize();
  cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost);
  int bad = err != cudaSuccess;
  for (int b = 0; b < BLOCKS; ++b) {
    int expect = 0;
    for (int t = 0; t < THREADS; ++t)
      expect += 10 * (b * THREADS + t);
    if (out[b] != expect)
      bad = 1;
  }

  int *d_ring, ring[THREADS];
  cudaMalloc(&d_ring, sizeof ring);
  cudaMemset(d_ring, 0, sizeof ring);
  rotate<<<2, THREADS, THREADS * sizeof(int)>>>(d_in, d_ring);
  err = cudaDeviceSynchronize();
  cudaMemcpy(ring, d_ring, sizeof ring, cudaMemcpyDeviceToHost);
  bad |= err != cudaSuccess;
  for (int t = 0; t < THREADS; ++t)
    if (ring[t] != 2 * 3 * in[(t + 1) % THREADS])
      bad = 1;
  cudaFree(d_ring);
  printf("gdb_reduce: %s\n", bad ? "FAIL" : "ok");
  cudaFree(d_in);
  cudaFree(d_out);
  return bad;
}
