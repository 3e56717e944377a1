/*
 * error_logs.cu: CUDA 12.9's error log management (cudaLogs*, cuLogs*),
 * cudaDeviceRegisterAsyncNotification and cudaSetValidDevices, as a
 * program that reports the driver's messages would use them.
 * - The arguments every call checks (flags 0, a callback, an output).
 * - Under cuemu, whose log holds the messages of the errors it reports: a
 *   launch refused (1025 threads in a block) is logged once, to the
 *   callback (cudaLogLevelError, the message and its length) and to the
 *   buffer, which cudaLogsDumpToMemory copies from an iterator (and
 *   advances it: a second dump is empty), refuses to copy into a buffer
 *   too small for any message, and cudaLogsDumpToFile appends to a file;
 *   the driver's cuLogs* calls see the same log; after
 *   cudaLogsUnregisterCallback the callback gets nothing more; a kernel's
 *   fault is logged too, naming the kernel.
 * - Async notifications: registered and unregistered per device (a
 *   handle of another device, or one unregistered already, is refused).
 * - cudaSetValidDevices: the list's checks, and that a thread that has
 *   chosen no device uses the first of the list (two devices).
 * Prints PASS when all is well.
 */
// CUEMU_OPTIONS: -lcuda
// NVCC_OPTIONS: -lcuda
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <unistd.h>

#include "../check.cuh"

