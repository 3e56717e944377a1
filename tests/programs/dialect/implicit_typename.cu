// implicit_typename.cu: out-of-line definitions of a class template's
// members whose return type names a member type of the (dependent) class
// without `typename`, as nvcc 13 accepts in C++17 (its front end takes the
// name as a type there, as C++20's P0634 does): a pool of buffers kept in a
// map of stacks by size, in the way of LULESH's CUDA allocator
// (trialproxy). g++ -std=c++17 and clang++ 14 refuse it ("need 'typename'
// before ...", "missing 'typename' prior to dependent type name"); the
// translation inserts the `typename` where a namespace-scope template
// declaration starts with such a name and defines a member of that class
// template (nvcc refuses it for a free function's return type).
#include <cuda_runtime.h>

#include <map>
#include <stack>

#include "../check.cuh"

template <typename T> class Pool {
  typedef std::stack<T *> FreeList;
  typedef std::map<int, FreeList> FreeMap;

public:
  typedef int Size;
  static T *take(int n);
  static void give(T *p, int n);
  static Size kept();

private:
  static FreeMap &lists();
};

template <typename T> Pool<T>::FreeMap &Pool<T>::lists() {
  static FreeMap m;
  return m;
}

template <typename T> inline Pool<T>::Size Pool<T>::kept() {
  Size count = 0;
  for (auto &entry : lists())
    count += (Size)entry.second.size();
  return count;
}

template <typename T> T *Pool<T>::take(int n) {
  FreeList &l = lists()[n];
  if (!l.empty()) {
    T *p = l.top();
    l.pop();
    return p;
  }
  T *p = nullptr;
  cudaMalloc(&p, n * sizeof(T));
  return p;
}

template <typename T> void Pool<T>::give(T *p, int n) { lists()[n].push(p); }

template class Pool<float>;

/* The same written with a namespace-qualified class name. */
namespace ns {
template <class T> struct Box {
  typedef T value;
  static value scale(value v);
};
} // namespace ns

template <class T> ns::Box<T>::value ns::Box<T>::scale(value v) { return v * 2; }

__global__ void fill(float *p, int n, float v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] = v * i;
}

int main() {
  const int n = 256;
  float *a = Pool<float>::take(n);
  fill<<<2, 128>>>(a, n, 0.5f);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  Pool<float>::give(a, n);
  CHECK(Pool<float>::kept() == 1);
  float *b = Pool<float>::take(n); /* the same buffer, reused */
  CHECK(b == a);
  float h[n];
  CHECK(cudaMemcpy(h, b, sizeof h, cudaMemcpyDeviceToHost) == cudaSuccess);
  for (int i = 0; i < n; ++i)
    CHECK(h[i] == 0.5f * i);
  CHECK(Pool<float>::kept() == 0);
  CHECK(ns::Box<int>::scale(21) == 42);
  cudaFree(b);
  return finish();
}
