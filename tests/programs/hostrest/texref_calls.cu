/*
 * texref_calls.cu: the driver's deprecated texture and surface reference
 * calls compile and give CUDA's statuses: a reference made by
 * cuTexRefCreate gives back what is set on it (its array or linear
 * memory, format, address modes, filtering, mipmap settings, anisotropy,
 * border colour, flags) and refuses bad arguments
 * (CUDA_ERROR_INVALID_VALUE); no module holds a texture or surface
 * reference since CUDA 12 (cuModuleGetTexRef and cuModuleGetSurfRef:
 * CUDA_ERROR_NOT_FOUND; the module here is NVRTC's). Prints PASS when
 * all is well.
 */
// CUEMU_OPTIONS: -lcuda -lnvrtc
// NVCC_OPTIONS: -lcuda -lnvrtc -Wno-deprecated-declarations
#include <cuda.h>
#include <nvrtc.h>

#include "../check.cuh"

#define CU(call) CHECK((call) == CUDA_SUCCESS)

static const char *kSource = "extern \"C\" __global__ void nothing() {}\n";

int main() {
  CUtexref ref = nullptr;
  CHECK(cuTexRefCreate(&ref) == CUDA_ERROR_NOT_INITIALIZED);
  CU(cuInit(0));
  CUdevice dev;
  CU(cuDeviceGet(&dev, 0));
  CUcontext ctx;
  CU(cuDevicePrimaryCtxRetain(&ctx, dev));
  CU(cuCtxSetCurrent(ctx));
  CHECK(cuTexRefCreate(nullptr) == CUDA_ERROR_INVALID_VALUE);
  CU(cuTexRefCreate(&ref));

  // Linear memory, then an array.
  CUdeviceptr mem;
  CU(cuMemAlloc(&mem, 4096));
  size_t offset = 99;
  CU(cuTexRefSetAddress(&offset, ref, mem, 4096));
  CHECK(offset == 0);
  CUdeviceptr got = 0;
  CU(cuTexRefGetAddress(&got, ref));
  CHECK(got == mem);
  CUarray none = nullptr;
  CHECK(cuTexRefGetArray(&none, ref) == CUDA_ERROR_INVALID_VALUE);
  CUDA_ARRAY_DESCRIPTOR desc = {};
  desc.Width = 16;
  desc.Height = 16;
  desc.Format = CU_AD_FORMAT_UNSIGNED_INT8;
  desc.NumChannels = 4;
  CU(cuTexRefSetAddress2D(ref, &desc, mem, 256));
  CUarray_format format;
  int channels = 0;
  CU(cuTexRefGetFormat(&format, &channels, ref));
  CHECK(format == CU_AD_FORMAT_UNSIGNED_INT8 && channels == 4);
  CUarray array;
  desc.NumChannels = 1;
  CU(cuArrayCreate(&array, &desc));
  CHECK(cuTexRefSetArray(ref, array, 0) == CUDA_ERROR_INVALID_VALUE);
  CU(cuTexRefSetArray(ref, array, CU_TRSA_OVERRIDE_FORMAT));
  CUarray bound = nullptr;
  CU(cuTexRefGetArray(&bound, ref));
  CHECK(bound == array);
  CHECK(cuTexRefGetAddress(&got, ref) == CUDA_ERROR_INVALID_VALUE);

  // Settings.
  CU(cuTexRefSetFormat(ref, CU_AD_FORMAT_FLOAT, 2));
  CHECK(cuTexRefSetFormat(ref, CU_AD_FORMAT_FLOAT, 3) ==
        CUDA_ERROR_INVALID_VALUE);
  CU(cuTexRefGetFormat(&format, &channels, ref));
  CHECK(format == CU_AD_FORMAT_FLOAT && channels == 2);
  CU(cuTexRefSetAddressMode(ref, 1, CU_TR_ADDRESS_MODE_CLAMP));
  CHECK(cuTexRefSetAddressMode(ref, 3, CU_TR_ADDRESS_MODE_CLAMP) ==
        CUDA_ERROR_INVALID_VALUE);
  CUaddress_mode am;
  CU(cuTexRefGetAddressMode(&am, ref, 1));
  CHECK(am == CU_TR_ADDRESS_MODE_CLAMP);
  CU(cuTexRefSetFilterMode(ref, CU_TR_FILTER_MODE_LINEAR));
  CU(cuTexRefSetMipmapFilterMode(ref, CU_TR_FILTER_MODE_LINEAR));
  CUfilter_mode fm, mfm;
  CU(cuTexRefGetFilterMode(&fm, ref));
  CU(cuTexRefGetMipmapFilterMode(&mfm, ref));
  CHECK(fm == CU_TR_FILTER_MODE_LINEAR && mfm == CU_TR_FILTER_MODE_LINEAR);
  CU(cuTexRefSetMipmapLevelBias(ref, 0.5f));
  CU(cuTexRefSetMipmapLevelClamp(ref, 1.0f, 3.0f));
  float bias = 0, lo = 0, hi = 0;
  CU(cuTexRefGetMipmapLevelBias(&bias, ref));
  CU(cuTexRefGetMipmapLevelClamp(&lo, &hi, ref));
  CHECK(bias == 0.5f && lo == 1.0f && hi == 3.0f);
  CU(cuTexRefSetMaxAnisotropy(ref, 8));
  int aniso = 0;
  CU(cuTexRefGetMaxAnisotropy(&aniso, ref));
  CHECK(aniso == 8);
  float border[4] = {1, 2, 3, 4}, border_got[4] = {};
  CU(cuTexRefSetBorderColor(ref, border));
  CU(cuTexRefGetBorderColor(border_got, ref));
  CHECK(border_got[0] == 1 && border_got[3] == 4);
  CU(cuTexRefSetFlags(ref, CU_TRSF_NORMALIZED_COORDINATES));
  unsigned flags = 0;
  CU(cuTexRefGetFlags(&flags, ref));
  CHECK(flags == CU_TRSF_NORMALIZED_COORDINATES);
  nvrtcProgram prog;
  CHECK(nvrtcCreateProgram(&prog, kSource, "nothing.cu", 0, nullptr,
                           nullptr) == NVRTC_SUCCESS);
  const char *opts[] = {"--gpu-architecture=sm_90"};
  CHECK(nvrtcCompileProgram(prog, 1, opts) == NVRTC_SUCCESS);
  size_t size = 0;
  CHECK(nvrtcGetCUBINSize(prog, &size) == NVRTC_SUCCESS);
  char *cubin = new char[size];
  CHECK(nvrtcGetCUBIN(prog, cubin) == NVRTC_SUCCESS);
  CHECK(nvrtcDestroyProgram(&prog) == NVRTC_SUCCESS);
  CUmodule module;
  CU(cuModuleLoadData(&module, cubin));
  delete[] cubin;
  CUfunction f;
  CU(cuModuleGetFunction(&f, module, "nothing"));
  CU(cuParamSetTexRef(f, CU_PARAM_TR_DEFAULT, ref));
  CHECK(cuParamSetTexRef(f, 0, ref) == CUDA_ERROR_INVALID_VALUE);

  // Modules have none; no surface reference exists.
  CUtexref found = nullptr;
  CUsurfref surface = nullptr;
  CHECK(cuModuleGetTexRef(&found, module, "tex") == CUDA_ERROR_NOT_FOUND);
  CHECK(cuModuleGetSurfRef(&surface, module, "surf") == CUDA_ERROR_NOT_FOUND);
  CHECK(cuModuleGetTexRef(nullptr, module, "tex") == CUDA_ERROR_INVALID_VALUE);
  CU(cuTexRefDestroy(ref));
  CHECK(cuTexRefGetFlags(&flags, nullptr) == CUDA_ERROR_INVALID_VALUE);
  CU(cuModuleUnload(module));
  CU(cuArrayDestroy(array));
  CU(cuMemFree(mem));
  CU(cuDevicePrimaryCtxRelease(dev));
  return finish();
}
