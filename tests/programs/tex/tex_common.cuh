/*
 * tex_common.cuh: what the texture test programs share: building texture
 * descriptors, and kernels that fetch a list of coordinates through any
 * of CUDA's fetch functions and store the results.
 */
#ifndef TEX_COMMON_CUH
#define TEX_COMMON_CUH

#include <cstring>

#include <cuda_runtime.h>

#include "../check.cuh"

/* A texture descriptor: one address mode for every dimension. */
static inline cudaTextureDesc tex_desc(cudaTextureAddressMode mode,
                                       cudaTextureFilterMode filter,
                                       cudaTextureReadMode read,
                                       int normalized) {
  cudaTextureDesc d;
  std::memset(&d, 0, sizeof d);
  d.addressMode[0] = d.addressMode[1] = d.addressMode[2] = mode;
  d.filterMode = filter;
  d.readMode = read;
  d.normalizedCoords = normalized;
  return d;
}

static inline cudaResourceDesc array_resource(cudaArray_t a) {
  cudaResourceDesc r;
  std::memset(&r, 0, sizeof r);
  r.resType = cudaResourceTypeArray;
  r.res.array.array = a;
  return r;
}

static inline cudaTextureObject_t make_texture(cudaArray_t a,
                                               const cudaTextureDesc &d) {
  cudaResourceDesc r = array_resource(a);
  cudaTextureObject_t t = 0;
  CHECK(cudaCreateTextureObject(&t, &r, &d, nullptr) == cudaSuccess);
  return t;
}

/* The coordinates of one fetch. */
struct Probe {
  float x, y, z;
  int layer;
  float level;
};

/* out[i] = Fetch()(tex, probe[i]) for each probe. */
template <class T, class Fetch>
__global__ void fetch_all(cudaTextureObject_t tex, const Probe *probe, T *out,
                          int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = Fetch()(tex, probe[i]);
}

/* Runs fetch_all over `n` probes and copies the results to `result`. */
template <class T, class Fetch>
void run_probes(cudaTextureObject_t tex, const Probe *probes, T *result,
                int n) {
  Probe *d_probe = nullptr;
  T *d_out = nullptr;
  CHECK(cudaMalloc(&d_probe, n * sizeof(Probe)) == cudaSuccess);
  CHECK(cudaMalloc(&d_out, n * sizeof(T)) == cudaSuccess);
  CHECK(cudaMemcpy(d_probe, probes, n * sizeof(Probe),
                   cudaMemcpyHostToDevice) == cudaSuccess);
  fetch_all<T, Fetch><<<(n + 31) / 32, 32>>>(tex, d_probe, d_out, n);
  CHECK(cudaGetLastError() == cudaSuccess);
  CHECK(cudaMemcpy(result, d_out, n * sizeof(T), cudaMemcpyDeviceToHost) ==
        cudaSuccess);
  cudaFree(d_probe);
  cudaFree(d_out);
}

/* Fetches every probe as a float through Fetch and checks each result
 * against the value worked out by hand, exactly (bit for bit). */
template <class Fetch>
void expect_floats(const char *what, cudaTextureObject_t tex, const Probe *p,
                   const float *expected, int n) {
  float got[64];
  run_probes<float, Fetch>(tex, p, got, n);
  for (int i = 0; i < n; ++i) {
    if (got[i] != expected[i] &&
        !(got[i] != got[i] && expected[i] != expected[i])) {
      std::fprintf(stderr,
                   "%s: probe %d (%g, %g, %g, layer %d, level %g): got %.9g, "
                   "expected %.9g\n",
                   what, i, p[i].x, p[i].y, p[i].z, p[i].layer, p[i].level,
                   got[i], expected[i]);
      ++check_failures;
    }
  }
}

/* The fetch functions, as functors over a probe. */
struct Tex1D {
  __device__ float operator()(cudaTextureObject_t t, const Probe &p) const {
    return tex1D<float>(t, p.x);
  }
};
struct Tex2D {
  __device__ float operator()(cudaTextureObject_t t, const Probe &p) const {
    return tex2D<float>(t, p.x, p.y);
  }
};
struct Tex3D {
  __device__ float operator()(cudaTextureObject_t t, const Probe &p) const {
    return tex3D<float>(t, p.x, p.y, p.z);
  }
};

#endif
