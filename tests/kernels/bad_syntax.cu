/*
 * bad_syntax.cu: deliberately broken, for the compile-error test of
 * tests/check_compile.c, which looks for this file's name and the line of
 * the SYNTAX_ERROR marker in the compiler's messages.
 *
 * nvcc says: bad_syntax.cu(15): error: expected an expression
 */
#include <cuda_runtime.h>

__global__ void broken(int *out) {
  int x = (int)threadIdx.x;
  /* The line below is the error. */
  int y =
      /* padding so that the error is not on the first line of the statement */
      x + ; /* SYNTAX_ERROR */
  out[x] = y;
}
