/* gdb_thrust_unit.cu: a kernel of a unit that includes Thrust, which
 * cuemu compiles with clang++, for tests/gdb/gdb_clang_unit.sh. The
 * amplitudes are thrust::complex<double>, as in a state-vector simulator.
 * The test finds its lines by their "LINE:name" markers. */
#include <cstdio>
#include <thrust/complex.h>

typedef thrust::complex<double> amp;

__global__ void scale(amp *state, double factor) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  amp a = state[i];
  state[i] = a * factor; /* LINE:scale */
}

int main() {
  const int n = 64;
  amp *d;
  cudaMalloc(&d, n * sizeof(amp));
  amp h[n];
  for (int i = 0; i < n; ++i) h[i] = amp(i, -i);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  scale<<<2, 32>>>(d, 2.0);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  cudaFree(d);
  int ok = 1;
  for (int i = 0; i < n; ++i)
    ok &= h[i].real() == 2.0 * i && h[i].imag() == -2.0 * i;
  printf("gdb_thrust_unit: %s\n", ok ? "ok" : "wrong");
  return ok ? 0 : 1;
}
