// stdio_more.cu: uses more of <cstdio>'s names without including it
// (sscanf, fwrite, fputc), which nvcc 13.0 refuses (`identifier "sscanf" is
// undefined`, as a public cuRAND example's main does); cuemu-nvcc compiles
// it, since its shims declare them, and warns at each first use
// (tests/driver_nvcc_undeclared.sh).
__global__ void twice(int *value) { *value *= 2; }

int main() {
  int value = 0;
  if (sscanf("21", "%d", &value) != 1)
    return 1;
  int *device = nullptr;
  cudaMallocManaged(&device, sizeof *device);
  *device = value;
  twice<<<1, 1>>>(device);
  cudaDeviceSynchronize();
  const char text[] = "PASS";
  fwrite(text, 1, *device == 42 ? 4 : 0, stdout);
  fputc('\n', stdout);
  return *device == 42 ? 0 : 1;
}
