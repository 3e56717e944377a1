// Error checking and small helpers shared by the multi-GPU samples.
#ifndef TRIALMGPU2_MG_CHECK_H
#define TRIALMGPU2_MG_CHECK_H
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

// The emulated devices a program runs on (CUEMU_DEVICE, which a GPU
// ignores), named before main, before the first CUDA call and any fork();
// a program may define MG_EMULATED_DEVICES before including this header.
#ifndef MG_EMULATED_DEVICES
#define MG_EMULATED_DEVICES "count=3"
#endif
static const int mg_devices_named_ =
    setenv("CUEMU_DEVICE", MG_EMULATED_DEVICES, 1) + setenv("CUEMU_QUIET", "1", 1);

#define MG_CHECK(call)                                                        \
  do {                                                                        \
    cudaError_t mg_err_ = (call);                                             \
    if (mg_err_ != cudaSuccess) {                                             \
      std::fprintf(stderr, "%s:%d: %s failed: %s (%s)\n", __FILE__, __LINE__, \
                   #call, cudaGetErrorString(mg_err_),                        \
                   cudaGetErrorName(mg_err_));                                \
      std::exit(EXIT_FAILURE);                                                \
    }                                                                         \
  } while (0)

#define MG_EXPECT(call, want)                                                 \
  do {                                                                        \
    cudaError_t mg_err_ = (call);                                             \
    if (mg_err_ != (want)) {                                                  \
      std::fprintf(stderr, "%s:%d: %s gave %s, expected %s\n", __FILE__,      \
                   __LINE__, #call, cudaGetErrorName(mg_err_),                \
                   cudaGetErrorName(want));                                   \
      std::exit(EXIT_FAILURE);                                                \
    }                                                                         \
  } while (0)

inline int mg_device_count(int need) {
  int n = 0;
  MG_CHECK(cudaGetDeviceCount(&n));
  if (n < need) {
    std::printf("needs %d devices, found %d: WAIVED\n", need, n);
    std::exit(2);
  }
  return n;
}

inline int mg_finish(bool ok, const char *name) {
  (void)mg_devices_named_;
  std::printf("%s: %s\n%s\n", name, ok ? "PASS" : "FAIL", ok ? "PASS" : "FAIL");
  return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
#endif // TRIALMGPU2_MG_CHECK_H
