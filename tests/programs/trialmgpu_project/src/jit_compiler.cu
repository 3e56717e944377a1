// NVCC_OPTIONS: -I../common -Xcompiler -fopenmp
// jit_compiler.cu - a small jitify-like runtime compiler: kernels are CUDA
// source strings with headers supplied in memory, templates are instantiated
// by name expression, the compiled image is cached on disk (keyed by a hash
// of source + options) and reloaded on the next run. A deliberately broken
// kernel shows the compile log.
#define MGPU_USE_DRIVER
#define MGPU_USE_NVRTC
#include <sys/stat.h>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>
#include <unistd.h>
#include "mgpu_check.h"

namespace jit {

static const char *kVecHeader = R"(
#pragma once
namespace jk {
template <typename T> struct vec2 { T x, y; };
template <typename T> __device__ inline T dot(vec2<T> a, vec2<T> b) { return a.x * b.x + a.y * b.y; }
}
)";

static const char *kConfigHeader = R"(
#pragma once
#include "vec.cuh"
#ifndef JK_SCALE
#define JK_SCALE 1
#endif
constexpr int kScale = JK_SCALE;
)";

static const char *kSource = R"(
#include "config.cuh"
#include <extra/offset.cuh>

// -default-device: helpers without __device__ are device functions.
template <typename T> T square(T v) { return v * v; }

template <typename T, int Unroll>
__global__ void dots(const jk::vec2<T> *a, const jk::vec2<T> *b, T *out, int n) {
  int base = (blockIdx.x * blockDim.x + threadIdx.x) * Unroll;
#pragma unroll
  for (int u = 0; u < Unroll; ++u) {
    int i = base + u;
    if (i < n) out[i] = kScale * jk::dot(a[i], b[i]) + square(T(kOffset));
  }
}

namespace ops {
template <typename T> __global__ void axpy(T alpha, const T *x, T *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = alpha * x[i] + y[i];
}
}
)";

static const char *kBroken = R"(
__global__ void broken(float *x) {
  x[threadIdx.x] = undeclared_thing + 1.0f;
}
)";

static std::string hash_hex(const std::string &s) {
  unsigned long long h = 1469598103934665603ull;  // FNV-1a
  for (unsigned char c : s) { h ^= c; h *= 1099511628211ull; }
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", h);
  return buf;
}

struct Program {
  std::string image;                            // PTX or CUBIN
  std::map<std::string, std::string> lowered;   // name expression -> mangled name
  bool from_cache = false;
};

class Compiler {
 public:
  explicit Compiler(std::string cache_dir) : cache_(std::move(cache_dir)) { mkdir(cache_.c_str(), 0755); }

  // Compiles source with in-memory headers; returns false and fills log on error.
  bool compile(const std::string &name, const std::string &src, const std::vector<std::string> &exprs,
               const std::vector<std::string> &opts, bool cubin, Program &out, std::string &log) {
    std::string key = src;
    for (auto &o : opts) key += "\n" + o;
    for (auto &e : exprs) key += "\n" + e;
    key += cubin ? "cubin" : "ptx";
    std::string path = cache_ + "/" + name + "-" + hash_hex(key) + (cubin ? ".cubin" : ".ptx");
    if (load_cache(path, exprs, out)) return true;

    const char *hdr_src[] = {kVecHeader, kConfigHeader};
    const char *hdr_names[] = {"vec.cuh", "config.cuh"};
    nvrtcProgram prog;
    NVRTC_CHECK(nvrtcCreateProgram(&prog, src.c_str(), (name + ".cu").c_str(), 2, hdr_src, hdr_names));
    for (auto &e : exprs) NVRTC_CHECK(nvrtcAddNameExpression(prog, e.c_str()));
    std::vector<const char *> copts;
    for (auto &o : opts) copts.push_back(o.c_str());
    nvrtcResult r = nvrtcCompileProgram(prog, (int)copts.size(), copts.data());
    size_t log_size = 0;
    NVRTC_CHECK(nvrtcGetProgramLogSize(prog, &log_size));
    log.assign(log_size, '\0');
    NVRTC_CHECK(nvrtcGetProgramLog(prog, &log[0]));
    if (r != NVRTC_SUCCESS) {
      nvrtcDestroyProgram(&prog);
      return false;
    }
    size_t n = 0;
    if (cubin) {
      NVRTC_CHECK(nvrtcGetCUBINSize(prog, &n));
      out.image.resize(n);
      NVRTC_CHECK(nvrtcGetCUBIN(prog, &out.image[0]));
    } else {
      NVRTC_CHECK(nvrtcGetPTXSize(prog, &n));
      out.image.resize(n);
      NVRTC_CHECK(nvrtcGetPTX(prog, &out.image[0]));
    }
    for (auto &e : exprs) {
      const char *low = nullptr;
      NVRTC_CHECK(nvrtcGetLoweredName(prog, e.c_str(), &low));
      out.lowered[e] = low;
    }
    NVRTC_CHECK(nvrtcDestroyProgram(&prog));
    store_cache(path, out);
    return true;
  }

