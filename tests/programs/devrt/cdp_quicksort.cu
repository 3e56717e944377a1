/*
 * cdp_quicksort.cu: a recursive quicksort with dynamic parallelism, in the
 * style of the public samples: each partition launches the two halves into
 * streams it creates in kernel code, and falls back to a selection sort
 * below a size or past a depth. The result is checked against std::sort.
 * CUEMU_OPTIONS: -rdc=true
 * NVCC_OPTIONS: -rdc=true
 */
#include <algorithm>
#include <cstdio>
#include <random>
#include <vector>

#include "../check.cuh"

#define MAX_DEPTH 16
#define INSERTION_SORT 32

template <typename T>
__device__ void selection_sort(T *data, int left, int right) {
  for (int i = left; i <= right; ++i) {
    T min_val = data[i];
    int min_idx = i;
    for (int j = i + 1; j <= right; ++j) {
      if (data[j] < min_val) {
        min_idx = j;
        min_val = data[j];
      }
    }
    if (i != min_idx) {
      data[min_idx] = data[i];
      data[i] = min_val;
    }
  }
}

template <typename T>
__global__ void quicksort(T *data, int left, int right, int depth,
                          int *max_depth) {
  atomicMax(max_depth, depth);
  if (depth >= MAX_DEPTH || right - left <= INSERTION_SORT) {
    selection_sort(data, left, right);
    return;
  }
  T *lptr = data + left, *rptr = data + right;
  T pivot = data[(left + right) / 2];
  while (lptr <= rptr) {
    T lval = *lptr, rval = *rptr;
    while (lval < pivot) {
      lptr++;
      lval = *lptr;
    }
    while (rval > pivot) {
      rptr--;
      rval = *rptr;
    }
    if (lptr <= rptr) {
      *lptr++ = rval;
      *rptr-- = lval;
    }
  }
  int nright = rptr - data, nleft = lptr - data;
  if (left < nright) {
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    quicksort<<<1, 1, 0, s>>>(data, left, nright, depth + 1, max_depth);
    cudaStreamDestroy(s);
  }
  if (nleft < right) {
    cudaStream_t s1;
    cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking);
    quicksort<<<1, 1, 0, s1>>>(data, nleft, right, depth + 1, max_depth);
    cudaStreamDestroy(s1);
  }
}

int main() {
  const int n = 20000;
  std::vector<unsigned> h(n);
  std::mt19937 rng(7);
  for (auto &v : h) v = rng() % 100000;
  std::vector<unsigned> expect = h;
  std::sort(expect.begin(), expect.end());

  unsigned *d;
  int *depth;
  cudaMalloc(&d, n * sizeof(unsigned));
  cudaMalloc(&depth, sizeof(int));
  cudaMemset(depth, 0, sizeof(int));
  cudaMemcpy(d, h.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice);
  quicksort<unsigned><<<1, 1>>>(d, 0, n - 1, 0, depth);
  CHECK(cudaGetLastError() == cudaSuccess);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  std::vector<unsigned> got(n);
  int reached = 0;
  cudaMemcpy(got.data(), d, n * sizeof(unsigned), cudaMemcpyDeviceToHost);
  cudaMemcpy(&reached, depth, sizeof(int), cudaMemcpyDeviceToHost);
  CHECK(got == expect);
  /* log2(20000 / 32) is about 9: the recursion went several levels deep. */
  CHECK(reached >= 5 && reached <= MAX_DEPTH);
  std::printf("deepest level %d\n", reached);
  cudaFree(d);
  cudaFree(depth);
  return finish();
}
