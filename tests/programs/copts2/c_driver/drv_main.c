/* drv_main.c: a C program of the driver API, as matrixMulDrv-style C
 * programs are: it loads a module file (a -fatbin or -ptx of kernels.cu,
 * named on the command line) with cuModuleLoadData, sets a __constant__
 * through cuModuleGetGlobal, launches with kernelParams and with
 * CU_LAUNCH_PARAM_BUFFER_POINTER, copies with cuMemcpyHtoD, DtoH, DtoD
 * and their Async forms on a stream, allocates through a function that
 * cuGetProcAddress gives (cudaTypedefs.h's PFN type), and checks every
 * result. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda.h>
#include <cudaTypedefs.h>

#define N 1000
#define THREADS 128

#define CHECK(call)                                                            \
  do {                                                                         \
    CUresult r_ = (call);                                                      \
    if (r_ != CUDA_SUCCESS) {                                                  \
      const char *name_ = NULL;                                                \
      cuGetErrorName(r_, &name_);                                              \
      printf("%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,              \
             name_ ? name_ : "?");                                             \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

static void *read_file(const char *path) {
  FILE *f = fopen(path, "rb");
  long size;
  char *data;
  if (!f || fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) <= 0) {
    printf("cannot read %s\n", path);
    exit(1);
  }
  rewind(f);
  data = malloc((size_t)size + 1);
  if (!data || fread(data, 1, (size_t)size, f) != (size_t)size) {
    printf("cannot read %s\n", path);
    exit(1);
  }
  data[size] = 0;
  fclose(f);
  return data;
}

int main(int argc, char **argv) {
  CUdevice dev;
  CUcontext ctx;
  CUmodule module;
  CUfunction saxpy, block_sums;
  CUstream stream;
  CUdeviceptr d_x, d_y, d_y2, d_sums, d_scale, d_done;
  size_t scale_size = 0;
  float x[N], y[N], out[N], sums[(N + THREADS - 1) / THREADS];
  float scale = 0.5f, a = 3.0f;
  int n = N, count = 0, major = 0, errors = 0, i;
  unsigned int grid = (N + THREADS - 1) / THREADS, done = 0;
  char name[256];
  void *image;
  PFN_cuMemAlloc_v3020 mem_alloc = NULL;
  CUdriverProcAddressQueryResult found = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;

  if (argc < 2) {
    printf("usage: %s MODULE\n", argv[0]);
    return 2;
  }
  CHECK(cuInit(0));
  CHECK(cuDeviceGetCount(&count));
  CHECK(cuDeviceGet(&dev, 0));
  CHECK(cuDeviceGetName(name, sizeof name, dev));
  CHECK(cuDeviceGetAttribute(&major,
                             CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev));
  if (count < 1 || major < 7 || name[0] == 0) {
    printf("bad device: %d devices, major %d\n", count, major);
    return 1;
  }
  CHECK(cuCtxCreate(&ctx, NULL, 0, dev));
  image = read_file(argv[1]);
  CHECK(cuModuleLoadData(&module, image));
  free(image);
  CHECK(cuModuleGetFunction(&saxpy, module, "saxpy"));
  CHECK(cuModuleGetFunction(&block_sums, module, "block_sums"));
  CHECK(cuModuleGetGlobal(&d_scale, &scale_size, module, "scale"));
  CHECK(cuModuleGetGlobal(&d_done, NULL, module, "blocks_done"));
  if (scale_size != sizeof(float)) {
    printf("scale has %zu bytes\n", scale_size);
    return 1;
  }
  CHECK(cuMemcpyHtoD(d_scale, &scale, sizeof scale));

  for (i = 0; i < N; ++i) {
    x[i] = (float)i;
    y[i] = (float)(N - i);
  }
  CHECK(cuMemAlloc(&d_x, sizeof x));
  CHECK(cuMemAlloc(&d_y, sizeof y));
  CHECK(cuMemAlloc(&d_y2, sizeof y));
  CHECK(cuGetProcAddress("cuMemAlloc", (void **)&mem_alloc, 12000,
                         CU_GET_PROC_ADDRESS_DEFAULT, &found));
  if (!mem_alloc || found != CU_GET_PROC_ADDRESS_SUCCESS) {
    printf("cuGetProcAddress found no cuMemAlloc\n");
    return 1;
  }
  CHECK(mem_alloc(&d_sums, sizeof sums));
  CHECK(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  CHECK(cuMemcpyHtoDAsync(d_x, x, sizeof x, stream));
  CHECK(cuMemcpyHtoDAsync(d_y, y, sizeof y, stream));
  {
    void *args[] = {&n, &a, &d_x, &d_y};
    CHECK(cuLaunchKernel(saxpy, grid, 1, 1, THREADS, 1, 1, 0, stream, args,
                         NULL));
  }
  CHECK(cuMemcpyDtoDAsync(d_y2, d_y, sizeof y, stream));
  CHECK(cuMemcpyDtoHAsync(out, d_y2, sizeof out, stream));
  CHECK(cuStreamSynchronize(stream));
  for (i = 0; i < N; ++i)
    if (out[i] != a * scale * x[i] + y[i] && errors++ < 5)
      printf("y[%d] = %g, expected %g\n", i, out[i], a * scale * x[i] + y[i]);
  CHECK(cuMemcpyDtoH(&done, d_done, sizeof done));
  if (done != grid) {
    printf("blocks_done = %u, expected %u\n", done, grid);
    ++errors;
  }

  /* The same arguments packed in one buffer, as CUDA's samples pack them. */
  {
    struct {
      CUdeviceptr x, sums;
      int n;
    } packed;
    size_t size = sizeof packed;
    void *config[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, &packed,
                      CU_LAUNCH_PARAM_BUFFER_SIZE, &size, CU_LAUNCH_PARAM_END};
    packed.x = d_x;
    packed.sums = d_sums;
    packed.n = N;
    CHECK(cuLaunchKernel(block_sums, grid, 1, 1, THREADS, 1, 1,
                         THREADS * sizeof(float), NULL, NULL, config));
    CHECK(cuCtxSynchronize());
  }
  CHECK(cuMemcpyDtoH(sums, d_sums, sizeof sums));
  for (i = 0; i < (int)grid; ++i) {
    int first = i * THREADS, last = first + THREADS < N ? first + THREADS : N;
    float expect = (float)((long)(first + last - 1) * (last - first) / 2);
    if (sums[i] != expect && errors++ < 5)
      printf("sums[%d] = %g, expected %g\n", i, sums[i], expect);
  }

  CHECK(cuStreamDestroy(stream));
  CHECK(cuMemFree(d_x));
  CHECK(cuMemFree(d_y));
  CHECK(cuMemFree(d_y2));
  CHECK(cuMemFree(d_sums));
  CHECK(cuModuleUnload(module));
  CHECK(cuCtxDestroy(ctx));
  printf("%s\n", errors ? "FAIL" : "PASS");
  return errors ? 1 : 0;
}
