// coop_per_device.cu (trial of public-style multi-GPU samples, issue 16).
// Cooperative launches on every device from OpenMP host threads, each sized
// by the occupancy API of its own device (devices may differ), then the
// results combined on the host.
// NVCC_OPTIONS: -Xcompiler -fopenmp
// CUEMU_OPTIONS: -Xcompiler -fopenmp
#include <omp.h>
#include <vector>
#include "mg_check.h"
#include "coop_kernels.cuh"

static const int kBlock = 128;

int main() {
  int ndev = mg_device_count(2);
  std::vector<float> result(ndev, -1.f);
  std::vector<int> grids(ndev);
  const int n = 1 << 15;
  std::vector<float> host(n);
  for (int i = 0; i < n; ++i) host[i] = (float)(i % 13) * 0.5f;
  bool ok = true;
#pragma omp parallel num_threads(ndev) reduction(&& : ok)
  {
    int dev = omp_get_thread_num();
    MG_CHECK(cudaSetDevice(dev));
    int coop = 0, sms = 0;
    MG_CHECK(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev));
    MG_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    int per_sm = 0;
    MG_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, coop_sum<kBlock>, kBlock, 0));
    int blocks = per_sm * sms;
    if (blocks > 64) blocks = 64;
    grids[dev] = blocks;
    float *in, *partials, *out;
    MG_CHECK(cudaMalloc(&in, n * sizeof(float)));
    MG_CHECK(cudaMalloc(&partials, blocks * sizeof(float)));
    MG_CHECK(cudaMalloc(&out, sizeof(float)));
    MG_CHECK(cudaMemcpy(in, host.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    cudaStream_t s;
    MG_CHECK(cudaStreamCreate(&s));
    int nn = n;
    void *args[] = {&in, &partials, &out, &nn};
    MG_CHECK(cudaLaunchCooperativeKernel((void *)coop_sum<kBlock>, blocks, kBlock, args, 0, s));
    // Too large a cooperative grid is refused on this device.
    cudaError_t big = cudaLaunchCooperativeKernel((void *)coop_sum<kBlock>, per_sm * sms + 1, kBlock, args, 0, s);
    if (big != cudaErrorCooperativeLaunchTooLarge) { std::printf("dev %d: oversize gave %s\n", dev, cudaGetErrorName(big)); ok = false; }
    (void)cudaGetLastError();
    // cudaLaunchKernelEx with the cooperative attribute.
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(blocks);
    cfg.blockDim = dim3(kBlock);
    cfg.stream = s;
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeCooperative;
    attr[0].val.cooperative = 1;
    cfg.attrs = attr;
    cfg.numAttrs = 1;
    float *out2 = partials; // reuse: partials are rewritten before being read
    float *out_ex;
    MG_CHECK(cudaMalloc(&out_ex, sizeof(float)));
    MG_CHECK(cudaLaunchKernelEx(&cfg, coop_sum<kBlock>, (const float *)in, out2, out_ex, nn));
    float r1 = 0, r2 = 0;
    MG_CHECK(cudaMemcpyAsync(&r1, out, sizeof(float), cudaMemcpyDeviceToHost, s));
    MG_CHECK(cudaMemcpyAsync(&r2, out_ex, sizeof(float), cudaMemcpyDeviceToHost, s));
    MG_CHECK(cudaStreamSynchronize(s));
    result[dev] = r1;
    ok = ok && coop == 1 && r1 == r2;
    MG_CHECK(cudaFree(in));
    MG_CHECK(cudaFree(partials));
    MG_CHECK(cudaFree(out));
    MG_CHECK(cudaFree(out_ex));
    MG_CHECK(cudaStreamDestroy(s));
  }
  double want = 0;
  for (float v : host) want += v;
  for (int d = 0; d < ndev; ++d) {
    std::printf("device %d: %d blocks, sum %.1f (want %.1f)\n", d, grids[d], result[d], want);
    ok = ok && result[d] == (float)want;
  }
  return mg_finish(ok, "coop_per_device");
}
