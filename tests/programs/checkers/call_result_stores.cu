// call_result_stores.cu: a correct program built with every checker, as a
// ray tracer writes it: the results of calls that are not inlined (a
// __noinline__ function, a virtual function of an object made with new in
// a kernel, a function pointer read from a __device__ table) stored straight
// into shared and global memory, a vec3 returned in registers and a float,
// then read by other threads after a barrier. g++'s instrumentation did not
// see the store of a call's result, so initcheck reported the reads as of
// memory never written (cuemu_gcc_plugin_call_results.cc).
// CUEMU_OPTIONS: --check=all
#include <cuda_runtime.h>

#include "../check.cuh"

struct vec3 {
  float e[3];
  __host__ __device__ vec3() {}
  __host__ __device__ vec3(float a, float b, float c) {
    e[0] = a;
    e[1] = b;
    e[2] = c;
  }
};

struct material {
  __device__ virtual vec3 albedo(unsigned t) const { return vec3(t, 0.5f, 0.25f); }
  __device__ virtual float roughness(unsigned t) const { return 0.125f * t; }
  __device__ virtual ~material() {}
};

__device__ __noinline__ vec3 sky(unsigned t) { return vec3(1.0f, t, 2.0f); }
__device__ __noinline__ float weight(unsigned t) { return 0.5f * t; }
typedef vec3 (*shader)(unsigned);
__device__ vec3 shade_red(unsigned t) { return vec3(t + 1.0f, 0, 0); }
__device__ shader shaders[1] = {shade_red};

__global__ void make_material(material **m) { *m = new material(); }
__global__ void free_material(material **m) { delete *m; }

constexpr unsigned kThreads = 64;

__global__ void shade(material **m, shader fn, vec3 *colours, float *out) {
  __shared__ vec3 from_sky[kThreads], from_material[kThreads], from_table[kThreads];
  __shared__ float weights[kThreads], roughness[kThreads];
  unsigned t = threadIdx.x, g = blockIdx.x * kThreads + t;
  from_sky[t] = sky(t);
  from_material[t] = (*m)->albedo(t);
  from_table[t] = fn(t);
  weights[t] = weight(t);
  roughness[t] = (*m)->roughness(t);
  colours[g] = (*m)->albedo(t);
  __syncthreads();
  unsigned n = (t + 1) % kThreads;
  out[g] = from_sky[n].e[1] + from_material[n].e[0] + from_table[n].e[0] +
           weights[n] + roughness[n] + colours[blockIdx.x * kThreads + n].e[2];
}

int main() {
  material **m;
  CHECK((cudaMalloc(&m, sizeof(material *))) == cudaSuccess);
  make_material<<<1, 1>>>(m);
  shader fn;
  CHECK((cudaMemcpyFromSymbol(&fn, shaders, sizeof fn)) == cudaSuccess);
  vec3 *colours;
  float *out;
  CHECK((cudaMalloc(&colours, 2 * kThreads * sizeof(vec3))) == cudaSuccess);
  CHECK((cudaMalloc(&out, 2 * kThreads * sizeof(float))) == cudaSuccess);
  shade<<<2, kThreads>>>(m, fn, colours, out);
  CHECK((cudaGetLastError()) == cudaSuccess);
  free_material<<<1, 1>>>(m);
  CHECK((cudaDeviceSynchronize()) == cudaSuccess);
  float got[2 * kThreads];
  CHECK((cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost)) == cudaSuccess);
  for (unsigned g = 0; g < 2 * kThreads; ++g) {
    unsigned n = (g % kThreads + 1) % kThreads;
    float want = n + n + (n + 1.0f) + 0.5f * n + 0.125f * n + 0.25f;
    CHECK(got[g] == want);
  }
  CHECK((cudaFree(m)) == cudaSuccess);
  CHECK((cudaFree(colours)) == cudaSuccess);
  CHECK((cudaFree(out)) == cudaSuccess);
  return finish();
}
