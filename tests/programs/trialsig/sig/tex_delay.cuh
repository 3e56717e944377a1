// Fractional delays through the texture unit's linear filtering, and a
// per-channel energy with cooperative-groups tile reductions.
#ifndef SIG_TEX_DELAY_CUH
#define SIG_TEX_DELAY_CUH
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

// Rows of the texture are channels; the sample at time t of channel c with
// delay d is the filtered texel at x = t - d (texel centres at +0.5).
__global__ void tex_delay_kernel(cudaTextureObject_t tex, const float *__restrict__ delays,
                                 float *out, size_t out_pitch, int n, int nch) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const int c = blockIdx.y;
  if (t >= n || c >= nch) return;
  float v = tex2D<float>(tex, (float)t - delays[c] + 0.5f, (float)c + 0.5f);
  float *row = (float *)((char *)out + c * out_pitch);
  row[t] = v;
}

template <int TILE>
__global__ void channel_energy_kernel(const float *in, size_t pitch, int n, float *energy) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<TILE> tile = cg::tiled_partition<TILE>(block);
  const int c = blockIdx.y;
  const float *row = (const float *)((const char *)in + c * pitch);
  float acc = 0.f;
  for (int t = blockIdx.x * blockDim.x + threadIdx.x; t < n; t += blockDim.x * gridDim.x)
    acc += row[t] * row[t];
  float s = cg::reduce(tile, acc, cg::plus<float>());
  if (tile.thread_rank() == 0) atomicAdd(&energy[c], s);
}
#endif  // SIG_TEX_DELAY_CUH
