// bench_saxpy_host.cpp: the host loop that the emulated saxpy is compared
// with. run_bench.sh builds it into a small shared object with the flags that
// cuemu-cc gives a module (-std=c++17 -O2 -fPIC ...), so that both sides are
// compiled alike and neither is specialised for the driver's constants.

extern "C" __attribute__((visibility("default"))) void
bench_saxpy_host(int n, float a, const float *x, float *y) {
  for (int i = 0; i < n; ++i)
    y[i] = a * x[i] + y[i];
}
