// The host's product of two column-major n x n matrices, the reference of
// main.cu's cublasSgemm.
void expected_product(const float *a, const float *b, float *c, int n) {
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      float sum = 0;
      for (int k = 0; k < n; ++k)
        sum += a[i + k * n] * b[k + j * n];
      c[i + j * n] = sum;
    }
}
