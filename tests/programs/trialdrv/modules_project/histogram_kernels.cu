// histogram_kernels.cu: the kernels of the C program histogram.c, built
// as a .fatbin.
extern "C" __global__ void histogram256(const unsigned char *data, unsigned n, unsigned *bins) {
  __shared__ unsigned local[256];
  for (unsigned i = threadIdx.x; i < 256; i += blockDim.x) local[i] = 0;
  __syncthreads();
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(&local[data[i]], 1u);
  __syncthreads();
  for (unsigned i = threadIdx.x; i < 256; i += blockDim.x) atomicAdd(&bins[i], local[i]);
}
struct Params { float scale; int count; double offset; };
extern "C" __global__ void by_struct(struct Params p, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < p.count) out[i] = (float)(p.scale * i + p.offset);
}
