/*
 * heap_basics.cu: malloc, free, new, delete, new[] and delete[] in kernel
 * code. The heap is cudaLimitMallocHeapSize bytes (8 MiB by default, set
 * here to 1 MiB before any kernel allocates); memory allocated by one
 * launch stays valid in later launches until it is freed; malloc and new
 * return NULL when the heap is full; allocations are 16-byte aligned and
 * every thread of every block may allocate at once.
 */
#include <cstdint>
#include <cstdio>

#include "../check.cuh"

__device__ int destroyed = 0;

struct Counter {
  int value;
  __device__ Counter() : value(7) {}
  __device__ ~Counter() { atomicAdd(&destroyed, 1); }
};

__device__ int *kept[64];

/* Each thread sums a private array it allocates. */
__global__ void private_arrays(int *sums, int *misaligned) {
  int n = 4 + threadIdx.x % 13;
  int *a = static_cast<int *>(malloc(n * sizeof(int)));
  if (!a) {
    sums[blockIdx.x * blockDim.x + threadIdx.x] = -1;
    return;
  }
  if (reinterpret_cast<uintptr_t>(a) % 16)
    atomicAdd(misaligned, 1);
  for (int i = 0; i < n; ++i)
    a[i] = i + blockIdx.x;
  int s = 0;
  for (int i = 0; i < n; ++i)
    s += a[i];
  sums[blockIdx.x * blockDim.x + threadIdx.x] = s;
  free(a);
}

/* Allocations that outlive their launch. */
__global__ void keep() {
  kept[threadIdx.x] = new int[4]{int(threadIdx.x), 1, 2, 3};
}

__global__ void use_and_release(int *out) {
  int *p = kept[threadIdx.x];
  out[threadIdx.x] = p[0] + p[1] + p[2] + p[3];
  delete[] p;
}

__global__ void objects(int *out) {
  Counter *c = new Counter;
  Counter *many = new Counter[3];
  out[0] = c->value + many[0].value + many[2].value;
  delete c;
  delete[] many;
  out[1] = destroyed;
}

/* Allocates until the heap is full. */
__global__ void fill(int *count, int *big_null, int *new_null) {
  *big_null = malloc(2 << 20) == nullptr;
  *new_null = new char[2 << 20] == nullptr; /* no exceptions */
  void *last = nullptr;
  int n = 0;
  for (;;) {
    void **p = static_cast<void **>(malloc(4096));
    if (!p)
      break;
    *p = last;
    last = p;
    ++n;
  }
  *count = n;
  while (last) {
    void *next = *static_cast<void **>(last);
    free(last);
    last = next;
  }
}

int main() {
  size_t heap = 0;
  CHECK(cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize) == cudaSuccess);
  CHECK(heap == 8u << 20);
  CHECK(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 1u << 20) == cudaSuccess);

  const int blocks = 8, threads = 128;
  int *sums, *out, *flags;
  cudaMallocManaged(&sums, blocks * threads * sizeof(int));
  cudaMallocManaged(&out, 64 * sizeof(int));
  cudaMallocManaged(&flags, 4 * sizeof(int));
  cudaMemset(flags, 0, 4 * sizeof(int));
  private_arrays<<<blocks, threads>>>(sums, flags);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  for (int b = 0; b < blocks; ++b)
    for (int t = 0; t < threads; ++t) {
      int n = 4 + t % 13;
      CHECK(sums[b * threads + t] == n * (n - 1) / 2 + n * b);
    }
  CHECK(flags[0] == 0);

  keep<<<1, 64>>>();
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  use_and_release<<<1, 64>>>(out);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  for (int t = 0; t < 64; ++t)
    CHECK(out[t] == t + 6);

  objects<<<1, 1>>>(out);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(out[0] == 21);
  CHECK(out[1] == 4);

  fill<<<1, 1>>>(flags, flags + 1, flags + 2);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  /* 1 MiB holds fewer than 256 blocks of 4 KiB, but most of them. */
  CHECK(flags[0] > 200 && flags[0] < 256);
  CHECK(flags[1] == 1);
  CHECK(flags[2] == 1);
  std::printf("%d allocations of 4 KiB fit in the 1 MiB heap\n", flags[0]);
  /* Everything was freed: as many fit again. */
  int first = flags[0];
  fill<<<1, 1>>>(flags, flags + 1, flags + 2);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(flags[0] >= first);
  /* The heap's size is fixed once a kernel has used it. */
  CHECK(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 2u << 20) != cudaSuccess);
  cudaGetLastError();
  return finish();
}
