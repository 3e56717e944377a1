// ptx_fault_line.cu: a program that loads hand-written PTX text with
// cuModuleLoadDataEx (an error-log buffer among the JIT options, as such
// programs pass) and a kernel that faults: the report names the PTX line of
// the instruction that faulted, not the line of the entry's opening brace.
// Each kernel traps (`@%p trap;`) in one of its threads; the program runs
// itself again with the kernel's name, reads what the second process wrote
// on stderr, and looks for "at the image:N", N the line of the kernel's
// `trap` in the PTX text. The second kernel's trap comes after a loop
// (labels and branches) and inside braces, at a line further down.
// CUEMU_OPTIONS: -lcuda
// NVCC_OPTIONS: -lcuda
#include <cuda.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "../check.cuh"

static const char ptx[] =
    ".version 8.0\n"
    ".target sm_80\n"
    ".address_size 64\n"
    "\n"
    ".visible .entry trap_third(\n"
    "\t.param .u64 out\n"
    ")\n"
    "{\n"
    "\t.reg .b32 %r<3>;\n"
    "\t.reg .b64 %rd<3>;\n"
    "\t.reg .pred %p;\n"
    "\tld.param.u64 %rd1, [out];\n"
    "\tcvta.to.global.u64 %rd2, %rd1;\n"
    "\tmov.u32 %r1, %tid.x;\n"
    "\tsetp.eq.u32 %p, %r1, 3;\n"
    "\t@%p trap; // trap_third\n"
    "\tst.global.u32 [%rd2], %r1;\n"
    "\tret;\n"
    "}\n"
    "\n"
    ".visible .entry trap_after_loop(\n"
    "\t.param .u64 out\n"
    ")\n"
    "{\n"
    "\t.reg .b32 %r<4>;\n"
    "\t.reg .b64 %rd<3>;\n"
    "\t.reg .pred %p<3>;\n"
    "\tld.param.u64 %rd1, [out];\n"
    "\tcvta.to.global.u64 %rd2, %rd1;\n"
    "\tmov.u32 %r1, 0;\n"
    "\tmov.u32 %r2, %tid.x;\n"
    "\tadd.u32 %r3, %r2, 1;\n"
    "$L_loop:\n"
    "\tadd.u32 %r1, %r1, %r3;\n"
    "\tsetp.lt.u32 %p1, %r1, 100;\n"
    "\t@%p1 bra $L_loop;\n"
    "\t{\n"
    "\t\tsetp.eq.u32 %p2, %r2, 5;\n"
    "\n"
    "\t\t@%p2 trap; // trap_after_loop\n"
    "\t}\n"
    "\tst.global.u32 [%rd2], %r1;\n"
    "\tret;\n"
    "}\n";

// The 1-based line of the PTX text that holds `marker`.
static int line_of(const char *marker) {
  const char *at = std::strstr(ptx, marker);
  int line = 1;
  for (const char *p = ptx; at && p < at; p++)
    line += *p == '\n';
  return at ? line : 0;
}

// The second process: runs the kernel named, which traps.
static int child(const char *kernel) {
  CUdevice device;
  CUcontext ctx;
  CUmodule module;
  CUfunction f;
  char log[1024] = {0};
  CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER,
                            CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *values[] = {log, (void *)(size_t)sizeof log};
  if (cuInit(0) != CUDA_SUCCESS || cuDeviceGet(&device, 0) != CUDA_SUCCESS ||
      cuCtxCreate(&ctx, NULL, 0, device) != CUDA_SUCCESS)
    return 2;
  if (cuModuleLoadDataEx(&module, ptx, 2, options, values) != CUDA_SUCCESS) {
    std::fprintf(stderr, "the JIT failed: %s\n", log);
    return 2;
  }
  CUdeviceptr out;
  if (cuModuleGetFunction(&f, module, kernel) != CUDA_SUCCESS ||
      cuMemAlloc(&out, sizeof(unsigned)) != CUDA_SUCCESS)
    return 2;
  void *args[] = {&out};
  CUresult launched = cuLaunchKernel(f, 1, 1, 1, 8, 1, 1, 0, 0, args, 0);
  CUresult done = cuCtxSynchronize();
  std::fprintf(stderr, "launch %d, synchronize %d\n", (int)launched, (int)done);
  return done != CUDA_SUCCESS ? 0 : 3; // the trap ended the launch
}

// Runs this program again for the kernel; its stderr in *out.
static int run_child(const char *self, const char *kernel, std::string *out) {
  std::string command =
      std::string("CUEMU_QUIET=0 ") + self + " " + kernel + " 2>&1";
  FILE *p = popen(command.c_str(), "r");
  if (!p)
    return -1;
  char buf[512];
  while (std::fgets(buf, sizeof buf, p))
    *out += buf;
  return pclose(p);
}

int main(int argc, char **argv) {
  if (argc > 1)
    return child(argv[1]);
  const char *kernels[] = {"trap_third", "trap_after_loop"};
  for (const char *kernel : kernels) {
    std::string out;
    int status = run_child(argv[0], kernel, &out);
    int line = line_of((std::string("// ") + kernel).c_str());
    CHECK(line > 0);
    std::string where = "at the image:" + std::to_string(line) + " ";
    bool named = out.find(where) != std::string::npos;
    CHECK(status == 0);
    CHECK(named);
    if (status != 0 || !named)
      std::fprintf(stderr, "%s: expected \"%s\" in:\n%s", kernel,
                   where.c_str(), out.c_str());
  }
  return finish();
}
