// shadow_dlopen.cu: a program of tests/programs/shadow that loads
// shadow_lib.cu's shared library (its path, argv[1]), runs its check and
// unloads it, then reaches its own __device__ variable through the symbol
// calls: the unloaded library's records of host objects are forgotten
// (tests/programs_shadow.sh).
#include <cstdio>
#include <cuda_runtime.h>
#include <dlfcn.h>

__device__ int own_value = 3;

int main(int argc, char **argv) {
  if (argc < 2)
    return 1;
  void *lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    printf("FAIL: dlopen: %s\n", dlerror());
    return 1;
  }
  int (*check)(void) = (int (*)(void))dlsym(lib, "shadow_lib_check");
  int status = check ? check() : -1;
  dlclose(lib);
  if (status != 0) {
    printf("FAIL: the library's check: %d\n", status);
    return 1;
  }
  int value = 40, back = 0;
  if (cudaMemcpyToSymbol(own_value, &value, sizeof value) != cudaSuccess ||
      cudaMemcpyFromSymbol(&back, own_value, sizeof back) != cudaSuccess ||
      back != 40 || own_value != 3) {
    printf("FAIL: own_value after the library's unload\n");
    return 1;
  }
  printf("PASS\n");
  return 0;
}
