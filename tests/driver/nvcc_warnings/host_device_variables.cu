// host_device_variables.cu: host code that reads and writes __device__ and
// __constant__ variables by name, which reaches only the host's shadow of
// each (tests/driver_nvcc_warnings.sh). nvcc 13.0 gives warning #20091-D at
// each direct read and #20092-D at each direct write (both at a compound
// assignment or an increment), and none where the host code takes the
// variable's address, binds a reference to it, passes it to a reference
// parameter (the runtime's symbol functions) or names it in sizeof, nor
// for a __managed__ variable, a const one or a local variable of the same
// name. A variable of an unnamed namespace is "<unnamed>::seen"; a member
// function defined in its class is judged as others.
#include <cstdio>

__device__ int hits;
__device__ float weights[4];
struct Params {
  int n;
  float scale;
};
__device__ Params params;
__constant__ float bias;
__managed__ int total;
namespace grid {
__device__ int cells;
}
__device__ const int max_hits = 8;
__device__ __managed__ int both;
namespace {
__device__ int seen;
}

__global__ void count() { atomicAdd(&hits, 1); }

static void keep(const int &) {}

int main() {
  int zero = 0;
  cudaMemcpyToSymbol(hits, &zero, sizeof zero);
  int *where = nullptr;
  cudaGetSymbolAddress((void **)&where, hits);
  int *p = &hits;
  int &r = hits;
  hits = 1;
  int h = hits;
  weights[1] = 2.0f;
  float w = weights[2] + 1.0f;
  params.n = 3;
  float s = params.scale;
  float b = bias;
  hits += 2;
  ++hits;
  grid::cells = 4;
  total = 5;
  auto peek = [] { return hits; };
  keep(hits);
  const void *symbol = (const void *)&hits;
  int limit = max_hits + seen;
  both = 2;
  int t = 0;
  {
    int hits = 7;
    hits++;
    t += hits;
  }
  count<<<1, 1>>>();
  cudaDeviceSynchronize();
  std::printf("%zu %p %p %p %d %d %g %g %g %d %d %d\n", sizeof(hits),
              (void *)p, (void *)where, symbol, r, h, w, s, b, peek(), t,
              limit);
  return 0;
}

// A host member function defined in its class reads it too; a __device__
// one's accesses are device code.
struct Tally {
  int last;
  int read() const { return hits; }
  __device__ void bump() { hits = last; }
};

// Arguments of calls: nvcc warns where the parameter takes the value (a
// scalar, a pointer, a template's parameter by value, printf's and a C
// variadic function's arguments), not where it is a reference (a
// forwarding one too); an overload set warns as its chosen function does.
__device__ int *cursor;
template <class T> __device__ T scale;
template <class T> __constant__ T factor;
namespace grid {
template <class T> __device__ T slots[4];
}
static int twice(int x) { return 2 * x; }
static int peek_at(const int &x) { return x; }
static float half(float x) { return x / 2; }
static void sum_of(int n, ...) {}
static int walk(const int *p) { return p != nullptr; }
template <class T> T same(T x) { return x; }
template <class T> int bound(T &&x) { return (int)x; }
template <class... Ts> int count_of(Ts... xs) { return (int)sizeof...(xs); }
static int pick(int x) { return x; }
static int pick(int &x, int y) { return x + y; }
static int take(int &x) { return x; }
static int take(float x) { return (int)x; }
struct Meter {
  int read(int x) const { return x; }
  int look(const int &x) const { return x; }
};

int calls() {
  int a = twice(hits) + peek_at(hits);
  a += (int)half(bias);
  a += twice(weights[1] > 0);
  a += twice(params.n) + peek_at(params.n);
  sum_of(1, hits);
  a += walk(cursor) + walk(&hits);
  a += same(hits) + bound(hits);
  a += count_of(1, weights[2]);
  a += pick(hits) + pick(hits, 1) + take(hits);
  Meter m;
  a += m.read(hits) + m.look(hits);
  std::printf("%d\n", hits);
  if (hits < 3)
    a++;
  scale<int> = 2;
  a += scale<int> + twice(scale<int>);
  scale<float> += 1.0f;
  a += (int)factor<float>;
  grid::slots<int>[1] = 3;
  a += grid::slots<int>[2] + (int)sizeof(scale<double>);
  int *q = &scale<int>;
  return a + (q != nullptr);
}

// Member functions of a nested class and of a local class are judged as
// others.
struct Counter {
  struct Step {
    int get() const { return hits; }
    void put() { hits = 4; }
  };
  int total() const;
};
int Counter::total() const { return hits; }
int local_reads() {
  struct Probe {
    int look() const { return hits + 1; }
  };
  return Probe().look();
}

// Templates are judged where they are defined, instantiated or not, as nvcc
// judges them: where the use does not depend on the template's parameters,
// and not as the whole operand of a return, which nvcc leaves to the
// instances and does not warn at.
template <class T> struct Gauge {
  T value;
  int get() { return hits; }
  void copy() {
    int x = hits;
    keep(x);
  }
  void put() { hits = 3; }
  void take() { value = hits; }
  T sum() { return value + hits; }
};
template <class T> void fill() {
  hits = 5;
  auto x = hits + 1;
  keep(x);
}
template <class T> int untouched(T t) {
  keep(t + hits);
  return (hits);
}

// A class's object passed by value is read where its copy is the implicit,
// bitwise one, and not where the class copies its objects itself.
struct Owned {
  int n;
  Owned() {}
  Owned(const Owned &o) : n(o.n) {}
};
__device__ Owned owned;
static int by_params(Params p) { return p.n; }
static int by_owned(Owned o) { return o.n; }
int copies() {
  int a = by_params(params);
  return a + by_owned(owned);
}

// A name declared `auto` from what depends on the template's parameters
// depends on them too.
template <class T> int deduced_from(T t) {
  auto v = t;
  v = hits;
  auto w = hits;
  return w + (int)v;
}

// A scalar's direct initialization reads it.
long initialized() {
  long n(hits);
  return n;
}
