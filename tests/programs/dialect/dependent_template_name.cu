// dependent_template_name.cu: a small open-addressing table whose class
// template names its allocator's member templates without `template`
// (`typename std::allocator_traits<A>::rebind_alloc<S>`, `typename
// A::rebind<U>::other`) and whose device member templates are defined out
// of line under two template headers with a return type that names a
// member type of the class without `typename`, as BGHT's hash tables are
// written (trialcoll). nvcc 13 and g++ 12 take both in C++17 (C++20's
// rules: a `<` after a name in a typename-specifier starts template
// arguments, P1787; a member of the current instantiation needs no
// `typename` there, P0634). clang++ 14, which cuemu-nvcc uses for units
// that include CUB or Thrust, refuses the first ("use 'template' keyword
// to treat 'rebind_alloc' as a dependent template name"); clang++ and
// g++ -std=c++17 refuse the second ("missing 'typename'"). The
// translation inserts the keywords. Built with clang++ (CUEMU_OPTIONS), as
// it would be with CUB, and by programs.sh's other runs with g++.
// CUEMU_OPTIONS: -ccbin clang++ -std=c++17
// NVCC_OPTIONS: -std=c++17
#include <cuda_runtime.h>

#include <memory>

#include "../check.cuh"

/* An allocator of managed memory with the old `rebind` member template. */
template <class T> struct managed_allocator {
  using value_type = T;
  template <class U> struct rebind {
    using other = managed_allocator<U>;
  };
  managed_allocator() = default;
  template <class U> managed_allocator(const managed_allocator<U> &) {}
  T *allocate(std::size_t n) {
    void *p = nullptr;
    cudaMallocManaged(&p, n * sizeof(T));
    return static_cast<T *>(p);
  }
  void deallocate(T *p, std::size_t) { cudaFree(p); }
};

template <class K, class V, class Alloc = managed_allocator<char>>
class slot_table {
public:
  using key_type = K;
  using mapped_type = V;
  struct slot {
    K key;
    V value;
  };
  using slot_allocator =
      typename std::allocator_traits<Alloc>::rebind_alloc<slot>;
  using count_allocator = typename Alloc::rebind<unsigned>::other;

  slot_table(int capacity, K empty) : capacity_(capacity), empty_(empty) {
    slots_ = slot_allocator().allocate(capacity);
    probes_ = count_allocator().allocate(1);
    for (int i = 0; i < capacity; ++i)
      slots_[i] = slot{empty, V()};
    *probes_ = 0;
  }
  void release() {
    slot_allocator().deallocate(slots_, capacity_);
    count_allocator().deallocate(probes_, 1);
  }

  template <class Step>
  __device__ bool insert(key_type k, mapped_type v, Step step);
  template <class Step>
  __device__ mapped_type find(key_type k, mapped_type missing, Step step) const;

  int capacity_;
  K empty_;
  slot *slots_;
  unsigned *probes_;
};

template <class K, class V, class Alloc>
template <class Step>
__device__ bool slot_table<K, V, Alloc>::insert(key_type k, mapped_type v,
                                                Step step) {
  int at = (int)(k % capacity_);
  for (int n = 0; n < capacity_; ++n, at = (at + step(n)) % capacity_) {
    atomicAdd(probes_, 1u);
    if (atomicCAS(&slots_[at].key, empty_, k) == empty_) {
      slots_[at].value = v;
      return true;
    }
  }
  return false;
}

template <class K, class V, class Alloc>
template <class Step>
__device__ slot_table<K, V, Alloc>::mapped_type
slot_table<K, V, Alloc>::find(key_type k, mapped_type missing,
                              Step step) const {
  int at = (int)(k % capacity_);
  for (int n = 0; n < capacity_; ++n, at = (at + step(n)) % capacity_) {
    if (slots_[at].key == k)
      return slots_[at].value;
    if (slots_[at].key == empty_)
      return missing;
  }
  return missing;
}

struct linear_step {
  __device__ int operator()(int) const { return 1; }
};

template <class Table>
__global__ void insert_all(Table t, const unsigned *keys, int n, int *ok) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && !t.insert(keys[i], keys[i] * 2.0f, linear_step()))
    atomicExch(ok, 0);
}

template <class Table>
__global__ void find_all(Table t, const unsigned *keys, int n, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = t.find(keys[i], -1.0f, linear_step());
}

int main() {
  const int n = 200, queries = 250;
  slot_table<unsigned, float> table(512, 0u);
  unsigned *keys = nullptr;
  float *out = nullptr;
  int *ok = nullptr;
  cudaMallocManaged(&keys, queries * sizeof(unsigned));
  cudaMallocManaged(&out, queries * sizeof(float));
  cudaMallocManaged(&ok, sizeof(int));
  for (int i = 0; i < queries; ++i)
    keys[i] = 1u + (unsigned)i * 37u; /* the last 50 are never inserted */
  *ok = 1;
  insert_all<<<(n + 63) / 64, 64>>>(table, keys, n, ok);
  find_all<<<(queries + 63) / 64, 64>>>(table, keys, queries, out);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(*ok == 1);
  CHECK(*table.probes_ >= (unsigned)n);
  for (int i = 0; i < queries; ++i)
    CHECK(out[i] == (i < n ? keys[i] * 2.0f : -1.0f));
  table.release();
  cudaFree(keys);
  cudaFree(out);
  cudaFree(ok);
  return finish();
}
