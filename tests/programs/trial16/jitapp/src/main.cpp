#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>
#include <cuda_fp16.h>
#include "jit_check.h"
#include "jit_program.h"

static const char *kConfig =
    "#pragma once\n"
    "#ifndef SCALE\n#define SCALE 1.0\n#endif\n"
    "#define BINS 8\n"
    "#define ITEMS 3\n";

struct Args {
  std::string dir = "kernels";
  std::string mode = "cubin";  // cubin | ptx | library
  int n = 3000;
};

static bool parse(int argc, char **argv, Args &a) {
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--dir") && i + 1 < argc) a.dir = argv[++i];
    else if (!strncmp(argv[i], "--mode=", 7)) a.mode = argv[i] + 7;
    else if (!strcmp(argv[i], "-n") && i + 1 < argc) a.n = atoi(argv[++i]);
    else { fprintf(stderr, "unknown argument %s\n", argv[i]); return false; }
  }
  return true;
}

template <typename T, int R>
static std::vector<T> smooth_ref(const std::vector<T> &in, T scale) {
  int n = (int)in.size();
  std::vector<T> out(n);
  for (int i = 0; i < n; ++i) {
    T acc = 0;
    for (int k = -R; k <= R; ++k) {
      int j = std::min(std::max(i + k, 0), n - 1);
      acc += in[j];
    }
    out[i] = acc / T(2 * R + 1) * scale;
  }
  return out;
}

struct Loaded {
  CUmodule mod = nullptr;
  CUlibrary lib = nullptr;
  CUfunction get(const std::string &name) {
    CUfunction f;
    if (lib) {
      CUkernel k;
      CUDA_SAFE_CALL(cuLibraryGetKernel(&k, lib, name.c_str()));
      CUDA_SAFE_CALL(cuKernelGetFunction(&f, k));
    } else {
      CUDA_SAFE_CALL(cuModuleGetFunction(&f, mod, name.c_str()));
    }
    return f;
  }
  CUdeviceptr global(const std::string &name, size_t *size) {
    CUdeviceptr p;
    if (lib)
      CUDA_SAFE_CALL(cuLibraryGetGlobal(&p, size, lib, name.c_str()));
    else
      CUDA_SAFE_CALL(cuModuleGetGlobal(&p, size, mod, name.c_str()));
    return p;
  }
};

