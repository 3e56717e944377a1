/* warp_sum_host.c: the host implementation of warp_sum.cu. The sums follow
 * the butterfly's order: after the step with offset o, lane l holds the sum
 * of its value and lane l ^ o's, so lane 0 ends with the kernel's bits. */
void warp_sum(int n, const float *x, float *sums, int *positives) {
  int warps = (n + 31) / 32;
  for (int w = 0; w < warps; ++w) {
    float v[32], next[32];
    int count = 0;
    for (int l = 0; l < 32; ++l) {
      int i = w * 32 + l;
      v[l] = i < n ? x[i] : 0.0f;
      count += v[l] > 0.0f;
    }
    for (int offset = 16; offset > 0; offset /= 2) {
      for (int l = 0; l < 32; ++l) next[l] = v[l] + v[l ^ offset];
      for (int l = 0; l < 32; ++l) v[l] = next[l];
    }
    sums[w] = v[0];
    positives[w] = count;
  }
}
