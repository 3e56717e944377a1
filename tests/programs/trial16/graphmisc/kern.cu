extern "C" __global__ void inc(int *p, int by) { atomicAdd(p + threadIdx.x, by); }
