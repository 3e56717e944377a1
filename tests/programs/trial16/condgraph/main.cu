#include <cmath>
#include <cstring>
#include <string>
#include <vector>
#include "common.h"
#include "graphs.h"

static void host_power(int n, int maxIters, double tol, double &lambda, int &iters) {
  std::vector<double> x(n), y(n);
  for (int i = 0; i < n; ++i) x[i] = 1.0 + 0.001 * i;
  lambda = 0;
  iters = 0;
  for (;;) {
    for (int i = 0; i < n; ++i)
      y[i] = 2 * x[i] - (i > 0 ? x[i - 1] : 0) - (i < n - 1 ? x[i + 1] : 0);
    double yy = 0, xy = 0;
    for (int i = 0; i < n; ++i) yy += y[i] * y[i], xy += x[i] * y[i];
    double nrm = std::sqrt(yy);
    for (int i = 0; i < n; ++i) x[i] = y[i] / nrm;
    double old = lambda;
    lambda = xy;
    ++iters;
    if (!(std::fabs(lambda - old) > tol * std::fabs(lambda) && iters < maxIters)) break;
  }
}

int main(int argc, char **argv) {
  int n = 64, maxIters = 400;
  double tol = 1e-9;
  std::string dot;
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "-n") && i + 1 < argc) n = atoi(argv[++i]);
    else if (!strcmp(argv[i], "-maxit") && i + 1 < argc) maxIters = atoi(argv[++i]);
    else if (!strncmp(argv[i], "--dot=", 6)) dot = argv[i] + 6;
  }
  int driver = 0, runtime = 0;
  CHECK_CUDA(cudaDriverGetVersion(&driver));
  CHECK_CUDA(cudaRuntimeGetVersion(&runtime));
  printf("driver %d, runtime %d\n", driver, runtime);
  if (driver < 12040) {
    printf("conditional nodes need CUDA 12.4\n");
    return 0;
  }
  cudaStream_t s;
  CHECK_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  PowerGraph g;
  CHECK_CUDA(cudaMalloc(&g.x, n * sizeof(double)));
  CHECK_CUDA(cudaMalloc(&g.lambda, sizeof(double)));
  CHECK_CUDA(cudaMalloc(&g.iters, sizeof(int)));
  CHECK_CUDA(cudaMemset(g.lambda, 0, sizeof(double)));
  build_power_graph(g, n, maxIters, tol, s);
  if (!dot.empty())
    CHECK_CUDA(cudaGraphDebugDotPrint(g.graph, dot.c_str(),
                                      cudaGraphDebugDotFlagsVerbose));
  double refLambda;
  int refIters;
  host_power(n, maxIters, tol, refLambda, refIters);
  bool ok = true;
  cudaEvent_t e0, e1;
  CHECK_CUDA(cudaEventCreate(&e0));
  CHECK_CUDA(cudaEventCreate(&e1));
  for (int rep = 0; rep < 2; ++rep) {
    CHECK_CUDA(cudaMemsetAsync(g.lambda, 0, sizeof(double), s));
    CHECK_CUDA(cudaEventRecord(e0, s));
    CHECK_CUDA(cudaGraphLaunch(g.exec, s));
    CHECK_CUDA(cudaEventRecord(e1, s));
    double lam;
    int its;
    CHECK_CUDA(cudaMemcpyAsync(&lam, g.lambda, sizeof lam, cudaMemcpyDeviceToHost, s));
    CHECK_CUDA(cudaMemcpyAsync(&its, g.iters, sizeof its, cudaMemcpyDeviceToHost, s));
    CHECK_CUDA(cudaStreamSynchronize(s));
    float ms;
    CHECK_CUDA(cudaEventElapsedTime(&ms, e0, e1));
    bool good = its == refIters && std::fabs(lam - refLambda) < 1e-9 * refLambda;
    printf("power iteration %d: lambda %.12f in %d iterations (host %.12f in %d), %.2f ms: %s\n",
           rep, lam, its, refLambda, refIters, ms, good ? "ok" : "WRONG");
    ok = ok && good;
  }
  size_t used = 1;
  CHECK_CUDA(cudaDeviceGraphMemTrim(0));
  CHECK_CUDA(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &used));
  printf("graph memory in use after the launches: %zu\n", used);
  ok = ok && used == 0;

  // Switch graph: modes 0 (scale), 1 (add), 2 (nothing), 5 (out of range).
  int *mode;
  CHECK_CUDA(cudaMalloc(&mode, sizeof(int)));
  std::vector<double> hx(n);
  for (int i = 0; i < n; ++i) hx[i] = i;
  CHECK_CUDA(cudaMemcpy(g.x, hx.data(), n * sizeof(double), cudaMemcpyHostToDevice));
  cudaGraph_t sw = build_switch_graph(g.x, n, mode, 2.0, 10.0);
  cudaGraphExec_t swExec;
  CHECK_CUDA(cudaGraphInstantiate(&swExec, sw, 0));
  int modes[] = {0, 1, 2, 5, 0};
  for (int m : modes) {
    CHECK_CUDA(cudaMemcpyAsync(mode, &m, sizeof m, cudaMemcpyHostToDevice, s));
    CHECK_CUDA(cudaGraphLaunch(swExec, s));
    for (int i = 0; i < n; ++i) hx[i] = m == 0 ? hx[i] * 2 : m == 1 ? hx[i] + 10 : hx[i];
  }
  // Update with other constants (same topology) and run mode 1 and 0 again.
  cudaGraph_t sw2 = build_switch_graph(g.x, n, mode, -1.0, 0.5);
  cudaGraphExecUpdateResultInfo info;
  CHECK_CUDA(cudaGraphExecUpdate(swExec, sw2, &info));
  printf("switch graph update: result %d\n", (int)info.result);
  for (int m : {1, 0}) {
    CHECK_CUDA(cudaMemcpyAsync(mode, &m, sizeof m, cudaMemcpyHostToDevice, s));
    CHECK_CUDA(cudaGraphLaunch(swExec, s));
    for (int i = 0; i < n; ++i) hx[i] = m == 0 ? -hx[i] : hx[i] + 0.5;
  }
  std::vector<double> got(n);
  CHECK_CUDA(cudaMemcpyAsync(got.data(), g.x, n * sizeof(double), cudaMemcpyDeviceToHost, s));
  CHECK_CUDA(cudaStreamSynchronize(s));
  int bad = 0;
  for (int i = 0; i < n; ++i) bad += got[i] != hx[i];
  printf("switch graph: %d mismatches\n", bad);
  ok = ok && bad == 0 && info.result == cudaGraphExecUpdateSuccess;
  CHECK_CUDA(cudaGraphExecDestroy(swExec));
  CHECK_CUDA(cudaGraphDestroy(sw));
  CHECK_CUDA(cudaGraphDestroy(sw2));
  CHECK_CUDA(cudaGraphExecDestroy(g.exec));
  CHECK_CUDA(cudaGraphDestroy(g.graph));
  CHECK_CUDA(cudaFree(g.x));
  CHECK_CUDA(cudaFree(g.lambda));
  CHECK_CUDA(cudaFree(g.iters));
  CHECK_CUDA(cudaFree(mode));
  CHECK_CUDA(cudaStreamDestroy(s));
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
