/*
 * wmma_uniform_arguments.cu: CUDA requires the pointer, the leading
 * dimension and the layout of wmma::load_matrix_sync and
 * wmma::store_matrix_sync to be the same in all threads of the warp (the
 * Programming Guide). A warp whose two halves load different tiles (a
 * 16x16 block over a tiled GEMM, as a public practice repository's
 * kernel did) reads parts of both on a GPU and computes garbage,
 * silently; cuemu ends the launch (cudaErrorLaunchFailure, as for the other
 * misuses of a warp collective) with an error that names the call. The
 * same kernel with one tile per warp computes the product.
 */
#include <cstdio>
#include <cstdlib>
#include <cuda_fp16.h>
#include <mma.h>
#include <string>

#include "../check.cuh"
#include "../stderr_capture.cuh"

using namespace nvcuda;

/* C = A(tile) * B for one 16x16x16 tile; the warp's lanes 16-31 take A's
 * tile `upper` (0: the same as lanes 0-15). */
__global__ void tile_product(const half *a, const half *b, float *c,
                             int upper) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::fill_fragment(fc, 0.0f);
  int tile = threadIdx.x < 16 ? 0 : upper;
  wmma::load_matrix_sync(fa, a + tile * 256, 16);
  wmma::load_matrix_sync(fb, b, 16);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);
}

#ifdef __CUEMU__
static bool has(const std::string &text, const char *what) {
  return text.find(what) != std::string::npos;
}
#endif

int main() {
  /* The report is what this test reads (make check sets CUEMU_QUIET). */
  unsetenv("CUEMU_QUIET");
  half ha[512], hb[256];
  for (int i = 0; i < 512; ++i)
    ha[i] = __float2half(i < 256 ? 1.0f : 2.0f);
  for (int i = 0; i < 256; ++i)
    hb[i] = __float2half(1.0f);
  half *a, *b;
  float *c, hc[256];
  CHECK(cudaMalloc(&a, sizeof ha) == cudaSuccess);
  CHECK(cudaMalloc(&b, sizeof hb) == cudaSuccess);
  CHECK(cudaMalloc(&c, sizeof hc) == cudaSuccess);
  cudaMemcpy(a, ha, sizeof ha, cudaMemcpyHostToDevice);
  cudaMemcpy(b, hb, sizeof hb, cudaMemcpyHostToDevice);

  tile_product<<<1, 32>>>(a, b, c, 0);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  cudaMemcpy(hc, c, sizeof hc, cudaMemcpyDeviceToHost);
  CHECK(hc[0] == 16.0f && hc[255] == 16.0f);

#ifdef __CUEMU__
  std::string report = stderr_of([&] {
    tile_product<<<1, 32>>>(a, b, c, 1);
    CHECK(cudaDeviceSynchronize() == cudaErrorLaunchFailure);
  });
  CHECK(has(report, "wmma::load_matrix_sync: mptr, ldm and the layout must "
                    "be the same in all threads of the warp"));
  CHECK(has(report, "wmma_uniform_arguments.cu:32"));
  std::printf("the report above was expected\n");
#endif
  return finish();
}
