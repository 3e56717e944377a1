// nvrtc_dialect.cu: NVRTC's -std compiles in the dialect it names, as
// cuemu-nvcc's -std does (docs/dialects.md): a kernel reports __cplusplus
// under -std=c++14 (201402, as NVRTC 13 gives) and -std=c++17 (201703);
// a C++17-only kernel (a template parameter of type auto) is a
// compilation error under -std=c++14 and compiles under -std=c++17;
// -std=c++11 compiles (as C++14 in cuemu, with a note in the log; NVRTC
// compiles it as C++11). Prints PASS.
// CUEMU_OPTIONS: -lnvrtc -lcuda
// NVCC_OPTIONS: -lnvrtc -lcuda
#include <cuda.h>
#include <nvrtc.h>

#include <cstdio>
#include <string>
#include <vector>

namespace {

int failures = 0;

void check(bool ok, const char *what) {
  if (!ok) {
    std::printf("FAIL: %s\n", what);
    ++failures;
  }
}

const char *dialect_source = R"(
extern "C" __global__ void dialect(long *out) { *out = __cplusplus; }
)";

const char *cxx17_source = R"(
template <auto V> struct constant { static constexpr auto value = V; };
extern "C" __global__ void seventeen(int *out) { *out = constant<17>::value; }
)";

// Compiles `source` with -std=`dialect`; the image, empty when it did not
// compile; `log` gets the log.
std::vector<char> compile(const char *source, const char *dialect,
                          std::string *log) {
  nvrtcProgram prog;
  std::vector<char> image;
  if (nvrtcCreateProgram(&prog, source, "dialect.cu", 0, nullptr, nullptr) !=
      NVRTC_SUCCESS)
    return image;
  const std::string std_option = std::string("-std=") + dialect;
  const char *options[] = {"-arch=compute_90", std_option.c_str()};
  const nvrtcResult r = nvrtcCompileProgram(prog, 2, options);
  size_t size = 0;
  nvrtcGetProgramLogSize(prog, &size);
  log->assign(size, '\0');
  nvrtcGetProgramLog(prog, &(*log)[0]);
  if (r == NVRTC_SUCCESS && nvrtcGetPTXSize(prog, &size) == NVRTC_SUCCESS) {
    image.resize(size);
    nvrtcGetPTX(prog, image.data());
  }
  nvrtcDestroyProgram(&prog);
  return image;
}

// Runs the module's kernel `name`, which writes one value of type T.
template <typename T> T run(const std::vector<char> &image, const char *name) {
  CUmodule mod;
  CUfunction f;
  CUdeviceptr out;
  T value = 0;
  if (cuModuleLoadData(&mod, image.data()) != CUDA_SUCCESS)
    return value;
  if (cuModuleGetFunction(&f, mod, name) == CUDA_SUCCESS &&
      cuMemAlloc(&out, sizeof value) == CUDA_SUCCESS) {
    void *args[] = {&out};
    if (cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, nullptr, args, nullptr) ==
        CUDA_SUCCESS)
      cuMemcpyDtoH(&value, out, sizeof value);
    cuMemFree(out);
  }
  cuModuleUnload(mod);
  return value;
}

} // namespace

int main() {
  CUdevice dev;
  CUcontext ctx;
  if (cuInit(0) != CUDA_SUCCESS || cuDeviceGet(&dev, 0) != CUDA_SUCCESS ||
      cuDevicePrimaryCtxRetain(&ctx, dev) != CUDA_SUCCESS ||
      cuCtxSetCurrent(ctx) != CUDA_SUCCESS)
    return 1;
  std::string log;
  std::vector<char> image = compile(dialect_source, "c++14", &log);
  check(!image.empty(), "-std=c++14 compiles");
  const long cxx14 = image.empty() ? 0 : run<long>(image, "dialect");
  check(cxx14 == 201402L, "__cplusplus is 201402 under -std=c++14");
  image = compile(dialect_source, "c++17", &log);
  const long cxx17 = image.empty() ? 0 : run<long>(image, "dialect");
  check(cxx17 == 201703L, "__cplusplus is 201703 under -std=c++17");
  image = compile(dialect_source, "c++11", &log);
  check(!image.empty(), "-std=c++11 compiles");
  image = compile(cxx17_source, "c++14", &log);
  check(image.empty(), "C++17-only code is an error under -std=c++14");
  check(log.find("dialect.cu") != std::string::npos,
        "the error names the program's file");
  image = compile(cxx17_source, "c++17", &log);
  check(!image.empty() && run<int>(image, "seventeen") == 17,
        "C++17-only code runs under -std=c++17");
  std::printf("__cplusplus: %ld under c++14, %ld under c++17\n", cxx14, cxx17);
  cuDevicePrimaryCtxRelease(dev);
  if (failures == 0)
    std::printf("PASS\n");
  return failures;
}
