/* host_call_host.c: what host_call.cu means to compute. */
void clamp(int n, const float *x, float *y) {
  for (int i = 0; i < n; ++i) y[i] = x[i];
}
