/*
 * ptx_text_modules.cu: NVIDIA PTX text (nvcc's, ptx_text_kernels.h) loaded
 * through the driver API, as programs load the PTX they embed (the CUDA
 * samples' ptxjit and matrixMulDynlinkJIT) or read from a .ptx file: the
 * driver JIT-compiles it. cuemu refused it ("it looks like PTX text (nvcc's),
 * which cuemu does not run", CUDA_ERROR_INVALID_IMAGE). Checks
 * cuModuleLoadData on the text, cuModuleLoad on a .ptx file and
 * cuLinkAddData with CU_JIT_INPUT_PTX; a tiled matrix product in static
 * shared memory, a `__device__` counter and a `__constant__` array found by
 * cuModuleGetGlobal (the constant changed by the host is what the kernel
 * reads), a local array and a warp shuffle, dynamic shared memory, a
 * structure passed by value, `__launch_bounds__` (`.maxntid`) as the
 * function's thread limit; calls of device functions nvcc did not inline
 * (a recursive one) and printf (vprintf: the program's output has "thread 1
 * of 32: hi  2.50 7000000000 z ff"); and the JIT's refusals,
 * CUDA_ERROR_INVALID_PTX: a `.target` newer than the device, an unknown
 * instruction, and a call of an `.extern` function that is not CUDA's. The
 * device heap's malloc and free, and assert (__assertfail: the launch ends
 * with CUDA_ERROR_ASSERT), run.
 * Prints PASS and exits 0 when all is well.
 */
// CUEMU_OPTIONS: -lcuda
// NVCC_OPTIONS: -lcuda
#include <cstdio>
#include <cstdlib>
#include <string>
#include <unistd.h>
#include <vector>

#include <cuda.h>

#include "../check.cuh"
#include "ptx_text_kernels.h"

#define CU(call) CHECK((call) == CUDA_SUCCESS)

struct Affine {
  double mul;
  int add;
};

/* Runs the tiled product of n x n matrices and checks it against the
 * host's (exact: small integers). */
static void check_matmul(CUmodule m, float scale0) {
  CUfunction f;
  CU(cuModuleGetFunction(&f, m, "tiled_matmul"));
  int n = 32;
  std::vector<float> a(n * n), b(n * n), c(n * n);
  for (int i = 0; i < n * n; ++i) {
    a[i] = static_cast<float>(i % 7);
    b[i] = static_cast<float>(i % 5 - 2);
  }
  CUdeviceptr da, db, dc;
  CU(cuMemAlloc(&da, n * n * sizeof(float)));
  CU(cuMemAlloc(&db, n * n * sizeof(float)));
  CU(cuMemAlloc(&dc, n * n * sizeof(float)));
  CU(cuMemcpyHtoD(da, a.data(), n * n * sizeof(float)));
  CU(cuMemcpyHtoD(db, b.data(), n * n * sizeof(float)));
  void *args[] = {&dc, &da, &db, &n};
  CU(cuLaunchKernel(f, 2, 2, 1, 16, 16, 1, 0, nullptr, args, nullptr));
  CU(cuMemcpyDtoH(c.data(), dc, n * n * sizeof(float)));
  int wrong = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      float s = 0;
      for (int k = 0; k < n; ++k) s += a[i * n + k] * b[k * n + j];
      wrong += c[i * n + j] != s * scale0;
    }
  CHECK(wrong == 0);
  cuMemFree(da);
  cuMemFree(db);
  cuMemFree(dc);
}

