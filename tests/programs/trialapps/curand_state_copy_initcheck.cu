// curand_state_copy_initcheck.cu: cuRAND's idiom, a state per thread set
// by curand_init in one kernel and copied to a local variable and back in
// another, under initcheck. XORWOW's state has 4 bytes of padding (byte
// 36, before the double) that curand_init never writes; the local copy
// is a block copy of all 48 bytes, which initcheck reported as a read of
// uninitialised memory (a GPU copies the fields). A block copy's
// unwritten bytes now count only in runs of 8 or more; a copy of a state
// nothing set is still reported (tests/programs_trialapps.sh checks that
// with the argument `unset`, where setup leaves the states alone). Reduced
// from a path tracer of branch trialapps. Built with the checkers of the
// folder's other initcheck programs, so that they share one build.
// CUEMU_OPTIONS: --check=init,race,mem
#include <cstdio>
#include <cstring>
#include <curand_kernel.h>

__global__ void setup(curandState *states, int n, bool set) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (set && i < n)
    curand_init(1234, i, 0, &states[i]);
}

__global__ void draw(curandState *states, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  curandState local = states[i];
  float s = 0.0f;
  for (int k = 0; k < 4; k++)
    s += curand_uniform(&local);
  states[i] = local;
  out[i] = s;
}

int main(int argc, char **argv) {
  const bool set = !(argc > 1 && std::strcmp(argv[1], "unset") == 0);
  const int n = 64;
  curandState *states;
  float *out;
  cudaMalloc(&states, n * sizeof(curandState));
  cudaMallocManaged(&out, n * sizeof(float));
  setup<<<2, 32>>>(states, n, set);
  draw<<<2, 32>>>(states, out, n);
  cudaError_t err = cudaDeviceSynchronize();
  int ok = err == cudaSuccess;
  for (int i = 0; i < n && ok; i++)
    ok = out[i] > 0.0f && out[i] <= 4.0f;
  printf("status %s, out[0] %.4f\n", cudaGetErrorName(err), out[0]);
  cudaFree(states);
  cudaFree(out);
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
