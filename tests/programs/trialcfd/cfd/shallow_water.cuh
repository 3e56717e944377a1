// Finite-volume shallow water equations (first order, Rusanov fluxes) on a
// closed basin with reflective walls; state (h, hu, hv) as float3 per cell.
#ifndef CFD_SHALLOW_WATER_CUH
#define CFD_SHALLOW_WATER_CUH

#include "cuda_check.cuh"

namespace cfd {
namespace swe {

constexpr float kGravity = 9.81f;

__device__ float d_max_speed; // bits of a non-negative float, for atomicMax

__host__ __device__ inline float3 flux_x(float3 q) {
  const float u = q.y / q.x;
  return make_float3(q.y, q.y * u + 0.5f * kGravity * q.x * q.x, q.z * u);
}
__host__ __device__ inline float3 flux_y(float3 q) {
  const float v = q.z / q.x;
  return make_float3(q.z, q.y * v, q.z * v + 0.5f * kGravity * q.x * q.x);
}
__host__ __device__ inline float wave_speed(float3 q) {
  const float c = sqrtf(kGravity * q.x);
  return fmaxf(fabsf(q.y / q.x), fabsf(q.z / q.x)) + c;
}
// Rusanov flux between left state a and right state b along x or y.
__host__ __device__ inline float3 rusanov(float3 a, float3 b, bool along_x) {
  const float3 fa = along_x ? flux_x(a) : flux_y(a);
  const float3 fb = along_x ? flux_x(b) : flux_y(b);
  const float s = fmaxf(wave_speed(a), wave_speed(b));
  return make_float3(0.5f * (fa.x + fb.x) - 0.5f * s * (b.x - a.x),
                     0.5f * (fa.y + fb.y) - 0.5f * s * (b.y - a.y),
                     0.5f * (fa.z + fb.z) - 0.5f * s * (b.z - a.z));
}
// The ghost state beyond a wall: normal momentum reversed.
__host__ __device__ inline float3 reflect(float3 q, bool along_x) {
  return along_x ? make_float3(q.x, -q.y, q.z) : make_float3(q.x, q.y, -q.z);
}

__global__ void max_speed_kernel(const float3 *__restrict__ q, int count) {
  float m = 0.0f;
  for (int k = blockIdx.x * blockDim.x + threadIdx.x; k < count;
       k += blockDim.x * gridDim.x)
    m = fmaxf(m, wave_speed(q[k]));
  for (int off = 16; off > 0; off >>= 1)
    m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, off));
  if ((threadIdx.x & 31) == 0)
    atomicMax(reinterpret_cast<int *>(&d_max_speed), __float_as_int(m));
}

// One forward-Euler step; the tile of the block and a one-cell halo sit in
// dynamic shared memory ((blockDim.x + 2) * (blockDim.y + 2) float3).
__global__ void step_kernel(const float3 *__restrict__ q, float3 *__restrict__ out,
                            int nx, int ny, float dt_dx) {
  extern __shared__ float3 tile[];
  const int tw = blockDim.x + 2;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int j = blockIdx.y * blockDim.y + threadIdx.y;
  const int ti = threadIdx.x + 1, tj = threadIdx.y + 1;
  // Fill the tile and its halo, with reflected ghosts at the walls.
  for (int k = threadIdx.y * blockDim.x + threadIdx.x; k < tw * (blockDim.y + 2);
       k += blockDim.x * blockDim.y) {
    const int gi = blockIdx.x * blockDim.x + k % tw - 1;
    const int gj = blockIdx.y * blockDim.y + k / tw - 1;
    const int ci = min(max(gi, 0), nx - 1), cj = min(max(gj, 0), ny - 1);
    float3 v = q[cj * nx + ci];
    if (gi < 0 || gi >= nx)
      v = reflect(v, true);
    if (gj < 0 || gj >= ny)
      v = reflect(v, false);
    tile[k] = v;
  }
  __syncthreads();
  if (i >= nx || j >= ny)
    return;
  const float3 c = tile[tj * tw + ti];
  const float3 fw = rusanov(tile[tj * tw + ti - 1], c, true);
  const float3 fe = rusanov(c, tile[tj * tw + ti + 1], true);
  const float3 fs = rusanov(tile[(tj - 1) * tw + ti], c, false);
  const float3 fn = rusanov(c, tile[(tj + 1) * tw + ti], false);
  out[j * nx + i] = make_float3(c.x - dt_dx * (fe.x - fw.x + fn.x - fs.x),
                                c.y - dt_dx * (fe.y - fw.y + fn.y - fs.y),
                                c.z - dt_dx * (fe.z - fw.z + fn.z - fs.z));
}

} // namespace swe
} // namespace cfd

#endif // CFD_SHALLOW_WATER_CUH
