/* printf_fault.cu: issue 17's printf program, wrong on purpose: thread 3 of
 * every block prints a string through a bad pointer. The emulated leg must
 * end with a kernel fault at the printf's line, under 1 and 2 workers,
 * without hanging (tests/parity_runner.sh). */
#include <cstdio>

extern "C" __global__ void mark(int n, const int *p, int *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 3)
    printf("value %d name %s\n", p[0], (const char *)16); /* FAULT_LINE */
  if (i < n) y[i] = 1;
}
