// nvrtc_calls.cu: a program that compiles a kernel with NVRTC (a program,
// a name expression, the compile, its log and its PTX), which links only
// with NVRTC's library (-lnvrtc), as with nvcc
// (tests/driver_libcuda_link.sh).
#include <nvrtc.h>
#include <cstdio>
#include <cstring>
#include <vector>

#define CHECK(call)                                                            \
  do {                                                                         \
    nvrtcResult r_ = (call);                                                   \
    if (r_ != NVRTC_SUCCESS) {                                                 \
      std::printf("FAIL: %s: %s\n", #call, nvrtcGetErrorString(r_));         \
      return 1;                                                                \
    }                                                                          \
  } while (0)

static const char *const source =
    "template <typename T>\n"
    "__global__ void scale(T *out, T factor) {\n"
    "  out[threadIdx.x] *= factor;\n"
    "}\n";

int main() {
  nvrtcProgram program;
  CHECK(nvrtcCreateProgram(&program, source, "scale.cu", 0, nullptr,
                           nullptr));
  CHECK(nvrtcAddNameExpression(program, "scale<float>"));
  const char *options[] = {"-arch=compute_90"};
  CHECK(nvrtcCompileProgram(program, 1, options));
  size_t log_size = 0, ptx_size = 0;
  CHECK(nvrtcGetProgramLogSize(program, &log_size));
  CHECK(nvrtcGetPTXSize(program, &ptx_size));
  std::vector<char> ptx(ptx_size);
  CHECK(nvrtcGetPTX(program, ptx.data()));
  const char *lowered = nullptr;
  CHECK(nvrtcGetLoweredName(program, "scale<float>", &lowered));
  if (log_size < 1 || ptx_size < 2 || !lowered ||
      std::strcmp(lowered, "_Z5scaleIfEvPT_S0_") != 0) {
    std::printf("FAIL: log %zu, PTX %zu bytes, lowered name %s\n", log_size,
                ptx_size, lowered ? lowered : "(none)");
    return 1;
  }
  CHECK(nvrtcDestroyProgram(&program));
  std::printf("PASS\n");
  return 0;
}
