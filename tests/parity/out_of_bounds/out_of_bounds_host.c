/* out_of_bounds_host.c: what out_of_bounds.cu means to compute, within
 * bounds: y[i + 1] = x[i] for i + 1 < n. */
void shift(int n, const float *x, float *y) {
  for (int i = 0; i + 1 < n; ++i) y[i + 1] = x[i];
}
