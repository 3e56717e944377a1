// visible_devices.cu: what a program sees of the devices that
// CUDA_VISIBLE_DEVICES leaves it, as a test suite's set-up looks at them:
// the runtime's count, each device's compute capability, PCI bus, UUID (in
// nvidia-smi's form) and a kernel run on it, then the driver API's view
// (cuInit, cuDeviceGetCount, cuDeviceGetUuid). With no device it takes
// the skip path: the count's error, and the errors of the calls a test
// would make anyway. Output compared by tests/visible_devices.sh.
#include <cstdio>
#include <cstring>

#include <cuda.h>
#include <cuda_runtime.h>

__global__ void fill(int *out, int value) { out[threadIdx.x] = value + threadIdx.x; }

// Writes a UUID as nvidia-smi does: GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx.
static void uuid_text(const unsigned char *b, char *out) {
  char *p = out + sprintf(out, "GPU-");
  for (int i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10)
      *p++ = '-';
    p += sprintf(p, "%02x", b[i]);
  }
}

// Runs fill on the current device; 1 when its result is right.
static int kernel_runs(int value) {
  int *d = nullptr, h[32];
  if (cudaMalloc(&d, sizeof h) != cudaSuccess)
    return 0;
  fill<<<1, 32>>>(d, value);
  int ok = cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost) == cudaSuccess;
  for (int i = 0; ok && i < 32; ++i)
    ok = h[i] == value + i;
  cudaFree(d);
  return ok;
}

static int runtime_view(void) {
  int count = -1;
  cudaError_t e = cudaGetDeviceCount(&count);
  printf("runtime: count %d (%s)\n", count, cudaGetErrorName(e));
  if (e != cudaSuccess) {
    // The skip path: every call that needs a device fails alike.
    void *p = nullptr;
    printf("cudaSetDevice(0): %s\n", cudaGetErrorName(cudaSetDevice(0)));
    printf("cudaMalloc: %s\n", cudaGetErrorName(cudaMalloc(&p, 64)));
    cudaDeviceProp prop;
    printf("cudaGetDeviceProperties(0): %s\n",
           cudaGetErrorName(cudaGetDeviceProperties(&prop, 0)));
    cudaGetLastError();
    fill<<<1, 32>>>(static_cast<int *>(p), 0);
    printf("launch: %s\n", cudaGetErrorName(cudaGetLastError()));
    printf("cudaDeviceSynchronize: %s\n",
           cudaGetErrorName(cudaDeviceSynchronize()));
    return 0;
  }
  for (int d = 0; d < count; ++d) {
    cudaDeviceProp prop;
    char uuid[48];
    if (cudaGetDeviceProperties(&prop, d) != cudaSuccess ||
        cudaSetDevice(d) != cudaSuccess) {
      printf("device %d: not described\n", d);
      return 1;
    }
    uuid_text(reinterpret_cast<const unsigned char *>(prop.uuid.bytes), uuid);
    int current = -1;
    cudaGetDevice(&current);
    printf("device %d: sm_%d%d pci %d %s kernel %s\n", d, prop.major,
           prop.minor, prop.pciBusID, uuid,
           current == d && kernel_runs(100 * d) ? "ok" : "FAILED");
  }
  printf("cudaSetDevice(%d): %s\n", count,
         cudaGetErrorName(cudaSetDevice(count)));
  return 0;
}

static void driver_view(void) {
  const char *name = nullptr;
  CUresult r = cuInit(0);
  cuGetErrorName(r, &name);
  int count = -1;
  cuDeviceGetCount(&count);
  printf("driver: cuInit %s count %d\n", name, count);
  for (int d = 0; d < count; ++d) {
    CUdevice dev;
    CUuuid u;
    char uuid[48];
    if (cuDeviceGet(&dev, d) != CUDA_SUCCESS ||
        cuDeviceGetUuid(&u, dev) != CUDA_SUCCESS) {
      printf("driver device %d: not described\n", d);
      continue;
    }
    uuid_text(reinterpret_cast<const unsigned char *>(u.bytes), uuid);
    printf("driver device %d: %s\n", d, uuid);
  }
}

int main(void) {
  if (runtime_view())
    return 1;
  driver_view();
  return 0;
}
