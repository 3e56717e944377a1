// offsets.cu: separable device code in FindCUDA's static library: a
// __device__ function that offsets_main.cu's kernel calls.
__device__ int offset_of(int i) { return 10 * i + 1; }
