/*
 * bench_host_program.cu: a whole program whose host code outweighs its
 * device code, as in programs that instantiate a host class template for
 * every kernel configuration they dispatch to (Altis kmeans): run_bench.sh
 * times its compile with the device pass compiling only the host code that
 * device code reaches (cuemu_gcc_plugin_host_code.cc) against all of it
 * (CUEMU_DEVICE_HOST_CODE=1).
 */
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <numeric>
#include <string>
#include <vector>

template <int R, int C>
__global__ void nearest(const float *points, const float *centers, int *owner,
                        int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float best = 3.4e38f;
  int arg = 0;
  for (int c = 0; c < C; ++c) {
    float d = 0.0f;
    for (int r = 0; r < R; ++r) {
      float t = points[i * R + r] - centers[c * R + r];
      d += t * t;
    }
    if (d < best) best = d, arg = c;
  }
  owner[i] = arg;
}

/* The host side of one configuration: set-up, a run, a report. */
template <int R, int C> class Solver {
public:
  explicit Solver(int n) : n_(n), points_(n * R), centers_(C * R), owner_(n) {
    for (int i = 0; i < n * R; ++i)
      points_[i] = static_cast<float>((i * 7919) % 1000) / 1000.0f;
    for (int c = 0; c < C * R; ++c) centers_[c] = points_[c % (n * R)];
  }
  int run() {
    float *p, *c;
    int *o;
    cudaMalloc(&p, points_.size() * sizeof(float));
    cudaMalloc(&c, centers_.size() * sizeof(float));
    cudaMalloc(&o, owner_.size() * sizeof(int));
    cudaMemcpy(p, points_.data(), points_.size() * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(c, centers_.data(), centers_.size() * sizeof(float), cudaMemcpyHostToDevice);
    nearest<R, C><<<(n_ + 127) / 128, 128>>>(p, c, o, n_);
    cudaMemcpy(owner_.data(), o, owner_.size() * sizeof(int), cudaMemcpyDeviceToHost);
    cudaFree(p);
    cudaFree(c);
    cudaFree(o);
    return summary();
  }

private:
  int summary() const {
    std::map<int, int> sizes;
    for (int o : owner_) ++sizes[o];
    std::vector<std::pair<int, int>> order(sizes.begin(), sizes.end());
    std::sort(order.begin(), order.end(),
              [](const std::pair<int, int> &a, const std::pair<int, int> &b) {
                return a.second > b.second;
              });
    std::string line = "R=" + std::to_string(R) + " C=" + std::to_string(C);
    for (const auto &kv : order)
      line += " " + std::to_string(kv.first) + ":" + std::to_string(kv.second);
    std::printf("%s\n", line.c_str());
    return std::accumulate(owner_.begin(), owner_.end(), 0);
  }
  int n_;
  std::vector<float> points_, centers_;
  std::vector<int> owner_;
};

template <int R, int C> int solve(int n) { return Solver<R, C>(n).run(); }

template <int R> int solve_rank(int centers, int n) {
  switch (centers) {
  case 2: return solve<R, 2>(n);
  case 4: return solve<R, 4>(n);
  case 8: return solve<R, 8>(n);
  case 16: return solve<R, 16>(n);
  default: return solve<R, 32>(n);
  }
}

int main(int argc, char **argv) {
  int rank = argc > 1 ? std::atoi(argv[1]) : 2, centers = 4, n = 1024;
  switch (rank) {
  case 1: return solve_rank<1>(centers, n) < 0;
  case 2: return solve_rank<2>(centers, n) < 0;
  case 4: return solve_rank<4>(centers, n) < 0;
  default: return solve_rank<8>(centers, n) < 0;
  }
}
