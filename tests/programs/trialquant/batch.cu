/* batch.cu: independent circuits on their own streams, one layer captured
 * as a CUDA graph and replayed, and a persistent cooperative kernel that
 * applies a layer with grid syncs, device printf and event timing.
 * From tests/programs_trialquant.sh (a trial of quantum-circuit simulators
 * written the way public state-vector projects write them: a CMake project
 * with a static library of kernels and a header-only gate library; here
 * each program is whole).
 */
#include <vector>
#include <cooperative_groups.h>
#include "qsim/common.cuh"
#include "qsim/gates.cuh"
#include "qsim/host_sim.h"

namespace cg = cooperative_groups;
using namespace qsim;

// One layer: RY(theta_q) on every qubit, in order, one grid sync per gate.
__global__ void persistent_layer_kernel(cuDoubleComplex *state, int n_qubits, const double *thetas, int layers) {
  cg::grid_group grid = cg::this_grid();
  const index_t pairs = 1ULL << (n_qubits - 1);
  for (int l = 0; l < layers; ++l) {
    for (int q = 0; q < n_qubits; ++q) {
      double c = cos(thetas[q] / 2), s = sin(thetas[q] / 2);
      for (index_t t = grid.thread_rank(); t < pairs; t += grid.size()) {
        index_t i0 = insert_zero_bit(t, q), i1 = i0 | (1ULL << q);
        cuDoubleComplex a0 = state[i0], a1 = state[i1];
        state[i0] = make_cuDoubleComplex(c * a0.x - s * a1.x, c * a0.y - s * a1.y);
        state[i1] = make_cuDoubleComplex(s * a0.x + c * a1.x, s * a0.y + c * a1.y);
      }
      grid.sync();
    }
  }
  if (grid.thread_rank() == 0)
    printf("persistent kernel: %d layers x %d qubits on %u blocks\n", layers, n_qubits, (unsigned)gridDim.x);
}

static void host_layer(host::State &s, int n, const double *thetas) {
  for (int q = 0; q < n; ++q) {
    double c = std::cos(thetas[q] / 2), sn = std::sin(thetas[q] / 2);
    host::cplx m[4] = {c, -sn, sn, c};
    host::apply1(s, q, m);
  }
}

static void host_entangle(host::State &s, int n) {
  host::cplx x[4] = {0, 1, 1, 0};
  for (int q = 0; q + 1 < n; ++q) host::apply_c1(s, q, q + 1, x);
}

static void device_layer(cuDoubleComplex *d, int n, const double *thetas, cudaStream_t st) {
  for (int q = 0; q < n; ++q) apply_gate(d, n, q, rot_y<cuDoubleComplex>(thetas[q]), st);
  for (int q = 0; q + 1 < n; ++q) apply_controlled(d, n, q, q + 1, pauli_x<cuDoubleComplex>(), st);
}

static bool test_streams(int n, int batch) {
  const index_t dim = 1ULL << n;
  std::vector<cudaStream_t> streams(batch);
  std::vector<cuDoubleComplex *> d(batch);
  cuDoubleComplex *h_pinned;
  CUDA_CHECK(cudaMallocHost(&h_pinned, batch * dim * sizeof(cuDoubleComplex)));
  std::vector<std::vector<double> > thetas(batch, std::vector<double>(n));
  for (int b = 0; b < batch; ++b) {
    for (int q = 0; q < n; ++q) thetas[b][q] = 0.1 * (b + 1) + 0.05 * q;
    CUDA_CHECK(cudaStreamCreate(&streams[b]));
    CUDA_CHECK(cudaMallocAsync(&d[b], dim * sizeof(cuDoubleComplex), streams[b]));
    CUDA_CHECK(cudaMemsetAsync(d[b], 0, dim * sizeof(cuDoubleComplex), streams[b]));
    const cuDoubleComplex one = make_cuDoubleComplex(1, 0);
    CUDA_CHECK(cudaMemcpyAsync(d[b], &one, sizeof(one), cudaMemcpyHostToDevice, streams[b]));
  }
  GpuTimer timer;
  timer.start();
  for (int layer = 0; layer < 3; ++layer)
    for (int b = 0; b < batch; ++b) device_layer(d[b], n, thetas[b].data(), streams[b]);
  for (int b = 0; b < batch; ++b)
    CUDA_CHECK(cudaMemcpyAsync(h_pinned + b * dim, d[b], dim * sizeof(cuDoubleComplex), cudaMemcpyDeviceToHost,
                               streams[b]));
  CUDA_CHECK(cudaDeviceSynchronize());
  float ms = timer.stop();
  double err = 0;
  for (int b = 0; b < batch; ++b) {
    host::State ref = host::zero_state(n);
    for (int layer = 0; layer < 3; ++layer) {
      host_layer(ref, n, thetas[b].data());
      host_entangle(ref, n);
    }
    for (index_t i = 0; i < dim; ++i)
      err = std::fmax(err, std::abs(host::cplx(h_pinned[b * dim + i].x, h_pinned[b * dim + i].y) - ref[i]));
    CUDA_CHECK(cudaFreeAsync(d[b], streams[b]));
    CUDA_CHECK(cudaStreamSynchronize(streams[b]));
    CUDA_CHECK(cudaStreamDestroy(streams[b]));
  }
  CUDA_CHECK(cudaFreeHost(h_pinned));
  std::printf("%d circuits on %d streams: %.3f ms, max error %.3e\n", batch, batch, ms, err);
  return err < 1e-12;
}

