/*
 * cuemu_cuda_libraries.c: the libraries of CUDA's toolkit that a program
 * may link, and what cuemu-nvcc does with each (cuemu_driver.h).
 */
#include <string.h>

#include "compile/cuemu_driver.h"

/* The libraries that cuemu builds itself (emulator/libs), and those it
 * does not emulate (the same list as emulator/libs/libs.am's
 * cuemu_libs_refused), with what they are. */
static const struct {
  const char *name, *what;
  int emulated;
} libraries[] = {
    {"cublas", "cuBLAS", 1},          {"cublas_static", "cuBLAS", 1},
    {"curand", "cuRAND", 1},          {"curand_static", "cuRAND", 1},
    /* CMake's CUDA::cublas links cuBLASLt too: its script names cuemu's
     * cuBLAS (cuBLASLt's own functions are not emulated: a program that
     * calls them fails to link, on their names). */
    {"cublasLt", "cuBLASLt", 1},      {"cublasLt_static", "cuBLASLt", 1},
    {"nvblas", "NVBLAS", 0},          {"cufft", "cuFFT", 0},
    {"cufftw", "cuFFTW", 0},          {"cufft_static", "cuFFT", 0},
    {"cusparse", "cuSPARSE", 0},      {"cusparse_static", "cuSPARSE", 0},
    {"cusolver", "cuSOLVER", 0},      {"cusolver_static", "cuSOLVER", 0},
    {"cusolverMg", "cuSOLVERMg", 0},  {"npps", "NPP", 0},
    {"nppc", "NPP", 0},               {"nppial", "NPP", 0},
    {"nppicc", "NPP", 0},             {"nppidei", "NPP", 0},
    {"nppif", "NPP", 0},              {"nppig", "NPP", 0},
    {"nppim", "NPP", 0},              {"nppist", "NPP", 0},
    {"nppisu", "NPP", 0},             {"nppitc", "NPP", 0},
    {"nvjpeg", "nvJPEG", 0},          {"nvjpeg_static", "nvJPEG", 0},
    {"cudnn", "cuDNN", 0},            {"cutensor", "cuTENSOR", 0},
    {"nccl", "NCCL", 0},              {"cufile", "cuFile (GPUDirect Storage)", 0},
};

int cuemu__cuda_library(const char *name, const char **what) {
  for (size_t i = 0; i < sizeof libraries / sizeof *libraries; ++i)
    if (strcmp(name, libraries[i].name) == 0) {
      if (what)
        *what = libraries[i].what;
      return libraries[i].emulated ? 1 : -1;
    }
  return 0;
}

int cuemu__cuda_library_file(const char *path, char *name, size_t cap) {
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  if (strncmp(base, "lib", 3) != 0)
    return 0;
  base += 3;
  /* libNAME.so, libNAME.so.VERSION or libNAME.a */
  size_t len = strcspn(base, ".");
  const char *rest = base + len;
  if (strcmp(rest, ".a") != 0 && strcmp(rest, ".so") != 0 &&
      strncmp(rest, ".so.", 4) != 0)
    return 0;
  if (len == 0 || len >= cap)
    return 0;
  memcpy(name, base, len);
  name[len] = '\0';
  return cuemu__cuda_library(name, NULL);
}
