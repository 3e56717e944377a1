#include <cmath>
#include <cstdio>
#include <vector>
#include "check.h"
#include "options.h"
#include "pipeline.h"

static bool verify(const std::vector<float> &x, const std::vector<float> &y,
                   float a, float b, float gotSum) {
  double sum = 0;
  for (size_t i = 0; i < x.size(); ++i) sum += a * x[i] + b;
  if (std::fabs(sum - gotSum) > 1e-3 * std::fabs(sum) + 1e-3) {
    std::printf("sum mismatch: %f vs %f\n", gotSum, sum);
    return false;
  }
  for (size_t i = 0; i < x.size(); ++i) {
    double ref = (a * x[i] + b) / sum;
    if (std::fabs(ref - y[i]) > 1e-4 * std::fabs(ref) + 1e-7) {
      std::printf("y[%zu] = %g, expected %g\n", i, y[i], ref);
      return false;
    }
  }
  return true;
}

static bool run_mode(const Options &opt, bool captured, cudaStream_t s) {
  Pipeline p;
  p.n = opt.n;
  std::vector<float> hx(opt.n), hy(opt.n);
  for (int i = 0; i < opt.n; ++i) hx[i] = 1.0f + (i % 17) * 0.25f;
  checkCuda(cudaMalloc(&p.dx, opt.n * sizeof(float)));
  checkCuda(cudaMalloc(&p.dy, opt.n * sizeof(float)));
  checkCuda(cudaMalloc(&p.dsum, sizeof(float)));
  checkCuda(cudaMallocHost(&p.hsum, sizeof(float)));
  checkCuda(cudaMemcpy(p.dx, hx.data(), opt.n * sizeof(float),
                       cudaMemcpyHostToDevice));
  float a = 2.0f, b = 0.5f;
  if (captured)
    pipeline_build_captured(p, s, a, b);
  else
    pipeline_build_explicit(p, a, b);
  size_t nodes = 0;
  checkCuda(cudaGraphGetNodes(p.graph, nullptr, &nodes));
  checkCuda(cudaGraphUpload(p.exec, s));
  GpuTimer timer(s);
  timer.start();
  for (int it = 0; it < opt.iters; ++it) checkCuda(cudaGraphLaunch(p.exec, s));
  float ms = timer.stop();
  checkCuda(cudaMemcpy(hy.data(), p.dy, opt.n * sizeof(float),
                       cudaMemcpyDeviceToHost));
  bool ok = verify(hx, hy, a, b, *p.hsum) && p.hostCalls == opt.iters;
  std::printf("%-9s nodes=%zu launches=%d host-calls=%d time=%.3f ms: %s\n",
              captured ? "captured" : "explicit", nodes, opt.iters, p.hostCalls,
              ms, ok ? "ok" : "WRONG");
  if (opt.update) {
    a = -1.5f;
    b = 3.0f;
    bool inPlace = pipeline_update_scale(p, s, a, b);
    checkCuda(cudaGraphLaunch(p.exec, s));
    checkCuda(cudaStreamSynchronize(s));
    checkCuda(cudaMemcpy(hy.data(), p.dy, opt.n * sizeof(float),
                         cudaMemcpyDeviceToHost));
    bool ok2 = verify(hx, hy, a, b, *p.hsum);
    std::printf("%-9s update %s: %s\n", captured ? "captured" : "explicit",
                inPlace ? "in place" : "re-instantiated", ok2 ? "ok" : "WRONG");
    ok = ok && ok2 && inPlace;
  }
  pipeline_free(p);
  checkCuda(cudaFree(p.dx));
  checkCuda(cudaFree(p.dy));
  checkCuda(cudaFree(p.dsum));
  checkCuda(cudaFreeHost(p.hsum));
  return ok;
}

int main(int argc, char **argv) {
  Options opt;
  if (!parse_options(argc, argv, opt)) return 2;
  int dev = 0;
  cudaDeviceProp prop;
  checkCuda(cudaGetDevice(&dev));
  checkCuda(cudaGetDeviceProperties(&prop, dev));
  std::printf("device %d: %s (sm_%d%d), n=%d\n", dev, prop.name, prop.major,
              prop.minor, opt.n);
  cudaStream_t s;
  checkCuda(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  bool ok = run_mode(opt, true, s) && run_mode(opt, false, s);
  checkCuda(cudaStreamDestroy(s));
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
