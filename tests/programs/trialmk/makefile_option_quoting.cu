// makefile_option_quoting.cu: nvcc's options as Makefiles write them. A
// recipe line such as
//   nvcc -gencode arch=compute_90,code=\"sm_90,compute_90\" -Xcompiler "-O2 -Wall"
// gives nvcc a -gencode value with literal double quotes (the CUDA samples'
// older Makefiles, and many projects', write it so), which nvcc takes; and
// nvcc puts each comma-separated piece of an -Xcompiler value into the host
// compiler's shell command, so a piece in double quotes keeps its commas
// and loses its quotes, and "\," is a comma. Reduced from building the
// olcf, Rodinia and PolyBench trials of branch trialmk with Makefiles.
// tests/driver_makefile_options.sh builds this file with a value that holds
// white space as well.
// CUEMU_OPTIONS: -gencode arch=compute_90,code="sm_90,compute_90" -Xcompiler "-DQUOTED_PIECE=3,4",-DESCAPED_COMMA=5\,6,-DSPACED_A=7 -DSPACED_B=8
// NVCC_OPTIONS: -Xcompiler "-DQUOTED_PIECE=3,4",-DESCAPED_COMMA=5\,6,-DSPACED_A=7 -DSPACED_B=8
#include <cstdio>

#if !defined(QUOTED_PIECE) || !defined(ESCAPED_COMMA) || \
    !defined(SPACED_A) || !defined(SPACED_B)
#error "the -Xcompiler options did not reach the host compiler"
#endif

__global__ void sum_pieces(int *out) {
  const int quoted[] = {QUOTED_PIECE};
  const int escaped[] = {ESCAPED_COMMA};
  if (sizeof quoted / sizeof *quoted == 2 &&
      sizeof escaped / sizeof *escaped == 2)
    out[threadIdx.x] = quoted[threadIdx.x] + escaped[threadIdx.x] + SPACED_A +
                       SPACED_B;
}

int main() {
  int *out = nullptr;
  if (cudaMallocManaged(&out, 2 * sizeof(int)) != cudaSuccess)
    return 1;
  out[0] = out[1] = 0;
  sum_pieces<<<1, 2>>>(out);
  if (cudaDeviceSynchronize() != cudaSuccess)
    return 1;
  // 3 + 5 + 7 + 8 and 4 + 6 + 7 + 8.
  const bool ok = out[0] == 23 && out[1] == 25;
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  if (!ok)
    std::printf("sums %d %d, expected 23 25\n", out[0], out[1]);
  cudaFree(out);
  return ok ? 0 : 1;
}
