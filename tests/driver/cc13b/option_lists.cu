// option_lists.cu: built by tests/driver_option_lists.sh with nvcc's
// comma-separated option lists: -I inc_a,inc_b, -D X=1,Y=2, a `\,` inside
// a -D value, -U U1,U2, -isystem, -include, -L and -l lists, -Xcompiler
// -DXC1=1,-DXC2=2, a `\,` inside an -Xcompiler value (-DXC3=5\,6 is one
// option, XC3 the list 5,6; a comma inside double quotes, -D
// 'QUOTED="c,d",AFTER=5'; and -Xlinker -Map,FILE, checked by the script).
// Each
// item adds a bit; the program prints PASS when every one arrived.
#include <cstdio>
#include <cstring>

#include "list_a.h"
#include "list_b.h"
#include <list_sys_a.h>
#include <list_sys_b.h>

#if defined(U1) || defined(U2)
#error "-U U1,U2 did not undefine both"
#endif

extern "C" int list_one(void);
extern "C" int list_two(void);

__global__ void sum(int *out) {
  *out = FROM_A + FROM_B + FROM_SYS_A + FROM_SYS_B + PRE_ONE + PRE_TWO;
}

int main() {
  int *d = nullptr, got = 0;
  if (cudaMalloc(&d, sizeof got) != cudaSuccess)
    return 1;
  sum<<<1, 1>>>(d);
  if (cudaMemcpy(&got, d, sizeof got, cudaMemcpyDeviceToHost) != cudaSuccess)
    return 1;
  cudaFree(d);
  got += list_one() + list_two();
  const int defines = X + Y + XC1 + XC2;
  const int xc3[] = {XC3};
  const bool comma = strcmp(GREETING, "a,b") == 0 &&
                     strcmp(QUOTED, "c,d") == 0 && AFTER == 5 &&
                     sizeof xc3 == 2 * sizeof(int) && xc3[1] == 6;
  printf("sum %d defines %d greeting %s xc3 %d\n", got, defines, GREETING,
         xc3[0] * 10 + xc3[1]);
  if (got == 255 && defines == 10 && comma)
    printf("PASS\n");
  return 0;
}
