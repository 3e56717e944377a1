// callback_order.cu (trial of public-style multi-GPU samples, issue 16).
// Host callbacks in stream order: cudaStreamAddCallback and
// cudaLaunchHostFunc interleaved with kernels and copies on streams of two
// devices, ordered across streams by events and by the legacy default
// stream; a callback sees the data its stream produced before it, and the
// status it is given.
#include <vector>
#include <mutex>
#include <string>
#include <thread>
#include <chrono>
#include "mg_check.h"
#include "graph_kernels.cuh"

static std::mutex log_lock;
static std::vector<std::string> log_lines;

struct Tag {
  const char *name;
  float *host;      // pinned copy of the data the stream produced
  float expect;     // its first element, when the callback runs
  int sleep_ms;
  bool seen_ok = false;
  cudaError_t status = cudaErrorUnknown;
};

static void note(Tag *t) {
  std::this_thread::sleep_for(std::chrono::milliseconds(t->sleep_ms));
  t->seen_ok = t->host == nullptr || t->host[0] == t->expect;
  std::lock_guard<std::mutex> g(log_lock);
  log_lines.push_back(t->name);
}

static void CUDART_CB stream_callback(cudaStream_t, cudaError_t status, void *p) {
  Tag *t = (Tag *)p;
  t->status = status;
  note(t);
}

static void CUDART_CB host_fn(void *p) { note((Tag *)p); }

static int index_of(const char *name) {
  for (size_t i = 0; i < log_lines.size(); ++i)
    if (log_lines[i] == name) return (int)i;
  return -1;
}

int main() {
  mg_device_count(2);
  const int N = 1024;
  float *d[2], *h[2];
  cudaStream_t a[2], b[2];
  cudaEvent_t ev[2];
  for (int i = 0; i < 2; ++i) {
    MG_CHECK(cudaSetDevice(i));
    MG_CHECK(cudaMalloc(&d[i], N * sizeof(float)));
    MG_CHECK(cudaMallocHost(&h[i], N * sizeof(float)));
    MG_CHECK(cudaStreamCreate(&a[i]));
    MG_CHECK(cudaStreamCreateWithFlags(&b[i], cudaStreamNonBlocking));
    MG_CHECK(cudaEventCreateWithFlags(&ev[i], cudaEventDisableTiming));
  }
  Tag t_a0 = {"a0", h[0], 5.0f, 30}, t_b1 = {"b1", nullptr, 0, 0}, t_a1 = {"a1", h[1], 7.0f, 0},
      t_legacy = {"legacy", nullptr, 0, 0}, t_after = {"after_legacy", nullptr, 0, 0},
      t_last = {"last", h[0], 12.0f, 0};

  // Device 0, stream a: set 5 -> copy back -> callback (slow).
  MG_CHECK(cudaSetDevice(0));
  set_value<<<N / 256, 256, 0, a[0]>>>(d[0], 5.0f, N);
  MG_CHECK(cudaMemcpyAsync(h[0], d[0], N * sizeof(float), cudaMemcpyDeviceToHost, a[0]));
  MG_CHECK(cudaStreamAddCallback(a[0], stream_callback, &t_a0, 0));
  MG_CHECK(cudaEventRecord(ev[0], a[0]));
  // Device 1, stream b waits for device 0's callback (through the event).
  MG_CHECK(cudaSetDevice(1));
  MG_CHECK(cudaStreamWaitEvent(b[1], ev[0], 0));
  MG_CHECK(cudaLaunchHostFunc(b[1], host_fn, &t_b1));
  // Device 1, stream a: unrelated, may run first.
  set_value<<<N / 256, 256, 0, a[1]>>>(d[1], 7.0f, N);
  MG_CHECK(cudaMemcpyAsync(h[1], d[1], N * sizeof(float), cudaMemcpyDeviceToHost, a[1]));
  MG_CHECK(cudaLaunchHostFunc(a[1], host_fn, &t_a1));
  // Device 0's legacy default stream waits for a[0] (blocking) but not b[0].
  MG_CHECK(cudaSetDevice(0));
  MG_CHECK(cudaLaunchHostFunc(0, host_fn, &t_legacy));
  MG_CHECK(cudaLaunchHostFunc(a[0], host_fn, &t_after));
  scale_add<<<N / 256, 256, 0, a[0]>>>(d[0], d[0], 1.4f, N);  // 5 + 1.4*5 = 12
  MG_CHECK(cudaMemcpyAsync(h[0], d[0], N * sizeof(float), cudaMemcpyDeviceToHost, a[0]));
  MG_CHECK(cudaStreamAddCallback(a[0], stream_callback, &t_last, 0));
  for (int i = 0; i < 2; ++i) { MG_CHECK(cudaSetDevice(i)); MG_CHECK(cudaDeviceSynchronize()); }

  bool ok = true;
  for (Tag *t : {&t_a0, &t_b1, &t_a1, &t_legacy, &t_after, &t_last})
    if (!t->seen_ok || index_of(t->name) < 0) { std::printf("%s: wrong data or not run\n", t->name); ok = false; }
  ok = ok && index_of("a0") < index_of("b1") && index_of("a0") < index_of("legacy") &&
       index_of("legacy") < index_of("after_legacy") && index_of("after_legacy") < index_of("last");
  ok = ok && t_a0.status == cudaSuccess && t_last.status == cudaSuccess;
  for (auto &l : log_lines) std::printf("%s ", l.c_str());
  std::printf("\n");

  // Flags must be 0; a null callback is invalid.
  MG_EXPECT(cudaStreamAddCallback(a[0], stream_callback, &t_a0, 1), cudaErrorInvalidValue);
  (void)cudaGetLastError();
  MG_EXPECT(cudaLaunchHostFunc(a[0], nullptr, nullptr), cudaErrorInvalidValue);
  (void)cudaGetLastError();

  for (int i = 0; i < 2; ++i) {
    MG_CHECK(cudaSetDevice(i));
    MG_CHECK(cudaFree(d[i]));
    MG_CHECK(cudaFreeHost(h[i]));
    MG_CHECK(cudaStreamDestroy(a[i]));
    MG_CHECK(cudaStreamDestroy(b[i]));
    MG_CHECK(cudaEventDestroy(ev[i]));
  }
  return mg_finish(ok, "callback_order");
}
