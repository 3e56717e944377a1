/*
 * reloc_kernels.cu: one half of the program that nvcc's relocatable link
 * (-r) joins into one object (tests/driver_nvcc13_options.sh): a kernel
 * and the host function that launches it, and (with -rdc=true) a device
 * function that the other file calls.
 */
__device__ int twice(int v) { return 2 * v; }

__global__ void add_one(int *p) { p[threadIdx.x] += 1; }

void launch_add_one(int *d, int n) { add_one<<<1, n>>>(d); }
