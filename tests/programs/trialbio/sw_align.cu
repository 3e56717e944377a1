// sw_align.cu: aligns many short protein-like pairs both ways on the device,
// checks every score and end cell against the host Gotoh DP, and checks host
// tracebacks from the device's end cells.
#include "bio/sw_kernels.cu"
#include "bio/host_ref.cpp"
#include <algorithm>
#include "bio/bio_common.cuh"
#include "bio/host_ref.h"
#include "bio/sw_params.h"

int main(int argc, char** argv) {
  const int pairs = argc > 1 ? atoi(argv[1]) : 300;
  std::mt19937 rng(20240611u);
  int8_t matrix[SW_ALPHA * SW_ALPHA];
  make_blosum_like(matrix);
  const SwScoring sc{11, 1};
  const int stride = bio::Packer<4>::words(SW_MAX_TARGET);
  std::vector<uint8_t> qcodes(pairs * SW_MAX_TARGET), tcodes(pairs * SW_MAX_TARGET);
  std::vector<uint32_t> qpack(pairs * stride), tpack(pairs * stride);
  std::vector<int> qlen(pairs), tlen(pairs);
  std::uniform_int_distribution<int> res(0, SW_ALPHA - 1);
  for (int p = 0; p < pairs; ++p) {
    qlen[p] = 8 + rng() % (SW_MAX_QUERY - 7);
    tlen[p] = 16 + rng() % (SW_MAX_TARGET - 15);
    uint8_t* q = &qcodes[p * SW_MAX_TARGET];
    uint8_t* t = &tcodes[p * SW_MAX_TARGET];
    for (int j = 0; j < tlen[p]; ++j) t[j] = res(rng);
    // Plant a mutated copy of part of the target in the query.
    const int at = rng() % std::max(1, tlen[p] - qlen[p]);
    for (int i = 0; i < qlen[p]; ++i) q[i] = (rng() % 4 == 0) ? res(rng) : t[std::min(at + i, tlen[p] - 1)];
    bio::Packer<4>::pack(q, qlen[p], &qpack[p * stride]);
    bio::Packer<4>::pack(t, tlen[p], &tpack[p * stride]);
  }
  uint32_t *d_q, *d_t;
  int *d_ql, *d_tl;
  SwResult *d_inter, *d_intra;
  CUDA_CHECK(cudaMalloc(&d_q, qpack.size() * sizeof(uint32_t)));
  CUDA_CHECK(cudaMalloc(&d_t, tpack.size() * sizeof(uint32_t)));
  CUDA_CHECK(cudaMalloc(&d_ql, pairs * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_tl, pairs * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_inter, pairs * sizeof(SwResult)));
  CUDA_CHECK(cudaMalloc(&d_intra, pairs * sizeof(SwResult)));
  CUDA_CHECK(cudaMemcpy(d_q, qpack.data(), qpack.size() * sizeof(uint32_t), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_t, tpack.data(), tpack.size() * sizeof(uint32_t), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_ql, qlen.data(), pairs * sizeof(int), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_tl, tlen.data(), pairs * sizeof(int), cudaMemcpyHostToDevice));
  sw_upload_matrix(matrix);
  SwBatch batch{d_q, d_t, d_ql, d_tl, stride, pairs};
  const float ms_inter = sw_align_inter(batch, sc, d_inter);
  const float ms_intra = sw_align_intra(batch, sc, d_intra);
  CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<SwResult> inter(pairs), intra(pairs);
  CUDA_CHECK(cudaMemcpy(inter.data(), d_inter, pairs * sizeof(SwResult), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(intra.data(), d_intra, pairs * sizeof(SwResult), cudaMemcpyDeviceToHost));
  int bad = 0;
  long total = 0;
  for (int p = 0; p < pairs; ++p) {
    std::string aq, at;
    const SwResult ref = host_sw(&qcodes[p * SW_MAX_TARGET], qlen[p], &tcodes[p * SW_MAX_TARGET],
                                 tlen[p], matrix, sc, &aq, &at);
    total += ref.score;
    for (const SwResult* r : {&inter[p], &intra[p]}) {
      if (r->score != ref.score || r->query_end != ref.query_end || r->target_end != ref.target_end) {
        if (bad++ < 5)
          printf("pair %d: %s got (%d,%d,%d) expected (%d,%d,%d)\n", p, r == &inter[p] ? "inter" : "intra",
                 r->score, r->query_end, r->target_end, ref.score, ref.query_end, ref.target_end);
      }
    }
    if (host_score_alignment(aq, at, matrix, sc) != ref.score) {
      if (bad++ < 5) printf("pair %d: traceback scores %d, not %d\n", p, host_score_alignment(aq, at, matrix, sc), ref.score);
    }
    if (p == 0) printf("pair 0 (score %d):\n  %s\n  %s\n", ref.score, aq.c_str(), at.c_str());
  }
  printf("%d pairs, total score %ld, inter-task %.3f ms, intra-task %.3f ms\n", pairs, total, ms_inter, ms_intra);
  CUDA_CHECK(cudaFree(d_q));
  CUDA_CHECK(cudaFree(d_t));
  CUDA_CHECK(cudaFree(d_ql));
  CUDA_CHECK(cudaFree(d_tl));
  CUDA_CHECK(cudaFree(d_inter));
  CUDA_CHECK(cudaFree(d_intra));
  return bio::report("sw_align", bad == 0);
}
