// pauli.cuh: expectation values of Pauli strings. A string is two bit masks:
// x_mask (X or Y) and z_mask (Z or Y); P|i> = i^{nY} (-1)^{popc(i & z)} |i ^ x>.
#ifndef QSIM_PAULI_CUH
#define QSIM_PAULI_CUH
#include "common.cuh"
#include "reduce.cuh"

namespace qsim {

struct PauliString {
  index_t x_mask, z_mask;
  double coeff;
};

template <int BLOCK>
__global__ void __launch_bounds__(BLOCK) pauli_expectation_kernel(const cuDoubleComplex *state, int n_qubits,
                                                                  PauliString p, double *out) {
  index_t dim = 1ULL << n_qubits;
  int n_y = __popcll(p.x_mask & p.z_mask);
  // i^{nY}: 1, i, -1, -i.
  const double ph_re[4] = {1, 0, -1, 0}, ph_im[4] = {0, 1, 0, -1};
  double acc = 0;
  for (index_t i = (index_t)blockIdx.x * blockDim.x + threadIdx.x; i < dim; i += (index_t)gridDim.x * blockDim.x) {
    double sign = (__popcll(i & p.z_mask) & 1) ? -1.0 : 1.0;
    cuDoubleComplex a = state[i];
    cuDoubleComplex b = cuConj(state[i ^ p.x_mask]);
    cuDoubleComplex ph = make_cuDoubleComplex(sign * ph_re[n_y & 3], sign * ph_im[n_y & 3]);
    acc += cuCreal(cuCmul(b, cuCmul(ph, a)));
  }
  acc = block_reduce_sum<BLOCK>(acc);
  if (threadIdx.x == 0) atomicAdd(out, p.coeff * acc);
}

// Parity of the 32-bit mask overlap, as qubit-wise Z strings on small registers use.
__global__ void z_parity_kernel(const cuDoubleComplex *state, unsigned dim, unsigned z_mask, double *out) {
  double acc = 0;
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < dim; i += gridDim.x * blockDim.x) {
    double pr = cuCreal(state[i]) * cuCreal(state[i]) + cuCimag(state[i]) * cuCimag(state[i]);
    acc += (__popc(i & z_mask) & 1) ? -pr : pr;
  }
  acc = block_reduce_sum<128>(acc);
  if (threadIdx.x == 0) atomicAdd(out, acc);
}

}  // namespace qsim

#endif  // QSIM_PAULI_CUH
