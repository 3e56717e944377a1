// samp_check.h: error checking shared by the sample programs, in the
// manner of the samples' helper headers.
#ifndef TRIALSAMP3_SAMP_CHECK_H
#define TRIALSAMP3_SAMP_CHECK_H
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

// Under cuemu the emulated devices come from CUEMU_DEVICE, set before the
// first CUDA call; a GPU ignores it. A program may name its own first.
#ifndef SAMP_DEVICES
#define SAMP_DEVICES "count=2"
#endif
static const int samp_devices_set_ = setenv("CUEMU_DEVICE", SAMP_DEVICES, 0);

#define checkCudaErrors(call)                                                  \
  do {                                                                         \
    cudaError_t e_ = (call);                                                   \
    if (e_ != cudaSuccess) {                                                   \
      fprintf(stderr, "CUDA error at %s:%d code=%d(%s) \"%s\"\n", __FILE__,    \
              __LINE__, (int)e_, cudaGetErrorName(e_), #call);                 \
      exit(EXIT_FAILURE);                                                      \
    }                                                                          \
  } while (0)

#define expectCuda(call, want)                                                 \
  do {                                                                         \
    cudaError_t e_ = (call);                                                   \
    if (e_ != (want)) {                                                        \
      fprintf(stderr, "%s:%d: %s gave %s, expected %s\n", __FILE__, __LINE__,  \
              #call, cudaGetErrorName(e_), cudaGetErrorName(want));            \
      exit(EXIT_FAILURE);                                                      \
    }                                                                          \
    (void)cudaGetLastError();                                                  \
  } while (0)

static inline int samp_result(bool ok, const char *name) {
  (void)samp_devices_set_;
  printf("%s %s\n%s\n", name, ok ? "completed, result OK" : "FAILED",
         ok ? "PASS" : "FAIL");
  return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
#endif // TRIALSAMP3_SAMP_CHECK_H
