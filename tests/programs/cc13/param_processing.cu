// Kernel parameters made as nvcc's host stub makes them, and copied
// bitwise on the device (docs/kernel-parameters.md):
// - `k<<<g, b>>>(std::move(v))` move-constructs the parameter (one move, one
//   destruction), as the stub `void k(Counted)` called with an xvalue does;
// - a trivially copyable class with a forwarding constructor template that a
//   non-const lvalue picks over the copy constructor: the host makes the
//   parameter with the template (once, as the stub does), the device's
//   copies are bitwise (the template never runs there);
// - a 30000-byte parameter (CUDA allows 32764 bytes since 12.1), trivially
//   copyable and with a user copy constructor, in 1024-thread blocks with
//   __syncthreads: each thread has its own copy, which it may change, and
//   the copies fit the threads' stacks.
#include <cstdio>
#include <utility>

#include <cuda_runtime.h>

#include "../check.cuh"

/* Host-side counts (kernel code never copies or destroys a parameter). */
static int copies, moves, destructions;

struct Counted {
  int *data;
  int tag;
  __host__ __device__ Counted(int *d, int t) : data(d), tag(t) {}
  Counted(const Counted &o) : data(o.data), tag(o.tag) { ++copies; }
  Counted(Counted &&o) : data(o.data), tag(o.tag + 1000) { ++moves; }
  ~Counted() { ++destructions; }
};

/* Trivially copyable; a non-const lvalue picks the template. */
static int forwarded;
struct Wrapped {
  int value;
  __host__ __device__ explicit Wrapped(int v) : value(v) {}
  Wrapped(const Wrapped &) = default;
  template <class U> __host__ __device__ Wrapped(U &&u) : value(u.value + 100) {
#ifndef __CUDA_ARCH__
    ++forwarded;
#endif
  }
};

__global__ void store_tag(Counted c, int slot) {
  if (threadIdx.x == 0)
    c.data[slot] = c.tag;
}

template <typename T> __global__ void store_value(T w, int *out, int slot) {
  /* Each thread changes its own copy. */
  w.value += threadIdx.x;
  __syncthreads();
  out[slot * 64 + threadIdx.x] = w.value;
}

constexpr int kWords = 7500; /* 30000 bytes */

struct Table {
  int word[kWords];
};

struct OwnedTable {
  int word[kWords];
  OwnedTable() {}
  OwnedTable(const OwnedTable &o) {
    for (int i = 0; i < kWords; ++i)
      word[i] = o.word[i];
    ++copies;
  }
};

template <typename T> __global__ void mirror(T t, int *out) {
  __shared__ int seen[1024];
  const unsigned i = threadIdx.x;
  t.word[i] += static_cast<int>(i); /* the thread's own copy */
  seen[i] = t.word[i];
  __syncthreads();
  const unsigned j = blockDim.x - 1 - i;
  out[blockIdx.x * blockDim.x + i] = seen[j] + t.word[kWords - 1] + t.word[i];
}

int main() {
  int *out;
  cudaMallocManaged(&out, 4 * 1024 * sizeof(int));

  /* std::move: one move, no copy, one destruction, the moved tag. */
  Counted c(out, 7);
  store_tag<<<1, 1>>>(std::move(c), 0);
  CHECK(copies == 0 && moves == 1 && destructions == 1);
  /* A temporary: neither. */
  store_tag<<<1, 1>>>(Counted(out, 8), 1);
  CHECK(copies == 0 && moves == 1 && destructions == 2);
  /* An lvalue: one copy. */
  store_tag<<<1, 1>>>(c, 2);
  CHECK(copies == 1 && moves == 1 && destructions == 3);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(out[0] == 1007 && out[1] == 8 && out[2] == 7);

  /* The forwarding template: once for a non-const lvalue, never for a
   * const one, never on the device. */
  Wrapped w(5);
  const Wrapped cw(6);
  store_value<<<1, 64>>>(w, out, 0);
  CHECK(forwarded == 1);
  store_value<Wrapped><<<1, 64>>>(cw, out, 1);
  CHECK(forwarded == 1);
  store_value<<<1, 64>>>(Wrapped(9), out, 2);
  CHECK(forwarded == 1);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  for (int t = 0; t < 64; ++t) {
    CHECK(out[t] == 105 + t);
    CHECK(out[64 + t] == 6 + t);
    CHECK(out[128 + t] == 9 + t);
  }

  /* 30000-byte parameters, 1024 threads, a barrier. */
  static Table table;
  static OwnedTable owned;
  for (int i = 0; i < kWords; ++i)
    table.word[i] = owned.word[i] = 3 * i;
  copies = 0;
  mirror<<<2, 1024>>>(table, out);
  mirror<<<2, 1024>>>(owned, out + 2048);
  CHECK(copies == 1);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  int bad = 0;
  for (int b = 0; b < 4; ++b)
    for (int i = 0; i < 1024; ++i) {
      const int j = 1023 - i;
      const int want = (3 * j + j) + 3 * (kWords - 1) + (3 * i + i);
      bad += out[b * 1024 + i] != want;
    }
  CHECK(bad == 0);
  cudaFree(out);
  return finish();
}
