// nw_align.cu: global alignment of two DNA sequences by tiles; the whole
// pitched score matrix is copied back and compared with the host DP.
#include "bio/nw_kernels.cu"
#include <algorithm>
#include "bio/bio_common.cuh"
#include "bio/nw_kernels.cuh"

int main() {
  std::mt19937 rng(7u);
  const int n = 301, m = 250;  // not multiples of the tile
  const std::string sa = bio::random_dna(rng, n), sb = bio::random_dna(rng, m);
  std::vector<uint8_t> a(n), b(m);
  for (int i = 0; i < n; ++i) a[i] = bio::dna_code(sa[i]);
  for (int j = 0; j < m; ++j) b[j] = bio::dna_code(sb[j]);
  const nw::NwParams p{2, -1, -2};
  uint8_t *d_a, *d_b;
  int* d_score;
  size_t pitch;
  CUDA_CHECK(cudaMalloc(&d_a, n));
  CUDA_CHECK(cudaMalloc(&d_b, m));
  CUDA_CHECK(cudaMallocPitch(&d_score, &pitch, (m + 1) * sizeof(int), n + 1));
  CUDA_CHECK(cudaMemcpy(d_a, a.data(), n, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_b, b.data(), m, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset2D(d_score, pitch, 0xff, (m + 1) * sizeof(int), n + 1));
  const float ms = nw_align(d_a, d_b, n, m, p, d_score, pitch);
  std::vector<int> dev((n + 1) * (m + 1));
  CUDA_CHECK(cudaMemcpy2D(dev.data(), (m + 1) * sizeof(int), d_score, pitch, (m + 1) * sizeof(int),
                          n + 1, cudaMemcpyDeviceToHost));
  std::vector<int> ref((n + 1) * (m + 1));
  for (int i = 0; i <= n; ++i) ref[i * (m + 1)] = i * p.gap;
  for (int j = 0; j <= m; ++j) ref[j] = j * p.gap;
  for (int i = 1; i <= n; ++i)
    for (int j = 1; j <= m; ++j) {
      int v = ref[(i - 1) * (m + 1) + j - 1] + (a[i - 1] == b[j - 1] ? p.match : p.mismatch);
      v = std::max(v, ref[(i - 1) * (m + 1) + j] + p.gap);
      v = std::max(v, ref[i * (m + 1) + j - 1] + p.gap);
      ref[i * (m + 1) + j] = v;
    }
  int bad = 0;
  for (size_t k = 0; k < ref.size(); ++k)
    if (dev[k] != ref[k] && bad++ < 5)
      printf("cell (%zu,%zu): %d expected %d\n", k / (m + 1), k % (m + 1), dev[k], ref[k]);
  printf("NW %dx%d, pitch %zu bytes, score %d, %.3f ms\n", n, m, pitch, dev.back(), ms);
  CUDA_CHECK(cudaFree(d_a));
  CUDA_CHECK(cudaFree(d_b));
  CUDA_CHECK(cudaFree(d_score));
  return bio::report("nw_align", bad == 0);
}