static void check_module(CUmodule m) {
  /* The module's variables, by name; the host's change of the constant is
   * what the kernel reads. */
  CUdeviceptr counter, scale;
  size_t size = 0;
  CU(cuModuleGetGlobal(&counter, &size, m, "blocks_done"));
  CHECK(size == sizeof(unsigned));
  CU(cuModuleGetGlobal(&scale, &size, m, "scale"));
  CHECK(size == 2 * sizeof(float));
  float s[2] = {0, 0};
  CU(cuMemcpyDtoH(s, scale, sizeof s));
  CHECK(s[0] == 1.0f && s[1] == 0.5f);
  check_matmul(m, 1.0f);
  s[0] = 2.0f;
  CU(cuMemcpyHtoD(scale, s, sizeof s));
  check_matmul(m, 2.0f);
  unsigned done = 0;
  CU(cuMemcpyDtoH(&done, counter, sizeof done));
  CHECK(done == 8);

  /* A local array, a shuffle, and __launch_bounds__(128). */
  CUfunction gather;
  CU(cuModuleGetFunction(&gather, m, "_Z12gather_localPii"));
  int limit = 0;
  CU(cuFuncGetAttribute(&limit, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
                        gather));
  CHECK(limit == 128);
  CUdeviceptr out;
  CU(cuMemAlloc(&out, 256 * sizeof(double)));
  int k = 3;
  void *gather_args[] = {&out, &k};
  CU(cuLaunchKernel(gather, 1, 1, 1, 32, 1, 1, 0, nullptr, gather_args,
                    nullptr));
  int g[32];
  CU(cuMemcpyDtoH(g, out, sizeof g));
  for (int t = 0; t < 32; ++t)
    CHECK(g[t] == (t * 7 % 20) * k + (t ^ 1));
  CHECK(cuLaunchKernel(gather, 1, 1, 1, 256, 1, 1, 0, nullptr, gather_args,
                       nullptr) == CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES);

  /* Dynamic shared memory. */
  CUfunction reverse;
  CU(cuModuleGetFunction(&reverse, m, "_Z15reverse_dynamicPd"));
  void *reverse_args[] = {&out};
  CU(cuLaunchKernel(reverse, 1, 1, 1, 64, 1, 1, 64 * sizeof(double), nullptr,
                    reverse_args, nullptr));
  double r[64];
  CU(cuMemcpyDtoH(r, out, sizeof r));
  for (int t = 0; t < 64; ++t)
    CHECK(r[t] == 63 - t);

  /* A structure passed by value (`.param .align 8 .b8 p[16]`). */
  CUfunction affine;
  CU(cuModuleGetFunction(&affine, m, "_Z6affine6AffinePd"));
  Affine f = {1.5, -4};
  void *affine_args[] = {&f, &out};
  CU(cuLaunchKernel(affine, 1, 1, 1, 64, 1, 1, 0, nullptr, affine_args,
                    nullptr));
  CU(cuMemcpyDtoH(r, out, sizeof r));
  for (int t = 0; t < 64; ++t)
    CHECK(r[t] == (63 - t) * 1.5 - 4);
  cuMemFree(out);
}

