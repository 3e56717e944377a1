// Multigrid V-cycles (weighted Jacobi smoothing, full-weighting restriction,
// bilinear prolongation) in double, the V-cycle captured once into a CUDA
// graph and replayed; the residual must fall by a steady factor per cycle
// and the first cycle must equal a host V-cycle.
#include "cfd/multigrid.cuh"

#include <cmath>
#include <cstdio>
#include <utility>
#include <vector>

namespace {

using Real = double;

struct Level {
  int n;
  Real h2;
  Real *u, *tmp, *f, *r;
};

void launch_shape(int n, dim3 &grid, dim3 &block) {
  block = dim3(16, 16);
  grid = dim3(cfd::div_up(n, 16), cfd::div_up(n, 16));
}

void vcycle(std::vector<Level> &lv, size_t l, cudaStream_t s, int pre, int post) {
  Level &L = lv[l];
  dim3 g, b;
  launch_shape(L.n, g, b);
  const size_t bytes = size_t(L.n + 2) * (L.n + 2) * sizeof(Real);
  if (l + 1 == lv.size()) {
    for (int k = 0; k < 50; ++k) {
      cfd::mg::smooth_jacobi<<<g, b, 0, s>>>(L.u, L.tmp, L.f, L.n, L.h2, Real(1));
      std::swap(L.u, L.tmp);
    }
    return;
  }
  for (int k = 0; k < pre; ++k) {
    cfd::mg::smooth_jacobi<<<g, b, 0, s>>>(L.u, L.tmp, L.f, L.n, L.h2, Real(0.8));
    std::swap(L.u, L.tmp);
  }
  cfd::mg::residual<<<g, b, 0, s>>>(L.u, L.f, L.r, L.n, Real(1) / L.h2);
  Level &C = lv[l + 1];
  dim3 gc, bc;
  launch_shape(C.n, gc, bc);
  cfd::mg::restrict_full<<<gc, bc, 0, s>>>(L.r, C.f, C.n);
  const size_t cbytes = size_t(C.n + 2) * (C.n + 2) * sizeof(Real);
  CUDA_CHECK(cudaMemsetAsync(C.u, 0, cbytes, s));
  CUDA_CHECK(cudaMemsetAsync(C.tmp, 0, cbytes, s));
  vcycle(lv, l + 1, s, pre, post);
  cfd::mg::prolong_add<<<g, b, 0, s>>>(C.u, L.u, L.n);
  for (int k = 0; k < post; ++k) {
    cfd::mg::smooth_jacobi<<<g, b, 0, s>>>(L.u, L.tmp, L.f, L.n, L.h2, Real(0.8));
    std::swap(L.u, L.tmp);
  }
  (void)bytes;
}

// Host version of the same cycle.
struct HostLevel {
  int n;
  Real h2;
  std::vector<Real> u, tmp, f, r;
};

void host_vcycle(std::vector<HostLevel> &lv, size_t l, int pre, int post) {
  using cfd::mg::at;
  HostLevel &L = lv[l];
  const int n = L.n, s = n + 2;
  auto smooth = [&](Real w) {
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) {
        const int c = at(i, j, n);
        const Real jac = Real(0.25) * (L.u[c - 1] + L.u[c + 1] + L.u[c - s] +
                                       L.u[c + s] + L.h2 * L.f[c]);
        L.tmp[c] = (Real(1) - w) * L.u[c] + w * jac;
      }
    std::swap(L.u, L.tmp);
  };
  if (l + 1 == lv.size()) {
    for (int k = 0; k < 50; ++k)
      smooth(Real(1));
    return;
  }
  for (int k = 0; k < pre; ++k)
    smooth(Real(0.8));
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      const int c = at(i, j, n);
      L.r[c] = L.f[c] - (Real(1) / L.h2) * (Real(4) * L.u[c] - L.u[c - 1] -
                                            L.u[c + 1] - L.u[c - s] - L.u[c + s]);
    }
  HostLevel &C = lv[l + 1];
  for (int j = 0; j < C.n; ++j)
    for (int i = 0; i < C.n; ++i)
    {
      const int I = 2 * i + 1, J = 2 * j + 1;
      const Real centre = L.r[at(I, J, n)];
      const Real edges = L.r[at(I - 1, J, n)] + L.r[at(I + 1, J, n)] +
                         L.r[at(I, J - 1, n)] + L.r[at(I, J + 1, n)];
      const Real corners = L.r[at(I - 1, J - 1, n)] + L.r[at(I + 1, J - 1, n)] +
                           L.r[at(I - 1, J + 1, n)] + L.r[at(I + 1, J + 1, n)];
      C.f[at(i, j, C.n)] = (Real(4) * centre + Real(2) * edges + corners) / Real(16);
    }
  std::fill(C.u.begin(), C.u.end(), Real(0));
  std::fill(C.tmp.begin(), C.tmp.end(), Real(0));
  host_vcycle(lv, l + 1, pre, post);
  for (int J = 0; J < n; ++J)
    for (int I = 0; I < n; ++I) {
      Real sum = 0;
      for (int dj = 0; dj < 2; ++dj)
        for (int di = 0; di < 2; ++di) {
          if (((I & 1) && di == 1) || ((J & 1) && dj == 1))
            continue;
          const int ci = (I & 1) ? (I - 1) / 2 : I / 2 - 1 + di;
          const int cj = (J & 1) ? (J - 1) / 2 : J / 2 - 1 + dj;
          sum += ((I & 1) ? Real(1) : Real(0.5)) * ((J & 1) ? Real(1) : Real(0.5)) *
                 C.u[at(ci, cj, C.n)];
        }
      L.u[at(I, J, n)] += sum;
    }
  for (int k = 0; k < post; ++k)
    smooth(Real(0.8));
}

} // namespace

