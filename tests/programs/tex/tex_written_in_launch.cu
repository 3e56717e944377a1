/*
 * tex_written_in_launch.cu: CUDA leaves a texture read of memory written in
 * the same launch undefined (the texture cache is not kept coherent with
 * the writes, whatever barriers lie between). Under cuemu's racecheck
 * (built with --check=race), such a read is reported, naming the fetch and
 * the write, and the launch goes on (cuemu_check_reports); the same
 * accesses split over two launches are fine. Surface
 * writes count as writes, and surface accesses race like any others (two
 * threads writing one element without a barrier). Without cuemu's checkers
 * the program only checks the clean case.
 *
 * CUEMU_OPTIONS: --check=race
 */
#include <cstdio>
#include <cstring>

#include "tex_common.cuh"

#if __has_include(<cuemu/cuemu.h>)
#include <cuemu/cuemu.h>
#define UNDER_CUEMU 1
#endif

/* Writes buffer[i] = i, then (when `fetch`) reads it back through the
 * texture in the same launch, after a barrier. */
__global__ void write_then_fetch(float *buffer, cudaTextureObject_t tex,
                                 float *out, bool fetch) {
  int i = threadIdx.x;
  buffer[i] = (float)i;
  __syncthreads();
  if (fetch)
    out[i] = tex1Dfetch<float>(tex, (i + 1) % 64);
}

__global__ void fetch_only(cudaTextureObject_t tex, float *out) {
  int i = threadIdx.x;
  out[i] = tex1Dfetch<float>(tex, (i + 1) % 64);
}

__global__ void surface_then_texture(cudaSurfaceObject_t s,
                                     cudaTextureObject_t t, float *out) {
  int x = threadIdx.x;
  surf2Dwrite(1.0f + x, s, x * (int)sizeof(float), 0);
  __syncthreads();
  out[x] = tex2D<float>(t, x + 0.5f, 0.5f);
}

__global__ void surface_race(cudaSurfaceObject_t s) {
  surf2Dwrite((float)threadIdx.x, s, 0, 0); /* every thread, one element */
}
#ifdef UNDER_CUEMU
static const int race_line = __LINE__ - 3;
#endif

static cudaTextureObject_t linear_texture(float *buffer) {
  cudaResourceDesc r;
  std::memset(&r, 0, sizeof r);
  r.resType = cudaResourceTypeLinear;
  r.res.linear.devPtr = buffer;
  r.res.linear.desc = cudaCreateChannelDesc<float>();
  r.res.linear.sizeInBytes = 64 * sizeof(float);
  cudaTextureDesc d = tex_desc(cudaAddressModeClamp, cudaFilterModePoint,
                               cudaReadModeElementType, 0);
  cudaTextureObject_t t = 0;
  CHECK(cudaCreateTextureObject(&t, &r, &d, nullptr) == cudaSuccess);
  return t;
}

int main() {
  float *buffer = nullptr, *out = nullptr;
  CHECK(cudaMalloc(&buffer, 64 * sizeof(float)) == cudaSuccess);
  CHECK(cudaMallocManaged(&out, 64 * sizeof(float)) == cudaSuccess);
  cudaTextureObject_t t = linear_texture(buffer);
  /* Clean: the write and the fetch in two launches. */
  write_then_fetch<<<1, 64>>>(buffer, t, out, false);
  fetch_only<<<1, 64>>>(t, out);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  for (int i = 0; i < 64; ++i)
    CHECK(out[i] == (float)((i + 1) % 64));
#ifdef UNDER_CUEMU
  /* Undefined: the fetch reads what another thread wrote in this launch. */
  write_then_fetch<<<1, 64>>>(buffer, t, out, true);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  const char *m = "";
  CHECK(cuemu_check_reports(&m) > 0);
  CHECK(std::strstr(m, "racecheck: tex1Dfetch") != nullptr);
  CHECK(std::strstr(m, "written in this launch") != nullptr);
  CHECK(std::strstr(m, "tex_written_in_launch.cu") != nullptr);
  if (check_failures)
    std::fprintf(stderr, "message: %s\n", m);
  CHECK(cudaDeviceReset() == cudaSuccess);

  /* The same through a surface write and a texture of the same array. */
  cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
  cudaArray_t a = nullptr;
  CHECK(cudaMallocArray(&a, &fd, 32, 1, cudaArraySurfaceLoadStore) ==
        cudaSuccess);
  cudaResourceDesc r = array_resource(a);
  cudaSurfaceObject_t s = 0;
  CHECK(cudaCreateSurfaceObject(&s, &r) == cudaSuccess);
  cudaTextureObject_t at = make_texture(
      a, tex_desc(cudaAddressModeClamp, cudaFilterModePoint,
                  cudaReadModeElementType, 0));
  CHECK(cudaMallocManaged(&out, 64 * sizeof(float)) == cudaSuccess);
  surface_then_texture<<<1, 32>>>(s, at, out);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(cuemu_check_reports(&m) > 0);
  CHECK(std::strstr(m, "racecheck: tex2D") != nullptr);
  if (check_failures)
    std::fprintf(stderr, "message: %s\n", m);
  CHECK(cudaDeviceReset() == cudaSuccess);

  /* Two threads write one surface element without a barrier: a race,
   * reported at the line of the write. */
  CHECK(cudaMallocArray(&a, &fd, 32, 1, cudaArraySurfaceLoadStore) ==
        cudaSuccess);
  r = array_resource(a);
  CHECK(cudaCreateSurfaceObject(&s, &r) == cudaSuccess);
  surface_race<<<1, 4>>>(s);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(cuemu_check_reports(&m) > 0);
  char line[64];
  std::snprintf(line, sizeof line, "tex_written_in_launch.cu:%d", race_line);
  CHECK(std::strstr(m, "racecheck: race (WAW") != nullptr);
  CHECK(std::strstr(m, line) != nullptr);
  if (check_failures)
    std::fprintf(stderr, "message: %s\n", m);
  /* The reports were expected: the program's exit status stays 0. */
  cuemu_check_reports_clear();
  CHECK(cudaDeviceReset() == cudaSuccess);
#endif
  return finish();
}
