/* transpose_host.c: the host implementation of transpose.cu. */
void transpose(int rows, int cols, const float *in, float *out) {
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c)
      out[(long long)c * rows + r] = in[(long long)r * cols + c];
}
