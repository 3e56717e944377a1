// ptx_video_check.cuh: the host side of the tests of PTX's video
// instructions (ptx_video_*.cu). A kernel of one thread per input triple
// (a, b, c) writes `count` results per triple and, where it also computes
// them with CUDA's intrinsics or plain C++, whether the two agreed; each
// result is checked against the test's host model, written from the PTX
// ISA's pseudo-code. Include it after ../check.cuh.
#ifndef PTX_VIDEO_CHECK_CUH
#define PTX_VIDEO_CHECK_CUH

#include <cstdio>
#include <vector>

// Runs `launch(in, out, agree, n)` on device copies of the `n` triples
// (`agree` is null unless `agreement`), copies the results into `out` (n
// rows of `count`), checks the agreement flags, and checks each result
// against `want(k, a, b, c)`, the model of form k, naming the triple and
// the form of a result that differs.
template <class Launch, class Want>
void check_video_forms(const unsigned (*triples)[3], int n, int count,
                       unsigned *out, bool agreement, Launch launch,
                       Want want) {
  unsigned *d_in = nullptr, *d_out = nullptr;
  int *d_agree = nullptr;
  CHECK(cudaMalloc(&d_in, n * 3 * sizeof(unsigned)) == cudaSuccess);
  CHECK(cudaMalloc(&d_out, n * count * sizeof(unsigned)) == cudaSuccess);
  if (agreement)
    CHECK(cudaMalloc(&d_agree, n * sizeof(int)) == cudaSuccess);
  cudaMemcpy(d_in, triples, n * 3 * sizeof(unsigned), cudaMemcpyHostToDevice);
  launch(d_in, d_out, d_agree, n);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  cudaMemcpy(out, d_out, n * count * sizeof(unsigned), cudaMemcpyDeviceToHost);
  std::vector<int> agree(n, 1);
  if (agreement)
    cudaMemcpy(agree.data(), d_agree, n * sizeof(int), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i) {
    CHECK(agree[i]);
    for (int k = 0; k < count; ++k) {
      const unsigned got = out[i * count + k];
      const unsigned expected = want(k, triples[i][0], triples[i][1], triples[i][2]);
      if (got != expected)
        std::fprintf(stderr, "triple %d form %d: %08x, want %08x\n", i, k, got, expected);
      CHECK(got == expected);
    }
  }
  cudaFree(d_in);
  cudaFree(d_out);
  cudaFree(d_agree);
}

#endif