 private:
  // Cache format: a line count of lowered names, "expr\tlowered" lines, then the image.
  bool load_cache(const std::string &path, const std::vector<std::string> &exprs, Program &out) {
    std::ifstream f(path, std::ios::binary);
    if (!f) return false;
    size_t count = 0;
    f >> count;
    f.ignore(1);
    for (size_t i = 0; i < count; ++i) {
      std::string line;
      std::getline(f, line);
      auto tab = line.find('\t');
      out.lowered[line.substr(0, tab)] = line.substr(tab + 1);
    }
    std::stringstream ss;
    ss << f.rdbuf();
    out.image = ss.str();
    out.from_cache = out.lowered.size() == exprs.size() && !out.image.empty();
    return out.from_cache;
  }
  void store_cache(const std::string &path, const Program &p) {
    std::string tmp = path + ".tmp" + std::to_string(getpid());
    {
      std::ofstream f(tmp, std::ios::binary);
      f << p.lowered.size() << "\n";
      for (auto &kv : p.lowered) f << kv.first << "\t" << kv.second << "\n";
      f.write(p.image.data(), p.image.size());
    }
    std::rename(tmp.c_str(), path.c_str());
  }
  std::string cache_;
};

}  // namespace jit

int main(int argc, char **argv) {
  std::string cache = argc > 1 ? argv[1] : "jit-cache";
  CU_CHECK(cuInit(0));
  CUdevice dev;
  CU_CHECK(cuDeviceGet(&dev, 0));
  CUcontext ctx;
  CU_CHECK(cuDevicePrimaryCtxRetain(&ctx, dev));
  CU_CHECK(cuCtxSetCurrent(ctx));
  int major = 0, minor = 0;
  CU_CHECK(cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev));
  CU_CHECK(cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev));
  std::string arch = "--gpu-architecture=sm_" + std::to_string(major * 10 + minor);
  std::string varch = "--gpu-architecture=compute_" + std::to_string(major * 10 + minor);

  jit::Compiler compiler(cache);
  bool ok = true;
  int cached = 0;

  // 1. The broken kernel: its log must name the undeclared identifier.
  {
    jit::Program p;
    std::string log;
    bool built = compiler.compile("broken", jit::kBroken, {}, {varch}, false, p, log);
    bool mentions = log.find("undeclared_thing") != std::string::npos;
    std::printf("broken kernel: %s, log %s the identifier\n", built ? "compiled?!" : "rejected",
                mentions ? "names" : "does not name");
    if (!log.empty()) std::printf("---- log ----\n%s-------------\n", log.c_str());
    ok = ok && !built && mentions;
  }

  // 2. Templates by name expression, headers from memory and from -I.
  char tmpl[] = "/tmp/jitinc-XXXXXX";
  std::string incdir = mkdtemp(tmpl);
  mkdir((incdir + "/extra").c_str(), 0755);
  { std::ofstream(incdir + "/extra/offset.cuh") << "#pragma once\nconstexpr int kOffset = 3;\n"; }
  const std::vector<std::string> exprs = {"dots<float, 4>", "dots<double, 1>", "&ops::axpy<float>"};
  for (int pass = 0; pass < 2; ++pass) {
    for (bool cubin : {false, true}) {
      jit::Program p;
      std::string log;
      std::vector<std::string> opts = {cubin ? arch : varch, "--std=c++17", "-default-device", "-lineinfo",
                                       "-DJK_SCALE=2", "-I" + incdir};
      if (!compiler.compile("dots", jit::kSource, exprs, opts, cubin, p, log)) {
        std::printf("compile failed:\n%s\n", log.c_str());
        return 1;
      }
      cached += p.from_cache;
      CUmodule mod;
      CU_CHECK(cuModuleLoadData(&mod, p.image.data()));
      CUfunction f4, f1, fa;
      CU_CHECK(cuModuleGetFunction(&f4, mod, p.lowered.at("dots<float, 4>").c_str()));
      CU_CHECK(cuModuleGetFunction(&f1, mod, p.lowered.at("dots<double, 1>").c_str()));
      CU_CHECK(cuModuleGetFunction(&fa, mod, p.lowered.at("&ops::axpy<float>").c_str()));

      const int n = 1000;
      std::vector<float> af(2 * n), bf(2 * n), outf(n);
      std::vector<double> ad(2 * n), bd(2 * n), outd(n);
      for (int i = 0; i < 2 * n; ++i) {
        af[i] = ad[i] = (i % 13) * 0.25;
        bf[i] = bd[i] = (i % 7) - 3;
      }
      CUdeviceptr da, db, dout, dad, dbd, doutd;
      CU_CHECK(cuMemAlloc(&da, af.size() * 4));
      CU_CHECK(cuMemAlloc(&db, bf.size() * 4));
      CU_CHECK(cuMemAlloc(&dout, n * 4));
      CU_CHECK(cuMemAlloc(&dad, ad.size() * 8));
      CU_CHECK(cuMemAlloc(&dbd, bd.size() * 8));
      CU_CHECK(cuMemAlloc(&doutd, n * 8));
      CU_CHECK(cuMemcpyHtoD(da, af.data(), af.size() * 4));
      CU_CHECK(cuMemcpyHtoD(db, bf.data(), bf.size() * 4));
      CU_CHECK(cuMemcpyHtoD(dad, ad.data(), ad.size() * 8));
      CU_CHECK(cuMemcpyHtoD(dbd, bd.data(), bd.size() * 8));
      int nn = n;
      void *args4[] = {&da, &db, &dout, &nn};
      CU_CHECK(cuLaunchKernel(f4, (n / 4 + 127) / 128, 1, 1, 128, 1, 1, 0, 0, args4, nullptr));
      void *args1[] = {&dad, &dbd, &doutd, &nn};
      CU_CHECK(cuLaunchKernel(f1, (n + 127) / 128, 1, 1, 128, 1, 1, 0, 0, args1, nullptr));
      // axpy with the extra-parameter buffer form.
      float alpha = 0.5f;
      struct { float alpha; int pad; CUdeviceptr x, y; int n; } buf = {alpha, 0, dout, dout, n};
      size_t bufsize = sizeof buf;
      void *extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, &buf, CU_LAUNCH_PARAM_BUFFER_SIZE, &bufsize,
                       CU_LAUNCH_PARAM_END};
      CU_CHECK(cuLaunchKernel(fa, (n + 127) / 128, 1, 1, 128, 1, 1, 0, 0, nullptr, extra));
      CU_CHECK(cuCtxSynchronize());
      CU_CHECK(cuMemcpyDtoH(outf.data(), dout, n * 4));
      CU_CHECK(cuMemcpyDtoH(outd.data(), doutd, n * 8));
      int bad = 0;
      for (int i = 0; i < n; ++i) {
        double want = 2 * (ad[2 * i] * bd[2 * i] + ad[2 * i + 1] * bd[2 * i + 1]) + 9;
        // Array-of-vec2 layout: element i is (a[2i], a[2i+1]).
        if (std::fabs(outf[i] - 1.5 * want) > 1e-4 || std::fabs(outd[i] - want) > 1e-12) {
          if (bad++ < 3) std::printf("[%d] float %g double %g want %g\n", i, outf[i], outd[i], want);
        }
      }
      std::printf("pass %d %s: %s, %d mismatches\n", pass, cubin ? "cubin" : "ptx",
                  p.from_cache ? "from cache" : "compiled", bad);
      ok = ok && bad == 0;
      for (CUdeviceptr d : {da, db, dout, dad, dbd, doutd}) CU_CHECK(cuMemFree(d));
      CU_CHECK(cuModuleUnload(mod));
    }
  }
  std::printf("cache hits: %d (want 2)\n", cached);
  ok = ok && cached == 2;
  CU_CHECK(cuDevicePrimaryCtxRelease(dev));
  return mgpu_report(ok, "jit_compiler");
}
