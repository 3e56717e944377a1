// refusal_messages.cu: the descriptor mistakes an imaging developer makes
// first (a surface over an array without cudaArraySurfaceLoadStore, linear
// filtering of an integer texture read as elements, a hand-computed pitch,
// a pointer into the middle of a buffer) are refused with
// cudaErrorInvalidValue, as CUDA does; under cuemu, cuemu_last_message()
// also says which rule the call broke.
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>
#if __has_include(<cuemu/cuemu.h>)
#include <cuemu/cuemu.h>
#define HAVE_CUEMU_MESSAGES 1
#endif

static int failures = 0;
static void expect_refused(cudaError_t e, const char *what, const char *words) {
  if (e != cudaErrorInvalidValue) {
    printf("%s: %s, want cudaErrorInvalidValue\n", what, cudaGetErrorName(e));
    failures++;
  }
#ifdef HAVE_CUEMU_MESSAGES
  if (!std::strstr(cuemu_last_message(), words)) {
    printf("%s: message \"%s\" lacks \"%s\"\n", what, cuemu_last_message(), words);
    failures++;
  }
#else
  (void)words;
#endif
  cudaGetLastError();
}

int main() {
  cudaChannelFormatDesc cd = cudaCreateChannelDesc<uchar4>();
  cudaArray_t a;
  if (cudaMallocArray(&a, &cd, 8, 8) != cudaSuccess) return 1;
  cudaResourceDesc rd = {};
  rd.resType = cudaResourceTypeArray;
  rd.res.array.array = a;
  cudaSurfaceObject_t s;
  expect_refused(cudaCreateSurfaceObject(&s, &rd), "surface without the flag",
                 "cudaArraySurfaceLoadStore");
  cudaTextureDesc td = {};
  td.filterMode = cudaFilterModeLinear;
  td.readMode = cudaReadModeElementType;
  cudaTextureObject_t t;
  expect_refused(cudaCreateTextureObject(&t, &rd, &td, nullptr),
                 "linear filtering of uchar4 elements", "linear filtering needs floating-point");
  float *p;
  if (cudaMalloc(&p, 1 << 16) != cudaSuccess) return 1;
  rd = {};
  rd.resType = cudaResourceTypePitch2D;
  rd.res.pitch2D.devPtr = p;
  rd.res.pitch2D.desc = cudaCreateChannelDesc<float>();
  rd.res.pitch2D.width = 10;
  rd.res.pitch2D.height = 10;
  rd.res.pitch2D.pitchInBytes = 40;
  td = {};
  expect_refused(cudaCreateTextureObject(&t, &rd, &td, nullptr), "pitch of 40 bytes",
                 "texturePitchAlignment");
  rd.res.pitch2D.devPtr = p + 16;
  rd.res.pitch2D.pitchInBytes = 64;
  expect_refused(cudaCreateTextureObject(&t, &rd, &td, nullptr), "pointer 64 bytes in",
                 "textureAlignment");
  rd.res.pitch2D.devPtr = p;
  rd.res.pitch2D.desc = cudaCreateChannelDesc<int>();
  td.readMode = cudaReadModeNormalizedFloat;
  expect_refused(cudaCreateTextureObject(&t, &rd, &td, nullptr), "normalized 32-bit int",
                 "8- or 16-bit");
  // What is allowed still works.
  rd.res.pitch2D.desc = cudaCreateChannelDesc<float>();
  td = {};
  if (cudaCreateTextureObject(&t, &rd, &td, nullptr) != cudaSuccess) failures++;
  else cudaDestroyTextureObject(t);
  cudaFreeArray(a);
  cudaFree(p);
  printf(failures ? "FAIL\n" : "PASS\n");
  return failures ? 1 : 0;
}
