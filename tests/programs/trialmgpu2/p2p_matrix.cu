// p2p_matrix.cu (trial of public-style multi-GPU samples, issue 16).
// Peer-to-peer bandwidth and latency matrix over every pair of devices, with
// and without peer access, copies both ways, timed with events.
#include <vector>
#include <cstring>
#include "mg_check.h"
#include "copy_kernels.cuh"

enum class P2P { Off, On };

static const size_t kElems = 1 << 16;

static void print_matrix(const char *title, const std::vector<double> &m, int n) {
  std::printf("%s\n   D\\D", title);
  for (int j = 0; j < n; ++j) std::printf("%8d", j);
  std::printf("\n");
  for (int i = 0; i < n; ++i) {
    std::printf("%6d ", i);
    for (int j = 0; j < n; ++j) std::printf("%8.2f", m[i * n + j] >= 0 ? 1.0 : -1.0);
    std::printf("\n");
  }
}

static void set_access(int n, P2P mode) {
  for (int i = 0; i < n; ++i) {
    MG_CHECK(cudaSetDevice(i));
    for (int j = 0; j < n; ++j) {
      if (i == j) continue;
      int can = 0;
      MG_CHECK(cudaDeviceCanAccessPeer(&can, i, j));
      if (!can) continue;
      if (mode == P2P::On) {
        MG_CHECK(cudaDeviceEnablePeerAccess(j, 0));
      } else {
        cudaError_t e = cudaDeviceDisablePeerAccess(j);
        if (e != cudaSuccess && e != cudaErrorPeerAccessNotEnabled) MG_CHECK(e);
        if (e != cudaSuccess) (void)cudaGetLastError();
      }
    }
  }
}

