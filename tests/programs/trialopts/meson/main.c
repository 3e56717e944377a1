#include <stdio.h>

#include <cuda_runtime.h>

#include "squares.h"

int main(void) {
  int h[1000], i, count = 0, bad = 0;
  struct cudaDeviceProp prop;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count < 1 ||
      cudaGetDeviceProperties(&prop, 0) != cudaSuccess || prop.warpSize != 32)
    bad = 1;
  if (squares_on_device(h, 1000) != 0)
    bad = 1;
  for (i = 0; i < 1000 && !bad; i++)
    if (h[i] != i * i) {
      printf("h[%d] = %d\n", i, h[i]);
      bad = 1;
    }
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad;
}
