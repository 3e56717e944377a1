/* Wrong on purpose: this host file does not compile (an undeclared
 * variable and a missing semicolon). */
void scale(int n, float a, const float *x, float *y) {
  for (int i = 0; i < n; ++i) y[i] = a * x[j]
}
