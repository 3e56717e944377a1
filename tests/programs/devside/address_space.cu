/*
 * address_space.cu: the address-space predicates __isGlobal, __isShared,
 * __isConstant, __isGridConstant and __isLocal on every kind of memory a
 * kernel reaches: __device__ and __constant__ variables (several forms of
 * declaration, static and in a namespace), cudaMalloc'd memory, static
 * and dynamic __shared__ memory, local variables, an ordinary parameter
 * and a __grid_constant__ one (through a __device__ helper too); exactly
 * one predicate holds for each, as on the GPU.
 */
#include <cstdio>

#include "../check.cuh"

struct Params {
  int scale[8];
  float bias;
};

__device__ int device_value;
__constant__ float weights[16];
__constant__ int first_constant = 3, second_constant[4];
static __constant__ double private_constant;
namespace filters {
__constant__ const short taps[3] = {1, 2, 1};
}

enum Kind { GLOBAL, SHARED, CONSTANT, GRID_CONSTANT, LOCAL, KINDS };

/* One digit per predicate, in the order of Kind. */
__device__ int classify(const void *p) {
  return __isGlobal(p) * 10000 + __isShared(p) * 1000 +
         __isConstant(p) * 100 + __isGridConstant(p) * 10 + __isLocal(p);
}

__global__ void spaces(const __grid_constant__ Params params, int plain,
                       const int *buffer, int *out) {
  __shared__ int tile[32];
  extern __shared__ float dynamic[];
  int local[2] = {plain, 0};
  tile[threadIdx.x] = local[0];
  dynamic[threadIdx.x] = 1.0f;
  __syncthreads();
  if (threadIdx.x != 5)
    return;
  int i = 0;
  out[i++] = classify(&device_value);
  out[i++] = classify(buffer);
  out[i++] = classify(&tile[3]);
  out[i++] = classify(dynamic + 1);
  out[i++] = classify(&weights[7]);
  out[i++] = classify(&first_constant);
  out[i++] = classify(&second_constant[3]);
  out[i++] = classify(&private_constant);
  out[i++] = classify(&filters::taps[2]);
  out[i++] = classify(&params);
  out[i++] = classify(&params.scale[5]);
  out[i++] = classify(&params.bias);
  out[i++] = classify(&plain);
  out[i++] = classify(&local[1]);
  out[i++] = classify(nullptr);
}

int main() {
  Params p = {{1, 2, 3, 4, 5, 6, 7, 8}, 0.5f};
  int *buffer, *out;
  const int n = 15;
  CHECK(cudaMalloc(&buffer, 64) == cudaSuccess);
  CHECK(cudaMallocManaged(&out, n * sizeof(int)) == cudaSuccess);
  spaces<<<1, 32, 32 * sizeof(float)>>>(p, 4, buffer, out);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  const int global = 10000, shared = 1000, constant = 100, grid = 10,
            local = 1;
  const int expect[n] = {global,   global,   shared,   shared,   constant,
                         constant, constant, constant, constant, grid,
                         grid,     grid,     local,    local,    0};
  for (int i = 0; i < n; ++i) {
    if (out[i] != expect[i])
      std::fprintf(stderr, "case %d: %05d, expected %05d\n", i, out[i],
                   expect[i]);
    CHECK(out[i] == expect[i]);
  }
  return finish();
}
