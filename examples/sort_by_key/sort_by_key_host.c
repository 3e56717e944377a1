/* sort_by_key_host.c: the host implementation of sort_by_key.cu: a stable
 * merge sort of the row indices by key. */
#include <stdlib.h>
#include <string.h>

/* Sorts index[lo, hi) stably by keys[index[...]], using scratch. */
static void merge_sort(const int *keys, int *index, int *scratch, int lo,
                       int hi) {
  int mid = lo + (hi - lo) / 2, a = lo, b = mid, out = lo;
  if (hi - lo < 2) return;
  merge_sort(keys, index, scratch, lo, mid);
  merge_sort(keys, index, scratch, mid, hi);
  while (a < mid && b < hi)
    scratch[out++] = keys[index[b]] < keys[index[a]] ? index[b++] : index[a++];
  while (a < mid) scratch[out++] = index[a++];
  while (b < hi) scratch[out++] = index[b++];
  memcpy(index + lo, scratch + lo, (size_t)(hi - lo) * sizeof *index);
}

void sort_by_key(int n, const int *keys, const float *values,
                 int *sorted_keys, int *order, float *sorted_values) {
  int *scratch = malloc((size_t)(n > 0 ? n : 1) * sizeof *scratch);
  if (!scratch) abort();
  for (int i = 0; i < n; ++i) order[i] = i;
  merge_sort(keys, order, scratch, 0, n);
  for (int i = 0; i < n; ++i) {
    sorted_keys[i] = keys[order[i]];
    sorted_values[i] = values[order[i]];
  }
  free(scratch);
}
