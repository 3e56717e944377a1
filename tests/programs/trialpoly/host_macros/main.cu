/* main.cu: the macros nvcc defines for the .c and .cpp files of its command
 * line (nvcc -dryrun: -D__NVCC__ -D__CUDACC_VER_MAJOR__=13 ... and
 * -D__CUDA_API_VER_MAJOR__=13 ..., no __CUDACC__), as for a .cu file, which
 * also has __CUDACC__. Built by tests/programs_trialpoly.sh as
 * `cuemu-nvcc main.cu host_macros.c host_macros.cpp`. */
#include <cstdio>
#include <cstring>
#include "host_macros.h"

int main() {
  char cu[128], c[128], cpp[128];
  describe_macros(cu, sizeof cu);
  c_file_macros(c, sizeof c);
  cpp_file_macros(cpp, sizeof cpp);
  const char *want_cu = "__NVCC__ __CUDACC__ 13.0.88 api 13.0";
  const char *want_host = "__NVCC__ 13.0.88 api 13.0";
  int ok = strcmp(cu, want_cu) == 0 && strcmp(c, want_host) == 0 && strcmp(cpp, want_host) == 0;
  printf(".cu: %s\n.c: %s\n.cpp: %s\n", cu, c, cpp);
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