namespace {

void on_notification(cudaAsyncNotificationInfo_t *, void *,
                     cudaAsyncCallbackHandle_t) {}

void argument_checks() {
  cudaLogIterator it = 0;
  CHECK(cudaLogsCurrent(&it, 0) == cudaSuccess);
  CHECK(cudaLogsCurrent(&it, 1) == cudaErrorInvalidValue);
  CHECK(cudaLogsCurrent(nullptr, 0) == cudaErrorInvalidValue);
  CHECK(cudaLogsRegisterCallback(nullptr, nullptr, nullptr) ==
        cudaErrorInvalidValue);
  char buffer[64];
  size_t size = sizeof buffer;
  CHECK(cudaLogsDumpToMemory(&it, buffer, &size, 1) == cudaErrorInvalidValue);
  CHECK(cudaLogsDumpToMemory(&it, buffer, nullptr, 0) ==
        cudaErrorInvalidValue);
  CHECK(cudaLogsDumpToFile(&it, "/tmp/x", 2) == cudaErrorInvalidValue);
  cudaGetLastError();
}

void notifications() {
  int count = 0;
  CHECK(cudaGetDeviceCount(&count) == cudaSuccess);
  cudaAsyncCallbackHandle_t h = nullptr;
  CHECK(cudaDeviceRegisterAsyncNotification(count, on_notification, nullptr,
                                            &h) == cudaErrorInvalidDevice);
  CHECK(cudaDeviceRegisterAsyncNotification(0, nullptr, nullptr, &h) ==
        cudaErrorInvalidValue);
  CHECK(cudaDeviceRegisterAsyncNotification(0, on_notification, nullptr,
                                            &h) == cudaSuccess);
  CHECK(h != nullptr);
  if (count > 1)
    CHECK(cudaDeviceUnregisterAsyncNotification(1, h) ==
          cudaErrorInvalidValue);
  CHECK(cudaDeviceUnregisterAsyncNotification(0, h) == cudaSuccess);
  CHECK(cudaDeviceUnregisterAsyncNotification(0, h) == cudaErrorInvalidValue);
  cudaGetLastError();
}

void valid_devices() {
  int count = 0;
  CHECK(cudaGetDeviceCount(&count) == cudaSuccess);
  CHECK(cudaSetValidDevices(nullptr, 1) == cudaErrorInvalidValue);
  int none[] = {count};
  CHECK(cudaSetValidDevices(none, 1) == cudaErrorInvalidDevice);
  int too_many[16] = {0};
  if (count < 16)
    CHECK(cudaSetValidDevices(too_many, count + 1) == cudaErrorInvalidValue);
  cudaGetLastError();
#ifdef CUEMU_VERSION
  // Which device a new thread reports before it uses one is the driver's
  // business on a GPU; here it is the list's first.
  if (count < 2)
    return;
  int list[] = {1, 0};
  CHECK(cudaSetValidDevices(list, 2) == cudaSuccess);
  int on_thread = -1;
  std::thread t([&] { cudaGetDevice(&on_thread); });
  t.join();
  CHECK(on_thread == 1);
  CHECK(cudaSetValidDevices(nullptr, 0) == cudaSuccess);
  std::thread u([&] { cudaGetDevice(&on_thread); });
  u.join();
  CHECK(on_thread == 0);
#endif
}

#ifdef CUEMU_VERSION
struct seen {
  int calls = 0;
  int level = -1;
  std::string message;
};

void on_log(void *data, cudaLogLevel level, char *message, size_t length) {
  seen *s = static_cast<seen *>(data);
  s->calls++;
  s->level = level;
  s->message.assign(message, length);
}

__global__ void wide_kernel(int *p) { p[threadIdx.x] = 1; }

__global__ void faulting_kernel(int *p) {
  if (threadIdx.x == 3)
    p[0] = 1;
}

void logged_errors() {
  seen s;
  cudaLogsCallbackHandle h = nullptr;
  CHECK(cudaLogsRegisterCallback(on_log, &s, &h) == cudaSuccess);
  CHECK(h != nullptr);
  cudaLogIterator it = 0;
  CHECK(cudaLogsCurrent(&it, 0) == cudaSuccess);
  CUlogIterator driver_it = 0;
  CHECK(cuLogsCurrent(&driver_it, 0) == CUDA_SUCCESS);
  CHECK(driver_it == it);

  int *d = nullptr;
  CHECK(cudaMalloc(&d, 2048 * sizeof(int)) == cudaSuccess);
  wide_kernel<<<1, 1025>>>(d);
  CHECK(cudaGetLastError() == cudaErrorInvalidConfiguration);
  CHECK(s.calls == 1);
  CHECK(s.level == cudaLogLevelError);
  CHECK(s.message.find("1025") != std::string::npos);
  CHECK(s.message.find('\n') == std::string::npos);

  // The buffer from the iterator: the one message and a newline.
  char buffer[4096];
  size_t size = sizeof buffer;
  cudaLogIterator from = it;
  CHECK(cudaLogsDumpToMemory(&it, buffer, &size, 0) == cudaSuccess);
  CHECK(size == s.message.size() + 1);
  CHECK(std::string(buffer) == s.message + "\n");
  CHECK(it == from + 1);
  // Nothing new: empty.
  size = sizeof buffer;
  CHECK(cudaLogsDumpToMemory(&it, buffer, &size, 0) == cudaSuccess);
  CHECK(size == 0 && buffer[0] == '\0');
  // Too small for the message.
  size = 4;
  cudaLogIterator again = from;
  CHECK(cudaLogsDumpToMemory(&again, buffer, &size, 0) ==
        cudaErrorInvalidValue);
  CHECK(size == 0);
  // The driver's call reads the same log.
  size = sizeof buffer;
  CUlogIterator drv_from = from;
  CHECK(cuLogsDumpToMemory(&drv_from, buffer, &size, 0) == CUDA_SUCCESS);
  CHECK(std::string(buffer) == s.message + "\n");

  // A file: appended to.
  char path[] = "/tmp/error_logs.XXXXXX";
  int fd = mkstemp(path);
  CHECK(fd >= 0);
  if (fd >= 0) {
    CHECK(write(fd, "before\n", 7) == 7);
    close(fd);
    cudaLogIterator f = from;
    CHECK(cudaLogsDumpToFile(&f, path, 0) == cudaSuccess);
    CHECK(f == from + 1);
    FILE *in = std::fopen(path, "r");
    char text[4096] = {0};
    size_t n = in ? std::fread(text, 1, sizeof text - 1, in) : 0;
    if (in)
      std::fclose(in);
    CHECK(std::string(text, n) == "before\n" + s.message + "\n");
    unlink(path);
  }

  // Unregistered: no more calls; the fault is still logged.
  CHECK(cudaLogsUnregisterCallback(h) == cudaSuccess);
  CHECK(cudaLogsUnregisterCallback(h) == cudaErrorInvalidValue);
  cudaGetLastError();
  faulting_kernel<<<1, 32>>>(nullptr);
  CHECK(cudaDeviceSynchronize() == cudaErrorIllegalAddress);
  CHECK(s.calls == 1);
  size = sizeof buffer;
  CHECK(cudaLogsDumpToMemory(&it, buffer, &size, 0) == cudaSuccess);
  CHECK(std::strstr(buffer, "faulting_kernel") != nullptr);
  CHECK(size > 0 && buffer[size - 1] == '\n');
}
#endif

} // namespace

int main() {
  setenv("CUEMU_DEVICE", "count=2", 1); // before the first CUDA call
  argument_checks();
  notifications();
  valid_devices();
#ifdef CUEMU_VERSION
  logged_errors(); // last: its fault ends the context
#endif
  return finish();
}