static bool test_graph(int n, int replays) {
  const index_t dim = 1ULL << n;
  std::vector<double> thetas(n);
  for (int q = 0; q < n; ++q) thetas[q] = 0.3 - 0.07 * q;
  cudaStream_t st;
  CUDA_CHECK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  cuDoubleComplex *d;
  CUDA_CHECK(cudaMalloc(&d, dim * sizeof(cuDoubleComplex)));
  host::State ref = host::random_state(n, 5);
  CUDA_CHECK(cudaMemcpy(d, ref.data(), dim * sizeof(cuDoubleComplex), cudaMemcpyHostToDevice));
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  CUDA_CHECK(cudaStreamBeginCapture(st, cudaStreamCaptureModeGlobal));
  device_layer(d, n, thetas.data(), st);
  CUDA_CHECK(cudaStreamEndCapture(st, &graph));
  size_t nodes = 0;
  CUDA_CHECK(cudaGraphGetNodes(graph, nullptr, &nodes));
  CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0));
  GpuTimer timer(st);
  timer.start();
  for (int r = 0; r < replays; ++r) CUDA_CHECK(cudaGraphLaunch(exec, st));
  float ms = timer.stop();
  host::State got(dim);
  CUDA_CHECK(cudaMemcpyAsync(got.data(), d, dim * sizeof(cuDoubleComplex), cudaMemcpyDeviceToHost, st));
  CUDA_CHECK(cudaStreamSynchronize(st));
  for (int r = 0; r < replays; ++r) {
    host_layer(ref, n, thetas.data());
    host_entangle(ref, n);
  }
  double err = host::max_diff(got, ref);
  CUDA_CHECK(cudaGraphExecDestroy(exec));
  CUDA_CHECK(cudaGraphDestroy(graph));
  CUDA_CHECK(cudaFree(d));
  CUDA_CHECK(cudaStreamDestroy(st));
  std::printf("graph of %zu nodes replayed %d times: %.3f ms, max error %.3e\n", nodes, replays, ms, err);
  return nodes == (size_t)(2 * n - 1) && err < 1e-11;
}

static bool test_persistent(int n, int layers) {
  int dev = 0, coop = 0, sms = 0, per_sm = 0;
  CUDA_CHECK(cudaGetDevice(&dev));
  CUDA_CHECK(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev));
  CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  if (!coop) {
    std::printf("no cooperative launch\n");
    return false;
  }
  const int threads = 128;
  CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, persistent_layer_kernel, threads, 0));
  int blocks = std::min(sms * per_sm, 8);
  const index_t dim = 1ULL << n;
  std::vector<double> thetas(n);
  for (int q = 0; q < n; ++q) thetas[q] = 0.9 / (q + 1);
  cuDoubleComplex *d;
  double *d_thetas;
  CUDA_CHECK(cudaMalloc(&d, dim * sizeof(cuDoubleComplex)));
  CUDA_CHECK(cudaMalloc(&d_thetas, n * sizeof(double)));
  host::State ref = host::random_state(n, 77);
  CUDA_CHECK(cudaMemcpy(d, ref.data(), dim * sizeof(cuDoubleComplex), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_thetas, thetas.data(), n * sizeof(double), cudaMemcpyHostToDevice));
  void *args[] = {&d, &n, &d_thetas, &layers};
  CUDA_CHECK(cudaLaunchCooperativeKernel((void *)persistent_layer_kernel, blocks, threads, args, 0, 0));
  CUDA_CHECK_KERNEL();
  host::State got(dim);
  CUDA_CHECK(cudaMemcpy(got.data(), d, dim * sizeof(cuDoubleComplex), cudaMemcpyDeviceToHost));
  for (int l = 0; l < layers; ++l) host_layer(ref, n, thetas.data());
  double err = host::max_diff(got, ref);
  CUDA_CHECK(cudaFree(d));
  CUDA_CHECK(cudaFree(d_thetas));
  std::printf("persistent: %d blocks, max error %.3e\n", blocks, err);
  return err < 1e-12;
}

int main() {
  int fails = 0;
  fails += report("stream batch", test_streams(10, 4));
  fails += report("graph replay", test_graph(10, 20));
  fails += report("persistent layer", test_persistent(11, 3));
  std::printf("%s\n", fails ? "FAIL" : "PASS");
  return fails ? 1 : 0;
}
