/* wrong_matrix_host.c: the correct host implementation of y = a * x over a
 * rows x cols matrix. */
void scale2d(int rows, int cols, float a, const float *x, float *y) {
  for (int i = 0; i < rows * cols; ++i)
    y[i] = a * x[i];
}
