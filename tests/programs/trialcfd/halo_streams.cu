// Two subdomains on two streams each (compute and copy), halo rows staged
// through pinned host memory while the interior is computed, events between
// the streams; the result must equal a single-domain host run.
#include "cfd/halo.cuh"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace {

void host_step(const std::vector<float> &u, std::vector<float> &v, int nx,
               int ny, float alpha) {
  v = u;
  for (int j = 1; j < ny - 1; ++j)
    for (int i = 1; i < nx - 1; ++i) {
      const size_t c = size_t(j) * nx + i;
      v[c] = u[c] + alpha * (u[c - 1] + u[c + 1] + u[c - nx] + u[c + nx] -
                             4.0f * u[c]);
    }
}

struct Sub {
  int device;
  cfd::Half h;
  float *u = nullptr, *v = nullptr; // (rows + 2) * nx each
  float *send = nullptr;            // pinned: the edge row for the neighbour
  cudaStream_t compute, copy;
  cudaEvent_t edge_done, halo_ready, send_done, prev_done;
};

} // namespace

int main(int argc, char **argv) {
  // --nan puts a NaN into the initial field: the device-side assert of the
  // update kernel must stop the run (in a build without NDEBUG).
  const bool inject_nan = argc > 1 && std::string(argv[1]) == "--nan";
  int ngpu = 0;
  CUDA_CHECK(cudaGetDeviceCount(&ngpu));
  if (ngpu < 1) {
    std::printf("no CUDA device\nFAIL\n");
    return 1;
  }
  CUDA_CHECK(cudaSetDevice(0));
  cfd::print_device_banner();
  if (ngpu > 1) {
    int can = 0;
    CUDA_CHECK(cudaDeviceCanAccessPeer(&can, 0, 1));
    std::printf("peer access 0 -> 1: %d\n", can);
  } else {
    std::printf("one device: both halves on device 0, halos through the host\n");
  }

  const int nx = 70, ny = 64, steps = 50;
  const float alpha = 0.24f;
  std::vector<float> u0(size_t(nx) * ny);
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i)
      u0[size_t(j) * nx + i] = (i == 0) ? 2.0f : float((i * 31 + j * 17) % 23) / 23.0f;

  if (inject_nan)
    u0[size_t(ny / 2) * nx + nx / 2] = std::nanf("");

  Sub sub[2];
  const size_t row_bytes = nx * sizeof(float);
  for (int s = 0; s < 2; ++s) {
    Sub &d = sub[s];
    d.device = s % ngpu;
    CUDA_CHECK(cudaSetDevice(d.device));
    d.h = cfd::Half{nx, ny / 2, s * (ny / 2), ny};
    const size_t bytes = size_t(d.h.rows + 2) * row_bytes;
    CUDA_CHECK(cudaMalloc(&d.u, bytes));
    CUDA_CHECK(cudaMalloc(&d.v, bytes));
    CUDA_CHECK(cudaMemset(d.u, 0, bytes));
    CUDA_CHECK(cudaMemset(d.v, 0, bytes));
    CUDA_CHECK(cudaHostAlloc(&d.send, row_bytes, cudaHostAllocPortable));
    CUDA_CHECK(cudaStreamCreateWithFlags(&d.compute, cudaStreamNonBlocking));
    CUDA_CHECK(cudaStreamCreateWithFlags(&d.copy, cudaStreamNonBlocking));
    CUDA_CHECK(cudaEventCreateWithFlags(&d.edge_done, cudaEventDisableTiming));
    CUDA_CHECK(cudaEventCreateWithFlags(&d.halo_ready, cudaEventDisableTiming));
    CUDA_CHECK(cudaEventCreateWithFlags(&d.send_done, cudaEventDisableTiming));
    CUDA_CHECK(cudaEventCreateWithFlags(&d.prev_done, cudaEventDisableTiming));
  }

  // Upload owned rows plus both ghost rows (where they exist) from pinned
  // staging memory.
  float *staging = nullptr;
  CUDA_CHECK(cudaMallocHost(&staging, u0.size() * sizeof(float)));
  std::copy(u0.begin(), u0.end(), staging);
  for (int s = 0; s < 2; ++s) {
    Sub &d = sub[s];
    const int g_first = d.h.row0 - 1 < 0 ? 0 : d.h.row0 - 1;
    const int g_last = std::min(ny - 1, d.h.row0 + d.h.rows);
    const int local_first = g_first - (d.h.row0 - 1);
    CUDA_CHECK(cudaMemcpyAsync(d.u + local_first * nx, staging + g_first * nx,
                               (g_last - g_first + 1) * row_bytes,
                               cudaMemcpyHostToDevice, d.compute));
  }
  for (int s = 0; s < 2; ++s)
    CUDA_CHECK(cudaStreamSynchronize(sub[s].compute));

  cudaEvent_t t0, t1;
  CUDA_CHECK(cudaEventCreate(&t0));
  CUDA_CHECK(cudaEventCreate(&t1));
  CUDA_CHECK(cudaEventRecord(t0, 0));
  const dim3 block(32, 4);
  for (int step = 0; step < steps; ++step) {
    for (int s = 0; s < 2; ++s) {
      Sub &d = sub[s];
      CUDA_CHECK(cudaSetDevice(d.device));
      // Everything before this step (its reads of v's ghost rows) is done.
      CUDA_CHECK(cudaEventRecord(d.prev_done, d.compute));
      // Ghost rows of u came in, and the previous send of v's edge is done.
      CUDA_CHECK(cudaStreamWaitEvent(d.compute, d.halo_ready, 0));
      CUDA_CHECK(cudaStreamWaitEvent(d.compute, d.send_done, 0));
      // The edge row next to the neighbour first...
      const int edge = (s == 0) ? d.h.rows : 1;
      cfd::diffuse_rows_kernel<<<dim3(cfd::div_up(nx, 32), 1), block, 0, d.compute>>>(
          d.u, d.v, d.h, edge, edge + 1, alpha);
      CUDA_CHECK(cudaEventRecord(d.edge_done, d.compute));
      // ...then the rest, while the edge travels.
      const int lo = (s == 0) ? 1 : 2;
      const int hi = (s == 0) ? d.h.rows : d.h.rows + 1;
      cfd::diffuse_rows_kernel<<<dim3(cfd::div_up(nx, 32), cfd::div_up(hi - lo, 4)),
                                 block, 0, d.compute>>>(d.u, d.v, d.h, lo, hi, alpha);
      CUDA_CHECK(cudaGetLastError());
    }
    for (int s = 0; s < 2; ++s) {
      Sub &d = sub[s];
      Sub &o = sub[1 - s];
      const int edge = (s == 0) ? d.h.rows : 1;
      const int ghost = (s == 0) ? 0 : o.h.rows + 1; // in the other half
      CUDA_CHECK(cudaStreamWaitEvent(d.copy, d.edge_done, 0));
      CUDA_CHECK(cudaMemcpyAsync(d.send, d.v + edge * nx, row_bytes,
                                 cudaMemcpyDeviceToHost, d.copy));
      CUDA_CHECK(cudaEventRecord(d.send_done, d.copy));
      CUDA_CHECK(cudaStreamWaitEvent(d.copy, o.prev_done, 0));
      CUDA_CHECK(cudaMemcpyAsync(o.v + ghost * nx, d.send, row_bytes,
                                 cudaMemcpyHostToDevice, d.copy));
      CUDA_CHECK(cudaEventRecord(o.halo_ready, d.copy));
    }
    for (int s = 0; s < 2; ++s)
      std::swap(sub[s].u, sub[s].v);
  }
  CUDA_CHECK(cudaEventRecord(t1, 0));
  for (int s = 0; s < 2; ++s) {
    CUDA_CHECK(cudaStreamSynchronize(sub[s].compute));
    CUDA_CHECK(cudaStreamSynchronize(sub[s].copy));
  }
  CUDA_CHECK(cudaEventSynchronize(t1));
  float ms = 0.0f;
  CUDA_CHECK(cudaEventElapsedTime(&ms, t0, t1));

  // Gather the owned rows and sum them on the device.
  std::vector<float> dev(u0.size());
  double *d_total = nullptr;
  CUDA_CHECK(cudaMalloc(&d_total, sizeof(double)));
  CUDA_CHECK(cudaMemset(d_total, 0, sizeof(double)));
  for (int s = 0; s < 2; ++s) {
    Sub &d = sub[s];
    CUDA_CHECK(cudaMemcpy(dev.data() + size_t(d.h.row0) * nx, d.u + nx,
                          d.h.rows * row_bytes, cudaMemcpyDeviceToHost));
    cfd::owned_sum_kernel<256><<<8, 256>>>(d.u, d.h, d_total);
  }
  double dev_total = 0.0;
  CUDA_CHECK(cudaMemcpy(&dev_total, d_total, sizeof(double), cudaMemcpyDeviceToHost));

  std::vector<float> ref = u0, tmp;
  for (int s = 0; s < steps; ++s) {
    host_step(ref, tmp, nx, ny, alpha);
    ref.swap(tmp);
  }
  double err = 0.0, host_total = 0.0;
  for (size_t c = 0; c < ref.size(); ++c) {
    err = std::fmax(err, std::fabs(double(dev[c]) - ref[c]));
    host_total += ref[c];
  }
  const bool ok = err < 1e-5 && std::fabs(dev_total - host_total) < 1e-6 * host_total;
  std::printf("halo exchange %dx%d, %d steps in 2 halves: max diff %.3e, total "
              "%.6f (host %.6f) %s\n",
              nx, ny, steps, err, dev_total, host_total, ok ? "ok" : "WRONG");

  CUDA_CHECK(cudaFree(d_total));
  CUDA_CHECK(cudaFreeHost(staging));
  CUDA_CHECK(cudaEventDestroy(t0));
  CUDA_CHECK(cudaEventDestroy(t1));
  for (int s = 0; s < 2; ++s) {
    Sub &d = sub[s];
    CUDA_CHECK(cudaFree(d.u));
    CUDA_CHECK(cudaFree(d.v));
    CUDA_CHECK(cudaFreeHost(d.send));
    CUDA_CHECK(cudaStreamDestroy(d.compute));
    CUDA_CHECK(cudaStreamDestroy(d.copy));
    CUDA_CHECK(cudaEventDestroy(d.edge_done));
    CUDA_CHECK(cudaEventDestroy(d.halo_ready));
    CUDA_CHECK(cudaEventDestroy(d.send_done));
    CUDA_CHECK(cudaEventDestroy(d.prev_done));
  }
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