int main() {
  int n = mg_device_count(2);
  std::vector<int *> buf(n), scratch(n);
  std::vector<cudaStream_t> stream(n);
  std::vector<cudaEvent_t> start(n), stop(n);
  for (int d = 0; d < n; ++d) {
    MG_CHECK(cudaSetDevice(d));
    MG_CHECK(cudaMalloc(&buf[d], kElems * sizeof(int)));
    MG_CHECK(cudaMalloc(&scratch[d], kElems * sizeof(int)));
    MG_CHECK(cudaStreamCreateWithFlags(&stream[d], cudaStreamNonBlocking));
    MG_CHECK(cudaEventCreate(&start[d]));
    MG_CHECK(cudaEventCreate(&stop[d]));
    fill_kernel<int><<<32, 128, 0, stream[d]>>>(buf[d], d * 1000000, kElems);
    MG_CHECK(cudaGetLastError());
  }
  for (int d = 0; d < n; ++d) { MG_CHECK(cudaSetDevice(d)); MG_CHECK(cudaDeviceSynchronize()); }

  bool ok = true;
  std::vector<int> host(kElems);
  for (P2P mode : {P2P::Off, P2P::On}) {
    set_access(n, mode);
    std::vector<double> uni(n * n), bi(n * n), lat(n * n);
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < n; ++j) {
        MG_CHECK(cudaSetDevice(i));
        // Unidirectional: i copies j's buffer into its scratch.
        MG_CHECK(cudaEventRecord(start[i], stream[i]));
        for (int r = 0; r < 3; ++r)
          MG_CHECK(cudaMemcpyPeerAsync(scratch[i], i, buf[j], j, kElems * sizeof(int), stream[i]));
        MG_CHECK(cudaEventRecord(stop[i], stream[i]));
        MG_CHECK(cudaEventSynchronize(stop[i]));
        float ms = 0;
        MG_CHECK(cudaEventElapsedTime(&ms, start[i], stop[i]));
        uni[i * n + j] = ms;
        MG_CHECK(cudaMemcpy(host.data(), scratch[i], kElems * sizeof(int), cudaMemcpyDeviceToHost));
        for (size_t k = 0; k < kElems; k += 97)
          if (host[k] != j * 1000000 + (int)k) { ok = false; break; }

        // Bidirectional: both directions at once, ordered by events across devices.
        if (i != j) {
          MG_CHECK(cudaSetDevice(j));
          MG_CHECK(cudaEventRecord(start[j], stream[j]));
          MG_CHECK(cudaSetDevice(i));
          MG_CHECK(cudaStreamWaitEvent(stream[i], start[j], 0));
          MG_CHECK(cudaEventRecord(start[i], stream[i]));
          MG_CHECK(cudaMemcpyPeerAsync(scratch[i], i, buf[j], j, kElems * sizeof(int), stream[i]));
          MG_CHECK(cudaSetDevice(j));
          MG_CHECK(cudaMemcpyPeerAsync(scratch[j], j, buf[i], i, kElems * sizeof(int), stream[j]));
          MG_CHECK(cudaEventRecord(stop[j], stream[j]));
          MG_CHECK(cudaSetDevice(i));
          MG_CHECK(cudaStreamWaitEvent(stream[i], stop[j], 0));
          MG_CHECK(cudaEventRecord(stop[i], stream[i]));
          MG_CHECK(cudaEventSynchronize(stop[i]));
          MG_CHECK(cudaEventElapsedTime(&ms, start[i], stop[i]));
          bi[i * n + j] = ms;
          MG_CHECK(cudaMemcpy(host.data(), scratch[j], kElems * sizeof(int), cudaMemcpyDeviceToHost));
          for (size_t k = 0; k < kElems; k += 101)
            if (host[k] != i * 1000000 + (int)k) { ok = false; break; }
        }

        // Latency: a 4-byte copy, or with access a kernel reading the peer.
        MG_CHECK(cudaSetDevice(i));
        MG_CHECK(cudaEventRecord(start[i], stream[i]));
        if (mode == P2P::On || i == j) {
          copy_kernel<int><<<1, 1, 0, stream[i]>>>(scratch[i], buf[j], 1);
          MG_CHECK(cudaGetLastError());
        } else {
          MG_CHECK(cudaMemcpyPeerAsync(scratch[i], i, buf[j], j, sizeof(int), stream[i]));
        }
        MG_CHECK(cudaEventRecord(stop[i], stream[i]));
        MG_CHECK(cudaStreamSynchronize(stream[i]));
        MG_CHECK(cudaEventElapsedTime(&ms, start[i], stop[i]));
        lat[i * n + j] = ms;
        int first = -1;
        MG_CHECK(cudaMemcpy(&first, scratch[i], sizeof(int), cudaMemcpyDeviceToHost));
        if (first != j * 1000000) ok = false;
      }
    }
    const char *m = mode == P2P::On ? "Enabled" : "Disabled";
    char t[96];
    std::snprintf(t, sizeof t, "Unidirectional P2P=%s (sign only)", m);
    print_matrix(t, uni, n);
    std::snprintf(t, sizeof t, "Bidirectional P2P=%s (sign only)", m);
    print_matrix(t, bi, n);
    std::snprintf(t, sizeof t, "Latency P2P=%s (sign only)", m);
    print_matrix(t, lat, n);
  }

  // Error codes of the peer calls.
  MG_CHECK(cudaSetDevice(0));
  MG_EXPECT(cudaDeviceEnablePeerAccess(1, 0), cudaErrorPeerAccessAlreadyEnabled);
  MG_EXPECT(cudaGetLastError(), cudaErrorPeerAccessAlreadyEnabled);
  MG_EXPECT(cudaGetLastError(), cudaSuccess);
  MG_EXPECT(cudaDeviceEnablePeerAccess(0, 0), cudaErrorInvalidDevice);
  (void)cudaGetLastError();
  MG_EXPECT(cudaDeviceEnablePeerAccess(n, 0), cudaErrorInvalidDevice);
  (void)cudaGetLastError();
  MG_CHECK(cudaDeviceDisablePeerAccess(1));
  MG_EXPECT(cudaDeviceDisablePeerAccess(1), cudaErrorPeerAccessNotEnabled);
  (void)cudaGetLastError();
  int perf = -1, access = -1, atomics = -1;
  MG_CHECK(cudaDeviceGetP2PAttribute(&perf, cudaDevP2PAttrPerformanceRank, 0, 1));
  MG_CHECK(cudaDeviceGetP2PAttribute(&access, cudaDevP2PAttrAccessSupported, 0, 1));
  MG_CHECK(cudaDeviceGetP2PAttribute(&atomics, cudaDevP2PAttrNativeAtomicSupported, 1, 0));
  std::printf("link 0-1: rank %d access %d atomics %d\n", perf, access, atomics);
  ok = ok && access == 1;

  for (int d = 0; d < n; ++d) {
    MG_CHECK(cudaSetDevice(d));
    MG_CHECK(cudaFree(buf[d]));
    MG_CHECK(cudaFree(scratch[d]));
    MG_CHECK(cudaStreamDestroy(stream[d]));
    MG_CHECK(cudaEventDestroy(start[d]));
    MG_CHECK(cudaEventDestroy(stop[d]));
  }
  return mg_finish(ok, "p2p_matrix");
}