int main() {
  cfd::print_device_banner();
  const int n0 = 63, levels = 5, cycles = 8, pre = 2, post = 2;
  std::vector<Level> lv(levels);
  std::vector<HostLevel> hl(levels);
  for (int l = 0, n = n0; l < levels; ++l, n /= 2) {
    const size_t count = size_t(n + 2) * (n + 2);
    const Real h = Real(1) / (n + 1);
    lv[l].n = hl[l].n = n;
    lv[l].h2 = hl[l].h2 = h * h;
    CUDA_CHECK(cudaMalloc(&lv[l].u, count * sizeof(Real)));
    CUDA_CHECK(cudaMalloc(&lv[l].tmp, count * sizeof(Real)));
    CUDA_CHECK(cudaMalloc(&lv[l].f, count * sizeof(Real)));
    CUDA_CHECK(cudaMalloc(&lv[l].r, count * sizeof(Real)));
    CUDA_CHECK(cudaMemset(lv[l].u, 0, count * sizeof(Real)));
    CUDA_CHECK(cudaMemset(lv[l].tmp, 0, count * sizeof(Real)));
    CUDA_CHECK(cudaMemset(lv[l].f, 0, count * sizeof(Real)));
    CUDA_CHECK(cudaMemset(lv[l].r, 0, count * sizeof(Real)));
    hl[l].u.assign(count, 0);
    hl[l].tmp.assign(count, 0);
    hl[l].f.assign(count, 0);
    hl[l].r.assign(count, 0);
  }
  for (int j = 0; j < n0; ++j)
    for (int i = 0; i < n0; ++i) {
      const Real x = (i + 1.0) / (n0 + 1), y = (j + 1.0) / (n0 + 1);
      hl[0].f[cfd::mg::at(i, j, n0)] = std::exp(-20 * ((x - 0.3) * (x - 0.3) + (y - 0.6) * (y - 0.6))) + x * y;
    }
  const size_t bytes0 = hl[0].f.size() * sizeof(Real);
  CUDA_CHECK(cudaMemcpy(lv[0].f, hl[0].f.data(), bytes0, cudaMemcpyHostToDevice));

  cudaStream_t stream;
  CUDA_CHECK(cudaStreamCreate(&stream));
  double *d_norm;
  CUDA_CHECK(cudaMalloc(&d_norm, sizeof(double)));
  auto residual_norm = [&]() {
    dim3 g, b;
    launch_shape(n0, g, b);
    cfd::mg::residual<<<g, b, 0, stream>>>(lv[0].u, lv[0].f, lv[0].r, n0,
                                           Real(1) / lv[0].h2);
    CUDA_CHECK(cudaMemsetAsync(d_norm, 0, sizeof(double), stream));
    cfd::mg::norm2<256><<<16, 256, 0, stream>>>(lv[0].r, n0, d_norm);
    double v = 0.0;
    CUDA_CHECK(cudaMemcpyAsync(&v, d_norm, sizeof v, cudaMemcpyDeviceToHost, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
    return std::sqrt(v) / (n0 + 1);
  };

  // The first cycle runs directly and is compared with the host.
  const double r0 = residual_norm();
  vcycle(lv, 0, stream, pre, post);
  CUDA_CHECK(cudaStreamSynchronize(stream));
  host_vcycle(hl, 0, pre, post);
  std::vector<Real> u(hl[0].u.size());
  CUDA_CHECK(cudaMemcpy(u.data(), lv[0].u, bytes0, cudaMemcpyDeviceToHost));
  double diff = 0.0;
  for (size_t c = 0; c < u.size(); ++c)
    diff = std::fmax(diff, std::fabs(u[c] - hl[0].u[c]));
  double r_prev = residual_norm();
  std::printf("cycle 1: residual %.3e -> %.3e, host diff %.3e\n", r0, r_prev, diff);
  bool ok = diff < 1e-12 && r_prev < 0.5 * r0;

  // The next cycles: one capture (the level pointers are swapped an even
  // number of times per level in a cycle, so the graph stays valid), replayed.
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  vcycle(lv, 0, stream, pre, post);
  CUDA_CHECK(cudaStreamEndCapture(stream, &graph));
  size_t nodes = 0;
  CUDA_CHECK(cudaGraphGetNodes(graph, nullptr, &nodes));
  CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0));
  for (int c = 2; c <= cycles; ++c) {
    CUDA_CHECK(cudaGraphLaunch(exec, stream));
    const double r = residual_norm();
    const double rate = r / r_prev;
    std::printf("cycle %d: residual %.3e (factor %.3f)\n", c, r, rate);
    ok = ok && rate < 0.3;
    r_prev = r;
  }
  std::printf("graph of %zu nodes\n", nodes);
  ok = ok && nodes > 20;
  CUDA_CHECK(cudaGraphExecDestroy(exec));
  CUDA_CHECK(cudaGraphDestroy(graph));
  CUDA_CHECK(cudaStreamDestroy(stream));
  CUDA_CHECK(cudaFree(d_norm));
  for (auto &L : lv) {
    CUDA_CHECK(cudaFree(L.u));
    CUDA_CHECK(cudaFree(L.tmp));
    CUDA_CHECK(cudaFree(L.f));
    CUDA_CHECK(cudaFree(L.r));
  }
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