int main() {
  CU(cuInit(0));
  CUdevice dev;
  CU(cuDeviceGet(&dev, 0));
  CUcontext ctx;
  CU(cuDevicePrimaryCtxRetain(&ctx, dev));
  CU(cuCtxSetCurrent(ctx));

  /* The text in memory. */
  CUmodule m;
  CU(cuModuleLoadData(&m, ptx_text_kernels));
  check_module(m);
  CU(cuModuleUnload(m));

  /* A .ptx file. */
  char path[] = "/tmp/ptx_text_modules_XXXXXX";
  int fd = mkstemp(path);
  CHECK(fd >= 0);
  std::string text(ptx_text_kernels);
  CHECK(write(fd, text.data(), text.size()) == (ssize_t)text.size());
  close(fd);
  CU(cuModuleLoad(&m, path));
  unlink(path);
  check_module(m);
  CU(cuModuleUnload(m));

  /* The linker, as the ptxjit sample does. */
  CUlinkState link;
  CU(cuLinkCreate(0, nullptr, nullptr, &link));
  CU(cuLinkAddData(link, CU_JIT_INPUT_PTX, (void *)ptx_text_kernels,
                   sizeof ptx_text_kernels, "kernels.ptx", 0, nullptr,
                   nullptr));
  void *cubin = nullptr;
  size_t cubin_size = 0;
  CU(cuLinkComplete(link, &cubin, &cubin_size));
  CHECK(cubin_size > 0);
  CU(cuModuleLoadData(&m, cubin));
  CU(cuLinkDestroy(link));
  check_module(m);
  CU(cuModuleUnload(m));

  /* The JIT's refusals. */
  std::string newer = text;
  newer.replace(newer.find(".target sm_90"), 13, ".target sm_100");
  CHECK(cuModuleLoadData(&m, newer.c_str()) == CUDA_ERROR_INVALID_PTX);
  std::string unknown = text;
  unknown.replace(unknown.find("\tret;"), 5, "\tnot_an_instruction.b32 %r1;");
  CHECK(cuModuleLoadData(&m, unknown.c_str()) == CUDA_ERROR_INVALID_PTX);
  static const char calls_unknown[] = R"PTX(
.version 9.0
.target sm_90
.address_size 64
.extern .func (.param .b64 func_retval0) pool_alloc(.param .b64 pool_alloc_param_0);
.visible .entry grab()
{
	.reg .b64 %rd<2>;
	{
	.param .b64 param0;
	st.param.b64 [param0], 64;
	.param .b64 retval0;
	call.uni (retval0), pool_alloc, (param0);
	ld.param.b64 %rd1, [retval0];
	}
	ret;
}
)PTX";
  CHECK(cuModuleLoadData(&m, calls_unknown) == CUDA_ERROR_INVALID_PTX);

  /* Calls of device functions nvcc did not inline, and printf; one function
   * declared before its definition, as PTX may. */
  std::string calls_text(ptx_text_calls);
  size_t head = calls_text.find(".func  (.param .b32 func_retval0) _Z4add3iii(");
  CHECK(head != std::string::npos);
  size_t body = calls_text.find(")\n{", head);
  CHECK(body != std::string::npos);
  calls_text.insert(head, calls_text.substr(head, body + 1 - head) + ";\n");
  CU(cuModuleLoadData(&m, calls_text.c_str()));
  CUfunction calls;
  CU(cuModuleGetFunction(&calls, m, "calls"));
  CUdeviceptr ints, doubles, count;
  CU(cuMemAlloc(&ints, 32 * sizeof(int)));
  CU(cuMemAlloc(&doubles, 32 * sizeof(double)));
  CU(cuMemAlloc(&count, sizeof(int)));
  CU(cuMemsetD32(count, 0, 1));
  double h[32];
  for (int t = 0; t < 32; ++t) h[t] = t + 0.25;
  CU(cuMemcpyHtoD(doubles, h, sizeof h));
  void *calls_args[] = {&ints, &doubles, &count};
  CU(cuLaunchKernel(calls, 1, 1, 1, 32, 1, 1, 0, nullptr, calls_args,
                    nullptr));
  CU(cuCtxSynchronize());
  int out[32], n = 0;
  CU(cuMemcpyDtoH(out, ints, sizeof out));
  CU(cuMemcpyDtoH(h, doubles, sizeof h));
  CU(cuMemcpyDtoH(&n, count, sizeof n));
  const int factorial[6] = {1, 1, 2, 6, 24, 120};
  CHECK(n == 32);
  for (int t = 0; t < 32; ++t) {
    CHECK(out[t] == 3 * t + 3 + factorial[t % 6]);
    CHECK(h[t] == 2 * (t + 0.25));
  }
  CU(cuModuleUnload(m));

  /* malloc and free of the device heap, and assert: a failed one ends the
   * launch with CUDA_ERROR_ASSERT, and the context with it (so last). */
  CU(cuModuleLoadData(&m, ptx_text_abi));
  CUfunction heap_sums, checked;
  CU(cuModuleGetFunction(&heap_sums, m, "heap_sums"));
  CU(cuModuleGetFunction(&checked, m, "checked"));
  int terms = 10;
  void *heap_args[] = {&ints, &terms};
  CU(cuLaunchKernel(heap_sums, 1, 1, 1, 32, 1, 1, 0, nullptr, heap_args,
                    nullptr));
  CU(cuCtxSynchronize());
  CU(cuMemcpyDtoH(out, ints, sizeof out));
  for (int t = 0; t < 32; ++t) CHECK(out[t] == 45 * t);
  CUdeviceptr doubled;
  CU(cuMemAlloc(&doubled, 32 * sizeof(int)));
  void *checked_args[] = {&ints, &doubled};
  CU(cuLaunchKernel(checked, 1, 1, 1, 32, 1, 1, 0, nullptr, checked_args,
                    nullptr));
  CU(cuCtxSynchronize());
  int twice[32];
  CU(cuMemcpyDtoH(twice, doubled, sizeof twice));
  for (int t = 0; t < 32; ++t) CHECK(twice[t] == 90 * t);
  CU(cuMemsetD32(ints + 7 * sizeof(int), (unsigned)-1, 1));
  CU(cuLaunchKernel(checked, 1, 1, 1, 32, 1, 1, 0, nullptr, checked_args,
                    nullptr));
  CHECK(cuCtxSynchronize() == CUDA_ERROR_ASSERT);
  return finish();
}
