// vmm_grow_vector.cu: a device vector grown by cuMemAddressReserve,
// cuMemCreate and cuMemMap, remapped when its range cannot grow in place.
// CUEMU_OPTIONS: -lcuda
// NVCC_OPTIONS: -lcuda
// Grows a device vector chunk by chunk, filling each new part with a kernel
// and checking the whole vector after every growth (the data must survive
// remapping to a new range).
#include "vmm_grow_vector.h"
#include <cstdint>

template <typename T>
__global__ void iota_from(T *v, size_t begin, size_t end) {
  for (size_t i = begin + blockIdx.x * blockDim.x + threadIdx.x; i < end; i += gridDim.x * blockDim.x)
    v[i] = (T)(i * 3 + 1);
}

template <typename T>
__global__ void check_all(const T *v, size_t n, unsigned long long *bad) {
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    if (v[i] != (T)(i * 3 + 1)) atomicAdd(bad, 1ULL);
}

int main(int argc, char **argv) {
  CUdevice dev = findCudaDeviceDRV(argc, argv);
  int vmm = 0;
  checkCudaErrors(cuDeviceGetAttribute(&vmm, CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED, dev));
  if (!vmm) { printf("no VMM\n"); return 2; }
  CUcontext ctx;
  checkCudaErrors(cuDevicePrimaryCtxRetain(&ctx, dev));
  checkCudaErrors(cuCtxSetCurrent(ctx));
  bool ok = true;
  unsigned long long *d_bad;
  cudaMalloc(&d_bad, sizeof *d_bad);
  {
    VectorMemMap vec(ctx);
    size_t n = 0;
    // Something allocated after the first reservation makes in-place growth
    // fail at least once, forcing a remap.
    CUdeviceptr blocker = 0;
    for (int step = 0; step < 6; ++step) {
      size_t want = (step + 1) * (3u << 20) / 2;  // 1.5 MiB steps
      checkCudaErrors(vec.grow(want * sizeof(uint32_t)));
      if (step == 1) {
        // Take the range right after the vector.
        CUresult r = cuMemAddressReserve(&blocker, 2 << 20, 0, vec.getPointer() + vec.getReserved(), 0);
        if (r != CUDA_SUCCESS) blocker = 0;
      }
      uint32_t *p = (uint32_t *)vec.getPointer();
      iota_from<<<32, 256>>>(p, n, want);
      n = want;
      cudaMemset(d_bad, 0, sizeof *d_bad);
      check_all<<<32, 256>>>(p, n, d_bad);
      unsigned long long bad = 1;
      cudaMemcpy(&bad, d_bad, sizeof bad, cudaMemcpyDeviceToHost);
      printf("step %d: %zu elements at %p, %zu bytes mapped, %llu bad\n", step, n, (void *)p, vec.getSize(), bad);
      if (bad) ok = false;
    }
    printf("in-place growths %d, remaps %d\n", vec.in_place, vec.remaps);
    if (vec.remaps < 1) { printf("expected a remap\n"); ok = false; }
    if (blocker) checkCudaErrors(cuMemAddressFree(blocker, 2 << 20));
  }
  cudaFree(d_bad);
  if (cudaGetLastError() != cudaSuccess) ok = false;
  checkCudaErrors(cuDevicePrimaryCtxRelease(dev));
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
