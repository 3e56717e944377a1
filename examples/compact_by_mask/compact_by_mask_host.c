/* compact_by_mask_host.c: the host implementation of compact_by_mask.cu. */
void compact_by_mask(int n, const int *mask, float *values, int *ids,
                     int *count) {
  int kept = 0;
  for (int i = 0; i < n; ++i)
    if (mask[i] != 0) {
      values[kept] = values[i];
      ids[kept] = ids[i];
      kept++;
    }
  *count = kept;
}
