/* stand_in_runtime.c: a stand-in for NVIDIA's runtime library, built as
 * nvidia/lib64/libcudart_static.a and libcudart.so: its cudaGetDeviceCount
 * answers as NVIDIA's does on a machine without a GPU. */
int cudaGetDeviceCount(int *count) {
  *count = 0;
  return 100; /* cudaErrorNoDevice */
}
