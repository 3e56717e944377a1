/* block_scan_host.c: the host implementation of block_scan.cu: the prefix
 * sums restart at every segment of `seg` elements. */
void block_scan(int n, int seg, const int *x, int *inclusive,
                int *exclusive) {
  int sum = 0;
  for (int i = 0; i < n; ++i) {
    if (i % seg == 0) sum = 0;
    exclusive[i] = sum;
    sum += x[i];
    inclusive[i] = sum;
  }
}
