/* expect.cu: a Hamiltonian's expectation as a sum of Pauli strings
 * (__popcll, __popc parities), and a 5-qubit density matrix evolved as
 * U rho U^H with cublasZgemm, its trace, purity by cublasZdotc.
 * From tests/programs_trialquant.sh (a trial of quantum-circuit simulators
 * written the way public state-vector projects write them: a CMake project
 * with a static library of kernels and a header-only gate library; here
 * each program is whole).
 * CUEMU_OPTIONS: -lcublas
 * NVCC_OPTIONS: -lcublas
 */
#include <vector>
#include <complex>
#include <cublas_v2.h>
#include "qsim/common.cuh"
#include "qsim/gates.cuh"
#include "qsim/pauli.cuh"
#include "qsim/host_sim.h"

#define CUBLAS_CHECK(call)                                                     \
  do {                                                                         \
    cublasStatus_t st_ = (call);                                               \
    if (st_ != CUBLAS_STATUS_SUCCESS) {                                        \
      std::fprintf(stderr, "cuBLAS error %d at %s:%d\n", (int)st_, __FILE__, __LINE__); \
      std::exit(EXIT_FAILURE);                                                 \
    }                                                                          \
  } while (0)

using namespace qsim;
typedef host::cplx cplx;

static cplx host_pauli(const host::State &s, const PauliString &p) {
  int ny = __builtin_popcountll(p.x_mask & p.z_mask);
  cplx iy = std::pow(cplx(0, 1), ny), acc = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    double sign = (__builtin_popcountll(i & p.z_mask) & 1) ? -1 : 1;
    acc += std::conj(s[i ^ p.x_mask]) * iy * sign * s[i];
  }
  return acc * p.coeff;
}

static bool test_pauli(int n) {
  host::State ref = host::random_state(n, 31337);
  const index_t dim = 1ULL << n;
  cuDoubleComplex *d_state;
  double *d_out;
  CUDA_CHECK(cudaMalloc(&d_state, dim * sizeof(cuDoubleComplex)));
  CUDA_CHECK(cudaMalloc(&d_out, sizeof(double)));
  CUDA_CHECK(cudaMemcpy(d_state, ref.data(), dim * sizeof(cuDoubleComplex), cudaMemcpyHostToDevice));
  // H = 0.5 Z0Z1 - 0.3 X2 + 0.7 Y3 Y4 + 0.2 X0 Y5 Z7 - 1.1 Z11
  std::vector<PauliString> h = {{0, 3, 0.5}, {4, 0, -0.3}, {24, 24, 0.7}, {1 | 32, 32 | 128, 0.2}, {0, 2048, -1.1}};
  CUDA_CHECK(cudaMemset(d_out, 0, sizeof(double)));
  for (const PauliString &p : h) {
    pauli_expectation_kernel<256><<<16, 256>>>(d_state, n, p, d_out);
    CUDA_CHECK(cudaGetLastError());
  }
  double got, zz;
  CUDA_CHECK(cudaMemcpy(&got, d_out, sizeof(double), cudaMemcpyDeviceToHost));
  double want = 0;
  for (const PauliString &p : h) want += host_pauli(ref, p).real();
  CUDA_CHECK(cudaMemset(d_out, 0, sizeof(double)));
  z_parity_kernel<<<8, 128>>>(d_state, (unsigned)dim, 0x5u, d_out);
  CUDA_CHECK_KERNEL();
  CUDA_CHECK(cudaMemcpy(&zz, d_out, sizeof(double), cudaMemcpyDeviceToHost));
  double zz_want = host_pauli(ref, PauliString{0, 5, 1.0}).real();
  CUDA_CHECK(cudaFree(d_state));
  CUDA_CHECK(cudaFree(d_out));
  std::printf("<H> = %.12f (host %.12f), <Z0 Z2> = %.12f (host %.12f)\n", got, want, zz, zz_want);
  return std::fabs(got - want) < 1e-12 && std::fabs(zz - zz_want) < 1e-12;
}

__global__ void trace_kernel(const cuDoubleComplex *rho, int dim, cuDoubleComplex *out) {
  __shared__ double re[64], im[64];
  int t = threadIdx.x;
  re[t] = t < dim ? rho[t * dim + t].x : 0.0;
  im[t] = t < dim ? rho[t * dim + t].y : 0.0;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s) {
      re[t] += re[t + s];
      im[t] += im[t + s];
    }
    __syncthreads();
  }
  if (t == 0) *out = make_cuDoubleComplex(re[0], im[0]);
}

