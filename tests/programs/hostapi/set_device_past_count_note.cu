// A program written for several GPUs (a training exercise's "for each of
// 4 GPUs: cudaSetDevice(i)") run with the emulator's one device: CUDA's
// answer is cudaErrorInvalidDevice, as on a machine with one GPU, and the
// emulator adds a note, once, that CUEMU_DEVICE=count=N emulates more.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <cuda_runtime.h>
#include "../stderr_capture.cuh"

static int failures;

static void expect(bool ok, const char *what) {
  if (!ok) {
    printf("FAIL: %s\n", what);
    ++failures;
  }
}

static size_t count_of(const std::string &text, const char *part) {
  size_t n = 0;
  for (size_t at = text.find(part); at != std::string::npos;
       at = text.find(part, at + 1))
    ++n;
  return n;
}

int main() {
  setenv("CUEMU_DEVICE", "count=1", 1);
  setenv("CUEMU_QUIET", "0", 1);
  cudaError_t first = cudaSuccess, second = cudaSuccess;
  std::string text = stderr_of([&] {
    first = cudaSetDevice(1);
    cudaGetLastError();
    second = cudaSetDevice(3);
    cudaGetLastError();
  });
  expect(first == cudaErrorInvalidDevice, "cudaSetDevice(1) with one device");
  expect(second == cudaErrorInvalidDevice, "cudaSetDevice(3) with one device");
  expect(count_of(text, "cuemu: note: cudaSetDevice(1): 1 device is emulated; "
                        "CUEMU_DEVICE=count=N emulates N") == 1,
         "one note naming CUEMU_DEVICE=count=N");
  expect(count_of(text, "cuemu: note:") == 1, "the note only once");
  int device = -1;
  expect(cudaGetDevice(&device) == cudaSuccess && device == 0,
         "device 0 still current");

  // Asked for in a quiet run, no note.
  setenv("CUEMU_QUIET", "1", 1);
  text = stderr_of([&] { cudaSetDevice(2); cudaGetLastError(); });
  expect(text.empty(), "no note under CUEMU_QUIET=1");
  if (failures == 0)
    printf("PASS\n");
  return failures ? 1 : 0;
}
