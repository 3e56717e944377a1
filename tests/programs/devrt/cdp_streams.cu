/*
 * cdp_streams.cu: the order of grids launched from kernel code (CDP2):
 * launches of one block into its default stream run in order and see what
 * the parent wrote before launching; fire-and-forget grids and grandchild
 * grids complete before the parent; a tail launch runs after all of that;
 * kernel templates with deduced arguments, launches from a __device__
 * function, and cudaGetParameterBuffer with cudaLaunchDevice.
 * CUEMU_OPTIONS: -rdc=true
 * NVCC_OPTIONS: -rdc=true
 */
#include <cstdio>

#include "../check.cuh"

#define BLOCKS 4
#define WIDTH 32

struct Board {
  int input[BLOCKS];          /* written by the parent before its launches */
  int first[BLOCKS * WIDTH];  /* written by the first child */
  int second[BLOCKS * WIDTH]; /* the second child's copy of first, doubled */
  int fired[BLOCKS];          /* fire-and-forget grids */
  int grandchildren;          /* grids launched by children */
  int done;                   /* grids finished, before the tail launch */
  int tail_saw;               /* `done` when the tail launch ran */
  int tail_runs;
  float scaled[WIDTH];
  int packed[4];
};

__global__ void grandchild(Board *b) {
  atomicAdd(&b->grandchildren, 1);
  atomicAdd(&b->done, 1);
}

__global__ void first_child(Board *b, int block) {
  int i = block * WIDTH + threadIdx.x;
  b->first[i] = b->input[block] * 1000 + threadIdx.x;
  __syncthreads();
  if (threadIdx.x == 0) {
    grandchild<<<1, 1>>>(b);
    atomicAdd(&b->done, 1);
  }
}

__global__ void second_child(Board *b, int block) {
  int i = block * WIDTH + threadIdx.x;
  b->second[i] = 2 * b->first[i]; /* ordered after first_child */
  if (threadIdx.x == 0)
    atomicAdd(&b->done, 1);
}

__global__ void fire(Board *b, int block) {
  b->fired[block] = 1;
  atomicAdd(&b->done, 1);
}

__global__ void tail(Board *b) {
  b->tail_saw = atomicAdd(&b->done, 0);
  atomicAdd(&b->tail_runs, 1);
}

template <typename T> __global__ void scale(T *data, T factor) {
  data[threadIdx.x] *= factor;
}

__global__ void packed(int *out, char c, double d, int n) {
  out[0] = c;
  out[1] = static_cast<int>(d * 10);
  out[2] = n;
  out[3] = 1;
}

/* Launches from a __device__ function. */
__device__ void launch_children(Board *b) {
  first_child<<<1, WIDTH>>>(b, blockIdx.x);
  second_child<<<1, WIDTH>>>(b, blockIdx.x);
  fire<<<1, 1, 0, cudaStreamFireAndForget>>>(b, blockIdx.x);
}

__global__ void parent(Board *b) {
  if (threadIdx.x == 0) {
    b->input[blockIdx.x] = blockIdx.x + 1;
    launch_children(b);
    if (blockIdx.x == 0) {
      tail<<<1, 1, 0, cudaStreamTailLaunch>>>(b);
      for (int i = 0; i < WIDTH; ++i)
        b->scaled[i] = static_cast<float>(i);
      scale<<<1, WIDTH>>>(b->scaled, 1.5f); /* T deduced as float */
      /* int *, char, double, int at their natural alignment. */
      void *buf = cudaGetParameterBuffer(8, 32);
      *reinterpret_cast<int **>(buf) = b->packed;
      *(reinterpret_cast<char *>(buf) + 8) = 'x';
      *reinterpret_cast<double *>(reinterpret_cast<char *>(buf) + 16) = 4.2;
      *reinterpret_cast<int *>(reinterpret_cast<char *>(buf) + 24) = 77;
      cudaLaunchDevice((void *)packed, buf, dim3(1), dim3(1), 0, 0);
    }
    if (cudaGetLastError() != cudaSuccess)
      b->tail_runs = -1000;
  }
}

int main() {
  Board *b;
  cudaMallocManaged(&b, sizeof(Board));
  cudaMemset(b, 0, sizeof(Board));
  parent<<<BLOCKS, 64>>>(b);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  for (int blk = 0; blk < BLOCKS; ++blk) {
    CHECK(b->fired[blk] == 1);
    for (int t = 0; t < WIDTH; ++t) {
      CHECK(b->first[blk * WIDTH + t] == (blk + 1) * 1000 + t);
      CHECK(b->second[blk * WIDTH + t] == 2 * ((blk + 1) * 1000 + t));
    }
  }
  CHECK(b->grandchildren == BLOCKS);
  /* Per block: first, grandchild, second, fire. */
  CHECK(b->tail_saw == 4 * BLOCKS);
  CHECK(b->tail_runs == 1);
  for (int i = 0; i < WIDTH; ++i)
    CHECK(b->scaled[i] == 1.5f * i);
  CHECK(b->packed[0] == 'x' && b->packed[1] == 42 && b->packed[2] == 77 &&
        b->packed[3] == 1);
  cudaFree(b);
  return finish();
}
