// ptx_variable_scan.cu: a program that finds a run-time-compiled kernel's
// __device__ and __constant__ variables by reading the PTX, as jitify's
// get_constant_ptr does: it scans nvrtcGetPTX's text for ".global .align"
// and ".const .align" declarations, demangles each nested name
// (_ZN1b1aE -> b::a) and asks cuModuleGetGlobal for the symbol. cuemu's
// text form once held the module's bytes only, and no variable was found.
// CUEMU_OPTIONS: -lnvrtc -lcuda
// NVCC_OPTIONS: -lnvrtc -lcuda
#include <cuda.h>
#include <nvrtc.h>

#include <cctype>
#include <map>
#include <string>
#include <vector>

#include "../check.cuh"
#include "primary_context.cuh"

static const char *kSource = R"(
__constant__ int a;
namespace b { __constant__ int a; }
namespace c { namespace b { __constant__ int a; } }
namespace { namespace q { __constant__ int a[3]; } }
__device__ float scale;
static __device__ int launches;
__device__ int counter(int x) { static __device__ int calls; return x + calls; }
extern "C" __global__ void gather(int *out) {
  __shared__ int tile[4];
  tile[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[0] = a; out[1] = b::a; out[2] = c::b::a;
  out[3] = q::a[0] + q::a[1] + q::a[2];
  out[4] = (int)(scale * 10.0f) + tile[3] - 3;
  if (threadIdx.x == 0) launches += 1;
}
)";

// PTX's mangled nested names (the Itanium ABI) back to C++ names; the
// name itself for one not mangled, "" for other mangled names.
static std::string demangle(const std::string &name) {
  if (name.compare(0, 2, "_Z") != 0)
    return name;
  // _ZL: a name of internal linkage (static) in the global namespace.
  if (name.size() < 3 || (name[2] != 'N' && name[2] != 'L'))
    return "";
  std::string out;
  size_t i = 3;
  while (i < name.size() && name[i] != 'E') {
    size_t n = 0;
    while (i < name.size() && std::isdigit((unsigned char)name[i]))
      n = n * 10 + (name[i++] - '0');
    if (n == 0 || i + n > name.size())
      return "";
    std::string id = name.substr(i, n);
    i += n;
    if (!out.empty())
      out += "::";
    out += id.compare(0, 7, "_GLOBAL") == 0 ? "(anonymous namespace)" : id;
  }
  return out;
}

// Every variable that the PTX declares, by its C++ name.
static std::map<std::string, std::string> variables(const std::string &ptx) {
  std::map<std::string, std::string> found;
  for (const char *kind : {".global .align", ".const .align"}) {
    for (size_t at = ptx.find(kind); at != std::string::npos;
         at = ptx.find(kind, at + 1)) {
      size_t end = ptx.find_first_of(";=", at);
      std::string decl = ptx.substr(at, end - at);
      while (!decl.empty() && decl.back() == ' ')
        decl.pop_back();
      size_t start = decl.find_last_of(' ') + 1;
      std::string symbol = decl.substr(start, decl.find('[', start) - start);
      std::string key = demangle(symbol);
      if (!key.empty())
        found[key] = symbol;
    }
  }
  return found;
}

int main() {
  nvrtcProgram prog;
  CHECK(nvrtcCreateProgram(&prog, kSource, "scan.cu", 0, nullptr, nullptr) ==
        NVRTC_SUCCESS);
  const char *opts[] = {"-arch=compute_90"};
  CHECK(nvrtcCompileProgram(prog, 1, opts) == NVRTC_SUCCESS);
  size_t size = 0;
  CHECK(nvrtcGetPTXSize(prog, &size) == NVRTC_SUCCESS);
  std::string ptx(size, '\0');
  CHECK(nvrtcGetPTX(prog, &ptx[0]) == NVRTC_SUCCESS);
  nvrtcDestroyProgram(&prog);

  std::map<std::string, std::string> vars = variables(ptx);
  const char *expected[] = {"a", "b::a", "c::b::a",
                            "(anonymous namespace)::q::a", "scale",
                            "launches"};
  for (const char *name : expected)
    CHECK(vars.count(name) == 1);
  // Only the program's own variables: a __shared__ array is no global,
  // and a function's static variable has a name the scan skips.
  CHECK(vars.count("tile") == 0);
  for (auto &v : vars)
    CHECK(v.first.find("cuemu") == std::string::npos);

  CUdevice dev = use_primary_context();
  CUmodule mod;
  CHECK(cuModuleLoadData(&mod, ptx.c_str()) == CUDA_SUCCESS);
  CUfunction fn;
  CHECK(cuModuleGetFunction(&fn, mod, "gather") == CUDA_SUCCESS);

  const int ints[] = {2, 4, 8};
  const int three[] = {10, 20, 30};
  const float scale = 1.5f;
  const int launches = 41;
  const void *values[] = {&ints[0], &ints[1], &ints[2], three, &scale,
                          &launches};
  const size_t sizes[] = {4, 4, 4, 12, 4, 4};
  for (int i = 0; i < 6; ++i) {
    if (!vars.count(expected[i]))
      continue;
    CUdeviceptr p = 0;
    size_t bytes = 0;
    CHECK(cuModuleGetGlobal(&p, &bytes, mod, vars[expected[i]].c_str()) ==
          CUDA_SUCCESS);
    CHECK(bytes == sizes[i]);
    CHECK(cuMemcpyHtoD(p, values[i], sizes[i]) == CUDA_SUCCESS);
  }
  CUdeviceptr out;
  CHECK(cuMemAlloc(&out, 5 * sizeof(int)) == CUDA_SUCCESS);
  void *args[] = {&out};
  CHECK(cuLaunchKernel(fn, 1, 1, 1, 4, 1, 1, 0, nullptr, args, nullptr) ==
        CUDA_SUCCESS);
  int host[5] = {0, 0, 0, 0, 0};
  CHECK(cuMemcpyDtoH(host, out, sizeof host) == CUDA_SUCCESS);
  CHECK(host[0] == 2 && host[1] == 4 && host[2] == 8);
  CHECK(host[3] == 60);
  CHECK(host[4] == 15);
  // The static variable, which the kernel counted its launch in.
  CUdeviceptr count_at = 0;
  int count = 0;
  CHECK(cuModuleGetGlobal(&count_at, nullptr, mod, "_ZL8launches") ==
        CUDA_SUCCESS);
  CHECK(count_at &&
        cuMemcpyDtoH(&count, count_at, sizeof count) == CUDA_SUCCESS);
  CHECK(count == 42);
  cuMemFree(out);
  cuModuleUnload(mod);
  cuDevicePrimaryCtxRelease(dev);
  return finish();
}
