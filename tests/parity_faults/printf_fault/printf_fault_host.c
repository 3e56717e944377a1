/* printf_fault_host.c: what printf_fault.cu means to compute. */
void mark(int n, const int *p, int *y) {
  (void)p;
  for (int i = 0; i < n; ++i) y[i] = 1;
}
