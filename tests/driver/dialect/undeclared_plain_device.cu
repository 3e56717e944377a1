// undeclared_plain_device.cu: a __device__ function (no template) that
// only the device pass sees names a variable declared nowhere: nvcc's
// device pass refuses it, so cuemu-nvcc must too
// (tests/driver_device_undeclared.sh).
#ifdef __CUDA_ARCH__
__device__ int plain_device() { return nowhere_plain; }
#endif

int main() { return 0; }