static bool test_density(int n) {
  const int dim = 1 << n;
  // U from a circuit, column by column; rho a mixture of three states.
  std::vector<cplx> U(dim * dim), rho(dim * dim, 0.0);
  cplx h[4], ry[4], x[4];
  host::hadamard_m(h);
  double c = std::cos(0.35), s = std::sin(0.35);
  ry[0] = c; ry[1] = -s; ry[2] = s; ry[3] = c;
  x[0] = 0; x[1] = 1; x[2] = 1; x[3] = 0;
  for (int col = 0; col < dim; ++col) {
    host::State e(dim, 0.0);
    e[col] = 1;
    for (int q = 0; q < n; ++q) host::apply1(e, q, q % 2 ? ry : h);
    for (int q = 0; q + 1 < n; ++q) host::apply_c1(e, q, q + 1, x);
    host::cphase(e, 0, n - 1, 0.9);
    for (int r = 0; r < dim; ++r) U[r + col * dim] = e[r];
  }
  const double w[3] = {0.5, 0.3, 0.2};
  host::State psi0;
  for (int k = 0; k < 3; ++k) {
    host::State p = host::random_state(n, 100 + k);
    if (k == 0) psi0 = p;
    for (int i = 0; i < dim; ++i)
      for (int j = 0; j < dim; ++j) rho[i + j * dim] += w[k] * p[i] * std::conj(p[j]);
  }
  // Host: U rho U^H.
  std::vector<cplx> T(dim * dim, 0.0), R(dim * dim, 0.0);
  for (int i = 0; i < dim; ++i)
    for (int j = 0; j < dim; ++j)
      for (int k = 0; k < dim; ++k) T[i + j * dim] += U[i + k * dim] * rho[k + j * dim];
  for (int i = 0; i < dim; ++i)
    for (int j = 0; j < dim; ++j)
      for (int k = 0; k < dim; ++k) R[i + j * dim] += T[i + k * dim] * std::conj(U[j + k * dim]);
  double purity_want = 0;
  for (const cplx &v : R) purity_want += std::norm(v);

  cublasHandle_t handle;
  CUBLAS_CHECK(cublasCreate(&handle));
  cudaStream_t stream;
  CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  CUBLAS_CHECK(cublasSetStream(handle, stream));
  cuDoubleComplex *dU, *dRho, *dT, *dTr, *dPsi, *dPhi;
  size_t bytes = dim * dim * sizeof(cuDoubleComplex);
  CUDA_CHECK(cudaMalloc(&dU, bytes));
  CUDA_CHECK(cudaMalloc(&dRho, bytes));
  CUDA_CHECK(cudaMalloc(&dT, bytes));
  CUDA_CHECK(cudaMalloc(&dTr, sizeof(cuDoubleComplex)));
  CUDA_CHECK(cudaMalloc(&dPsi, dim * sizeof(cuDoubleComplex)));
  CUDA_CHECK(cudaMalloc(&dPhi, dim * sizeof(cuDoubleComplex)));
  CUBLAS_CHECK(cublasSetMatrix(dim, dim, sizeof(cuDoubleComplex), U.data(), dim, dU, dim));
  CUBLAS_CHECK(cublasSetMatrix(dim, dim, sizeof(cuDoubleComplex), rho.data(), dim, dRho, dim));
  const cuDoubleComplex one = make_cuDoubleComplex(1, 0), zero = make_cuDoubleComplex(0, 0);
  CUBLAS_CHECK(cublasZgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, dim, dim, dim, &one, dU, dim, dRho, dim, &zero, dT, dim));
  CUBLAS_CHECK(cublasZgemm(handle, CUBLAS_OP_N, CUBLAS_OP_C, dim, dim, dim, &one, dT, dim, dU, dim, &zero, dRho, dim));
  trace_kernel<<<1, 64, 0, stream>>>(dRho, dim, dTr);
  CUDA_CHECK(cudaGetLastError());
  cuDoubleComplex purity, overlap, tr;
  CUBLAS_CHECK(cublasZdotc(handle, dim * dim, dRho, 1, dRho, 1, &purity));
  // <psi0| U |psi0> with a gemv and a dotc.
  CUDA_CHECK(cudaMemcpyAsync(dPsi, psi0.data(), dim * sizeof(cuDoubleComplex), cudaMemcpyHostToDevice, stream));
  CUBLAS_CHECK(cublasZgemv(handle, CUBLAS_OP_N, dim, dim, &one, dU, dim, dPsi, 1, &zero, dPhi, 1));
  CUBLAS_CHECK(cublasZdotc(handle, dim, dPsi, 1, dPhi, 1, &overlap));
  CUDA_CHECK(cudaMemcpyAsync(&tr, dTr, sizeof(tr), cudaMemcpyDeviceToHost, stream));
  std::vector<cplx> got(dim * dim);
  CUBLAS_CHECK(cublasGetMatrixAsync(dim, dim, sizeof(cuDoubleComplex), dRho, dim, got.data(), dim, stream));
  CUDA_CHECK(cudaStreamSynchronize(stream));
  cplx ov_want = 0;
  for (int i = 0; i < dim; ++i)
    for (int k = 0; k < dim; ++k) ov_want += std::conj(psi0[i]) * U[i + k * dim] * psi0[k];
  double err = 0;
  for (int i = 0; i < dim * dim; ++i) err = std::fmax(err, std::abs(got[i] - R[i]));
  std::printf("density %dx%d: max error %.3e, trace %.15f%+.1ei, purity %.12f (host %.12f), overlap %.6f%+.6fi\n",
              dim, dim, err, tr.x, tr.y, purity.x, purity_want, overlap.x, overlap.y);
  bool ok = err < 1e-12 && std::fabs(tr.x - 1) < 1e-12 && std::fabs(tr.y) < 1e-12 &&
            std::fabs(purity.x - purity_want) < 1e-12 && std::fabs(purity.y) < 1e-12 &&
            std::abs(cplx(overlap.x, overlap.y) - ov_want) < 1e-12;
  CUDA_CHECK(cudaFree(dU));
  CUDA_CHECK(cudaFree(dRho));
  CUDA_CHECK(cudaFree(dT));
  CUDA_CHECK(cudaFree(dTr));
  CUDA_CHECK(cudaFree(dPsi));
  CUDA_CHECK(cudaFree(dPhi));
  CUBLAS_CHECK(cublasDestroy(handle));
  CUDA_CHECK(cudaStreamDestroy(stream));
  return ok;
}

int main() {
  int fails = 0;
  fails += report("pauli expectation", test_pauli(12));
  fails += report("density matrix", test_density(5));
  std::printf("%s\n", fails ? "FAIL" : "PASS");
  return fails ? 1 : 0;
}
