/* histogram_host.c: the host implementation of histogram.cu. */
void histogram(int n, const unsigned char *data, unsigned int *bins) {
  for (int i = 0; i < n; ++i) bins[data[i]]++;
}
