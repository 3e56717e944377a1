/* reference.cpp: the host's histogram (plain C++). */
#include "histogram.cuh"

void histogram_reference(const unsigned *data, unsigned *bins, int n) {
  for (int b = 0; b < BINS; ++b)
    bins[b] = 0;
  for (int i = 0; i < n; ++i)
    bins[data[i] % BINS]++;
}
