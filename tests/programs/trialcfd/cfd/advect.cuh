// Semi-Lagrangian advection of a scalar through a texture with hardware
// bilinear filtering; the result is written through a surface object.
#ifndef CFD_ADVECT_CUH
#define CFD_ADVECT_CUH

#include "cuda_check.cuh"

namespace cfd {

struct RotationField {
  float cx, cy;  // centre of rotation, in cells
  float omega;   // angular velocity, radians per unit time
  __host__ __device__ void velocity(float x, float y, float &u, float &v) const {
    u = -omega * (y - cy);
    v = omega * (x - cx);
  }
};

__global__ void advect_kernel(cudaTextureObject_t q_in, cudaSurfaceObject_t q_out,
                              int nx, int ny, float dt, RotationField field) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= nx || j >= ny)
    return;
  float u, v;
  field.velocity(float(i), float(j), u, v);
  // Midpoint back-trace.
  const float xm = i - 0.5f * dt * u, ym = j - 0.5f * dt * v;
  field.velocity(xm, ym, u, v);
  const float xd = i - dt * u, yd = j - dt * v;
  // Texel centres are at +0.5 with unnormalised coordinates.
  const float q = tex2D<float>(q_in, xd + 0.5f, yd + 0.5f);
  surf2Dwrite(q, q_out, i * int(sizeof(float)), j);
}

// Sum of the field read through the surface (a check that surf2Dread sees
// what the previous kernel wrote).
__global__ void surface_sum_kernel(cudaSurfaceObject_t s, int nx, int ny,
                                   double *__restrict__ sum) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= nx || j >= ny)
    return;
  float q;
  surf2Dread(&q, s, i * 4, j);
  atomicAdd(sum, double(q));
}

} // namespace cfd

#endif // CFD_ADVECT_CUH