int main(int argc, char **argv) {
  Args args;
  if (!parse(argc, argv, args)) return 2;
  int major, minor, numArchs;
  NVRTC_SAFE_CALL(nvrtcVersion(&major, &minor));
  NVRTC_SAFE_CALL(nvrtcGetNumSupportedArchs(&numArchs));
  std::vector<int> archs(numArchs);
  NVRTC_SAFE_CALL(nvrtcGetSupportedArchs(archs.data()));
  bool has90 = false;
  for (int a : archs) has90 |= a == 90;
  printf("NVRTC %d.%d, %d archs, sm_90 %s\n", major, minor, numArchs,
         has90 ? "yes" : "no");

  CUDA_SAFE_CALL(cuInit(0));
  CUdevice dev;
  CUcontext ctx;
  CUDA_SAFE_CALL(cuDeviceGet(&dev, 0));
  CUDA_SAFE_CALL(cuDevicePrimaryCtxRetain(&ctx, dev));
  CUDA_SAFE_CALL(cuCtxPushCurrent(ctx));

  // 1. A broken program first: the log must name the error.
  {
    JitProgram bad("bad.cu", "__global__ void k(int *p) { p[0] = undefined_thing; }\n");
    bool ok = bad.compile({"--gpu-architecture=compute_90"}, false);
    printf("broken program: %s, log has 'undefined_thing': %s\n",
           ok ? "compiled?!" : "refused",
           bad.log().find("undefined_thing") != std::string::npos ? "yes" : "no");
    if (ok) return 1;
  }

  JitProgram prog("ops.cu", read_file(args.dir + "/ops_rtc.cuh"));
  prog.addHeader("config.h", kConfig);
  const char *exprs[] = {"jit::smooth<float, 1>", "jit::smooth<double, 3>",
                         "&jit::to_half<float>", "jit::binned_sum",
                         "&jit::d_total", "jit::c_offsets"};
  for (auto e : exprs) prog.addNameExpression(e);
  bool cubin = args.mode != "ptx";
  std::vector<std::string> opts = {
      cubin ? "-arch=sm_90" : "--gpu-architecture=compute_90",
      "--std=c++17", "-I" + args.dir, "-DSCALE=2.0", "--use_fast_math",
      "-lineinfo", "--include-path=" + args.dir};
  if (!prog.compile(opts, cubin)) {
    printf("compile failed:\n%s\n", prog.log().c_str());
    return 1;
  }
  if (!prog.log().empty()) {
    // A clean compile leaves an empty log, as NVRTC's does.
    printf("unexpected log: %s\n", prog.log().c_str());
    return 1;
  }
  for (auto e : exprs) printf("  %-24s -> %s\n", e, prog.lowered(e).c_str());

  Loaded L;
  if (args.mode == "library") {
    CUDA_SAFE_CALL(cuLibraryLoadData(&L.lib, prog.image().data(), nullptr,
                                     nullptr, 0, nullptr, nullptr, 0));
  } else if (args.mode == "ptx") {
    char err[2048] = "";
    CUjit_option o[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                        CU_JIT_TARGET_FROM_CUCONTEXT};
    void *v[] = {err, (void *)(size_t)sizeof err, nullptr};
    CUresult r = cuModuleLoadDataEx(&L.mod, prog.image().data(), 3, o, v);
    if (r != CUDA_SUCCESS) printf("jit: %s\n", err);
    CUDA_SAFE_CALL(r);
  } else {
    CUDA_SAFE_CALL(cuModuleLoadData(&L.mod, prog.image().data()));
  }

  int n = args.n, fails = 0;
  CUstream s;
  CUDA_SAFE_CALL(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
  // smooth<float,1>
  {
    std::vector<float> h(n);
    for (int i = 0; i < n; ++i) h[i] = (float)((i * 37) % 101);
    CUdeviceptr din, dout;
    CUDA_SAFE_CALL(cuMemAlloc(&din, n * sizeof(float)));
    CUDA_SAFE_CALL(cuMemAlloc(&dout, n * sizeof(float)));
    CUDA_SAFE_CALL(cuMemcpyHtoD(din, h.data(), n * sizeof(float)));
    CUfunction f = L.get(prog.lowered("jit::smooth<float, 1>"));
    void *a[] = {&din, &dout, &n};
    CUDA_SAFE_CALL(cuLaunchKernel(f, (n + 127) / 128, 1, 1, 128, 1, 1, 0, s, a, 0));
    std::vector<float> got(n);
    CUDA_SAFE_CALL(cuMemcpyDtoHAsync(got.data(), dout, n * sizeof(float), s));
    CUDA_SAFE_CALL(cuStreamSynchronize(s));
    auto ref = smooth_ref<float, 1>(h, 2.0f);
    int bad = 0;
    for (int i = 0; i < n; ++i) bad += std::fabs(got[i] - ref[i]) > 1e-3f;
    printf("smooth<float,1>: %s\n", bad ? "FAIL" : "ok");
    fails += bad != 0;

    // to_half<float> on the same input
    CUdeviceptr dh;
    CUDA_SAFE_CALL(cuMemAlloc(&dh, n * sizeof(__half)));
    CUfunction th = L.get(prog.lowered("&jit::to_half<float>"));
    void *b[] = {&din, &dh, &n};
    CUDA_SAFE_CALL(cuLaunchKernel(th, (n + 255) / 256, 1, 1, 256, 1, 1, 0, s, b, 0));
    std::vector<__half> hh(n);
    CUDA_SAFE_CALL(cuMemcpyDtoHAsync(hh.data(), dh, n * sizeof(__half), s));
    CUDA_SAFE_CALL(cuStreamSynchronize(s));
    bad = 0;
    for (int i = 0; i < n; ++i) bad += __half2float(hh[i]) != h[i];
    printf("to_half<float>: %s\n", bad ? "FAIL" : "ok");
    fails += bad != 0;

    // binned_sum with a constant table and a device global
    size_t tsz, csz;
    CUdeviceptr total = L.global(prog.lowered("&jit::d_total"), &tsz);
    CUdeviceptr offs = L.global(prog.lowered("jit::c_offsets"), &csz);
    int ho[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    CUDA_SAFE_CALL(cuMemcpyHtoD(offs, ho, sizeof ho));
    CUDA_SAFE_CALL(cuMemsetD32(total, 0, 1));
    CUfunction bs = L.get(prog.lowered("jit::binned_sum"));
    void *c[] = {&din, &n};
    CUDA_SAFE_CALL(cuLaunchKernel(bs, (n + 255) / 256, 1, 1, 256, 1, 1, 0, s, c, 0));
    float gt = 0;
    CUDA_SAFE_CALL(cuStreamSynchronize(s));
    CUDA_SAFE_CALL(cuMemcpyDtoH(&gt, total, sizeof gt));
    double rt = 0;
    for (int i = 0; i < n; ++i) rt += h[i] + ho[i % 8];
    bool ok = tsz == 4 && csz == 32 && std::fabs(gt - rt) < 1e-3 * rt;
    printf("binned_sum: %.1f vs %.1f (sizes %zu %zu): %s\n", gt, rt, tsz, csz,
           ok ? "ok" : "FAIL");
    fails += !ok;
    CUDA_SAFE_CALL(cuMemFree(din));
    CUDA_SAFE_CALL(cuMemFree(dout));
    CUDA_SAFE_CALL(cuMemFree(dh));
  }
  // smooth<double,3> through the extra parameter buffer
  {
    std::vector<double> h(n);
    for (int i = 0; i < n; ++i) h[i] = std::sin(0.01 * i);
    CUdeviceptr din, dout;
    CUDA_SAFE_CALL(cuMemAlloc(&din, n * sizeof(double)));
    CUDA_SAFE_CALL(cuMemAlloc(&dout, n * sizeof(double)));
    CUDA_SAFE_CALL(cuMemcpyHtoD(din, h.data(), n * sizeof(double)));
    CUfunction f = L.get(prog.lowered("jit::smooth<double, 3>"));
    struct { CUdeviceptr in, out; int n; } p = {din, dout, n};
    size_t sz = sizeof p;
    void *extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, &p, CU_LAUNCH_PARAM_BUFFER_SIZE,
                     &sz, CU_LAUNCH_PARAM_END};
    CUDA_SAFE_CALL(cuLaunchKernel(f, (n + 63) / 64, 1, 1, 64, 1, 1, 0, s, nullptr, extra));
    std::vector<double> got(n);
    CUDA_SAFE_CALL(cuMemcpyDtoHAsync(got.data(), dout, n * sizeof(double), s));
    CUDA_SAFE_CALL(cuStreamSynchronize(s));
    auto ref = smooth_ref<double, 3>(h, 2.0);
    int bad = 0;
    for (int i = 0; i < n; ++i) bad += std::fabs(got[i] - ref[i]) > 1e-9;
    printf("smooth<double,3> (extra): %s\n", bad ? "FAIL" : "ok");
    fails += bad != 0;
    CUDA_SAFE_CALL(cuMemFree(din));
    CUDA_SAFE_CALL(cuMemFree(dout));
  }
  // plain extern "C" kernel without a name expression
  {
    CUdeviceptr d;
    CUDA_SAFE_CALL(cuMemAlloc(&d, 32 * sizeof(int)));
    CUfunction f = L.get("plain_c");
    void *a[] = {&d};
    CUDA_SAFE_CALL(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, s, a, 0));
    int h[32];
    CUDA_SAFE_CALL(cuStreamSynchronize(s));
    CUDA_SAFE_CALL(cuMemcpyDtoH(h, d, sizeof h));
    int bad = 0;
    for (int i = 0; i < 32; ++i) bad += h[i] != 3 * i;
    printf("plain_c: %s\n", bad ? "FAIL" : "ok");
    fails += bad != 0;
    CUDA_SAFE_CALL(cuMemFree(d));
  }
  CUDA_SAFE_CALL(cuStreamDestroy(s));
  if (L.lib) CUDA_SAFE_CALL(cuLibraryUnload(L.lib));
  if (L.mod) CUDA_SAFE_CALL(cuModuleUnload(L.mod));
  CUDA_SAFE_CALL(cuCtxPopCurrent(nullptr));
  CUDA_SAFE_CALL(cuDevicePrimaryCtxRelease(dev));
  printf("%s\n", fails ? "FAIL" : "PASS");
  return fails ? 1 : 0;
}
