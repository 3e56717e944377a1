/* histogram.cuh: the kernels' file and main share this. */
#ifndef HISTOGRAM_CUH
#define HISTOGRAM_CUH
#define BINS 16
void histogram_gpu(const unsigned *data, unsigned *bins, int n);
void histogram_reference(const unsigned *data, unsigned *bins, int n);
#endif
