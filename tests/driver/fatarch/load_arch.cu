// load_arch.cu: loads the module file argv[1] with cuModuleLoad and the
// same bytes with cuModuleLoadData, launches report_arch from each, and
// prints the __CUDA_ARCH__ that ran ("arch 800 800") and the result of the
// loads ("CUDA_SUCCESS", or the error's name); as a GPU's driver picks
// the image of a fat binary that the device runs (tests/drvapi_fat_arch.sh).
#include <cuda.h>

#include <cstdio>
#include <vector>

static int run(CUmodule module) {
  CUfunction f;
  CUdeviceptr out;
  if (cuModuleGetFunction(&f, module, "report_arch") != CUDA_SUCCESS ||
      cuMemAlloc(&out, 2 * sizeof(int)) != CUDA_SUCCESS)
    return -2;
  void *args[] = {&out};
  int host[2] = {0, 0};
  if (cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, nullptr, args, nullptr) !=
          CUDA_SUCCESS ||
      cuMemcpyDtoH(host, out, sizeof host) != CUDA_SUCCESS)
    return -3;
  cuMemFree(out);
  return host[1] == 1 ? host[0] : -4;
}

int main(int argc, char **argv) {
  if (argc != 2)
    return 2;
  CUdevice device;
  CUcontext context;
  if (cuInit(0) != CUDA_SUCCESS || cuDeviceGet(&device, 0) != CUDA_SUCCESS ||
      cuCtxCreate(&context, nullptr, 0, device) != CUDA_SUCCESS)
    return 1;
  CUmodule from_file, from_data;
  CUresult e = cuModuleLoad(&from_file, argv[1]);
  if (e != CUDA_SUCCESS) {
    const char *name = "?";
    cuGetErrorName(e, &name);
    printf("%s\n", name);
    return 0;
  }
  std::vector<char> bytes;
  FILE *f = fopen(argv[1], "rb");
  for (int c; f && (c = fgetc(f)) != EOF;)
    bytes.push_back(static_cast<char>(c));
  if (f)
    fclose(f);
  if (cuModuleLoadData(&from_data, bytes.data()) != CUDA_SUCCESS)
    return 3;
  printf("CUDA_SUCCESS arch %d %d\n", run(from_file), run(from_data));
  cuModuleUnload(from_file);
  cuModuleUnload(from_data);
  cuCtxDestroy(context);
  return 0;
}
