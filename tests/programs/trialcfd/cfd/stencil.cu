// Host drivers of the stencil kernels.
#include "stencil.h"
#include "stencil_kernels.cuh"

#include <utility>

namespace cfd {

void heat2d_run(const std::vector<float> &u0, std::vector<float> &out, int nx,
                int ny, float alpha, int steps) {
  constexpr int BX = 32, BY = 8;
  float *d_u = nullptr, *d_v = nullptr;
  size_t pitch_u = 0, pitch_v = 0;
  CUDA_CHECK(cudaMallocPitch(&d_u, &pitch_u, nx * sizeof(float), ny));
  CUDA_CHECK(cudaMallocPitch(&d_v, &pitch_v, nx * sizeof(float), ny));
  if (pitch_u != pitch_v || pitch_u < nx * sizeof(float)) {
    std::fprintf(stderr, "unexpected pitches %zu and %zu\n", pitch_u, pitch_v);
    std::exit(EXIT_FAILURE);
  }
  CUDA_CHECK(cudaMemcpy2D(d_u, pitch_u, u0.data(), nx * sizeof(float),
                          nx * sizeof(float), ny, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset2D(d_v, pitch_v, 0, nx * sizeof(float), ny));
  dim3 block(BX, BY);
  dim3 grid(div_up(nx, BX), div_up(ny, BY));
  for (int s = 0; s < steps; ++s) {
    heat2d_tile_kernel<BX, BY><<<grid, block>>>(d_u, d_v, pitch_u, nx, ny, alpha);
    std::swap(d_u, d_v);
  }
  CUDA_CHECK_KERNEL();
  out.resize(size_t(nx) * ny);
  CUDA_CHECK(cudaMemcpy2D(out.data(), nx * sizeof(float), d_u, pitch_u,
                          nx * sizeof(float), ny, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(d_u));
  CUDA_CHECK(cudaFree(d_v));
}

void jacobi3d_run(const std::vector<float> &u0, const std::vector<float> &rhs,
                  std::vector<float> &out, int nx, int ny, int nz, float h2,
                  int sweeps) {
  constexpr int BX = 16, BY = 8;
  const cudaExtent extent = make_cudaExtent(nx * sizeof(float), ny, nz);
  cudaPitchedPtr d_u, d_v, d_rhs;
  CUDA_CHECK(cudaMalloc3D(&d_u, extent));
  CUDA_CHECK(cudaMalloc3D(&d_v, extent));
  CUDA_CHECK(cudaMalloc3D(&d_rhs, extent));
  CUDA_CHECK(cudaMemset3D(d_v, 0, extent));

  cudaMemcpy3DParms up = {0};
  up.srcPtr = make_cudaPitchedPtr(const_cast<float *>(u0.data()),
                                  nx * sizeof(float), nx, ny);
  up.dstPtr = d_u;
  up.extent = extent;
  up.kind = cudaMemcpyHostToDevice;
  CUDA_CHECK(cudaMemcpy3D(&up));
  up.srcPtr = make_cudaPitchedPtr(const_cast<float *>(rhs.data()),
                                  nx * sizeof(float), nx, ny);
  up.dstPtr = d_rhs;
  CUDA_CHECK(cudaMemcpy3D(&up));

  dim3 block(BX, BY);
  dim3 grid(div_up(nx, BX), div_up(ny, BY));
  for (int s = 0; s < sweeps; ++s) {
    jacobi3d_kernel<BX, BY><<<grid, block>>>(d_u, d_v, d_rhs, nx, ny, nz, h2);
    std::swap(d_u, d_v);
  }
  CUDA_CHECK_KERNEL();

  out.resize(size_t(nx) * ny * nz);
  cudaMemcpy3DParms down = {0};
  down.srcPtr = d_u;
  down.dstPtr = make_cudaPitchedPtr(out.data(), nx * sizeof(float), nx, ny);
  down.extent = extent;
  down.kind = cudaMemcpyDeviceToHost;
  CUDA_CHECK(cudaMemcpy3D(&down));
  CUDA_CHECK(cudaFree(d_u.ptr));
  CUDA_CHECK(cudaFree(d_v.ptr));
  CUDA_CHECK(cudaFree(d_rhs.ptr));
}

void rbgs_run(std::vector<float> &u, const std::vector<float> &rhs, int nx,
              int ny, float h2, int sweeps) {
  float *d_u = nullptr, *d_rhs = nullptr;
  size_t pitch = 0, rpitch = 0;
  CUDA_CHECK(cudaMallocPitch(&d_u, &pitch, nx * sizeof(float), ny));
  CUDA_CHECK(cudaMallocPitch(&d_rhs, &rpitch, nx * sizeof(float), ny));
  CUDA_CHECK(cudaMemcpy2D(d_u, pitch, u.data(), nx * sizeof(float),
                          nx * sizeof(float), ny, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy2D(d_rhs, rpitch, rhs.data(), nx * sizeof(float),
                          nx * sizeof(float), ny, cudaMemcpyHostToDevice));
  dim3 block(16, 16);
  dim3 grid(div_up(nx, 16), div_up(ny, 16));
  for (int s = 0; s < sweeps; ++s)
    for (int color = 0; color < 2; ++color)
      rbgs_kernel<<<grid, block>>>(d_u, d_rhs, pitch, rpitch, nx, ny, h2, color);
  CUDA_CHECK_KERNEL();
  CUDA_CHECK(cudaMemcpy2D(u.data(), nx * sizeof(float), d_u, pitch,
                          nx * sizeof(float), ny, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(d_u));
  CUDA_CHECK(cudaFree(d_rhs));
}

} // namespace cfd
