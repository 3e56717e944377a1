#ifndef FIN_PAYOFF_RDC_CUH
#define FIN_PAYOFF_RDC_CUH
namespace fin {
__device__ double digital_payoff(double s, double k);
__device__ double knock_out_call(double s, double k, double running_max);
} // namespace fin

// The definitions (src/payoff_rdc.cu in the trial project, compiled
// there with -rdc=true).
namespace fin {
__device__ double barrier_level = 0.0;

__device__ double digital_payoff(double s, double k) { return s > k ? 1.0 : 0.0; }
__device__ double knock_out_call(double s, double k, double running_max) {
  return running_max >= barrier_level ? 0.0 : fmax(s - k, 0.0);
}
} // namespace fin

#endif // FIN_PAYOFF_RDC_CUH
