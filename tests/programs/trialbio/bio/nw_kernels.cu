// nw_kernels.cu: the border initialisation and the launches by tile diagonal.
#include "nw_kernels.cuh"

__global__ void nw_border_kernel(int* score, size_t pitch, int n, int m, int gap) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k <= m) reinterpret_cast<int*>(score)[k] = k * gap;
  if (k <= n) *reinterpret_cast<int*>(reinterpret_cast<char*>(score) + (size_t)k * pitch) = k * gap;
}

float nw_align(const uint8_t* d_a, const uint8_t* d_b, int n, int m, nw::NwParams p, int* d_score,
               size_t pitch) {
  bio::GpuTimer timer;
  timer.start();
  const int longest = n > m ? n : m;
  nw_border_kernel<<<(longest + 128) / 128, 128>>>(d_score, pitch, n, m, p.gap);
  CUDA_CHECK_LAST();
  const int ty = (n + nw::kTile - 1) / nw::kTile, tx = (m + nw::kTile - 1) / nw::kTile;
  for (int diag = 0; diag < tx + ty - 1; ++diag) {
    const int blocks = (diag < ty ? diag + 1 : ty) - (diag >= tx ? diag - tx + 1 : 0);
    nw::nw_tile_kernel<nw::kTile><<<blocks, nw::kTile>>>(d_score, pitch, d_a, d_b, n, m, diag, p);
    CUDA_CHECK_LAST();
  }
  return timer.stop();
}
