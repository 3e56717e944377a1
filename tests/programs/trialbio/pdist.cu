// pdist.cu: p-distances of a family of related sequences and the closest
// pair, as the first step of neighbour joining; checked against the host.
#include <cmath>
#include "bio/pdist_kernels.cuh"

int main() {
  std::mt19937 rng(4242u);
  const int count = 96, length = 500;
  const int words = bio::Packer<2>::words(length);
  // A star phylogeny: each sequence is the ancestor with its own mutations.
  const std::string ancestor = bio::random_dna(rng, length);
  std::vector<std::string> seqs(count, ancestor);
  for (int s = 0; s < count; ++s) {
    const int muts = 20 + rng() % 200;
    for (int k = 0; k < muts; ++k) seqs[s][rng() % length] = "ACGT"[rng() % 4];
  }
  seqs[77] = seqs[12];
  seqs[77][5] = seqs[77][5] == 'A' ? 'C' : 'A';  // the closest pair, 1 difference
  std::vector<uint32_t> packed(count * words);
  for (int s = 0; s < count; ++s) {
    std::vector<uint8_t> codes(length);
    for (int i = 0; i < length; ++i) codes[i] = (uint8_t)bio::dna_code(seqs[s][i]);
    bio::Packer<2>::pack(codes.data(), length, &packed[s * words]);
  }
  uint32_t* d_seqs;
  float* d_dist;
  unsigned long long* d_best;
  CUDA_CHECK(cudaMalloc(&d_seqs, packed.size() * sizeof(uint32_t)));
  CUDA_CHECK(cudaMalloc(&d_dist, (size_t)count * count * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_best, sizeof(unsigned long long)));
  CUDA_CHECK(cudaMemcpy(d_seqs, packed.data(), packed.size() * sizeof(uint32_t), cudaMemcpyHostToDevice));
  const unsigned long long init = ~0ull;
  CUDA_CHECK(cudaMemcpy(d_best, &init, sizeof(init), cudaMemcpyHostToDevice));
  bio::GpuTimer timer;
  timer.start();
  const dim3 block(pdist::kTile, pdist::kTile);
  const dim3 grid((count + pdist::kTile - 1) / pdist::kTile, (count + pdist::kTile - 1) / pdist::kTile);
  pdist::distance_kernel<<<grid, block>>>(d_seqs, count, words, length, d_dist);
  CUDA_CHECK_LAST();
  pdist::closest_pair_kernel<256><<<24, 256>>>(d_dist, count, d_best);
  CUDA_CHECK_LAST();
  pdist::report_kernel<<<1, 1>>>(d_best, count);
  CUDA_CHECK_LAST();
  const float ms = timer.stop();
  std::vector<float> dist((size_t)count * count);
  unsigned long long best = 0;
  CUDA_CHECK(cudaMemcpy(dist.data(), d_dist, dist.size() * sizeof(float), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(&best, d_best, sizeof(best), cudaMemcpyDeviceToHost));
  int bad = 0;
  float ref_min = 2.f;
  unsigned ref_k = 0;
  std::vector<float> ref((size_t)count * count);
#pragma omp parallel for schedule(dynamic, 4)
  for (int i = 0; i < count; ++i)
    for (int j = 0; j < count; ++j) {
      int diff = 0;
      for (int b = 0; b < length; ++b) diff += seqs[i][b] != seqs[j][b];
      ref[(size_t)i * count + j] = (float)diff / (float)length;
    }
  for (int i = 0; i < count; ++i)
    for (int j = 0; j < count; ++j) {
      const float r = ref[(size_t)i * count + j];
      if (dist[(size_t)i * count + j] != r && bad++ < 5)
        printf("d(%d,%d) = %f expected %f\n", i, j, dist[(size_t)i * count + j], r);
      if (j > i && r < ref_min) ref_min = r, ref_k = (unsigned)(i * count + j);
    }
  const unsigned k = (unsigned)(best & 0xffffffffu);
  if (k != ref_k && bad++ < 5) printf("closest pair %u, expected %u\n", k, ref_k);
  printf("%d sequences of %d bases, closest (%u, %u) at %.4f, %.3f ms\n", count, length, ref_k / count,
         ref_k % count, ref_min, ms);
  CUDA_CHECK(cudaFree(d_seqs));
  CUDA_CHECK(cudaFree(d_dist));
  CUDA_CHECK(cudaFree(d_best));
  return bio::report("pdist", bad == 0);
}
