// sw_kernels.cu: the substitution matrix and the launches of the aligners.
#include "sw_kernels.cuh"


void sw_upload_matrix(const int8_t* matrix) {
  CUDA_CHECK(cudaMemcpyToSymbol(c_subst, matrix, sizeof(c_subst)));
}

float sw_align_inter(const SwBatch& batch, SwScoring sc, SwResult* d_out) {
  constexpr int kBlock = 64;
  bio::GpuTimer timer;
  timer.start();
  sw::sw_inter_kernel<kBlock, SW_MAX_QUERY>
      <<<(batch.pairs + kBlock - 1) / kBlock, kBlock>>>(batch, sc, d_out);
  CUDA_CHECK_LAST();
  return timer.stop();
}

float sw_align_intra(const SwBatch& batch, SwScoring sc, SwResult* d_out) {
  constexpr int kWarps = 4;
  bio::GpuTimer timer;
  timer.start();
  sw::sw_intra_kernel<kWarps><<<(batch.pairs + kWarps - 1) / kWarps, kWarps * 32>>>(batch, sc, d_out);
  CUDA_CHECK_LAST();
  return timer.stop();
}
