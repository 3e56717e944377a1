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
