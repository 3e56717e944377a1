"""test_nvrtc.py: NVRTC and the driver loaded by ctypes.

Python programs compile kernels at run time without a compiled library of
their own: ctypes.CDLL on the toolkit's lib64/libnvrtc.so, then
nvrtcCreateProgram, nvrtcCompileProgram, nvrtcGetPTXSize and nvrtcGetPTX,
and the PTX loaded and launched through the driver library
(cuModuleLoadData, cuLaunchKernel). Here lib64/libnvrtc.so is the file
that -lnvrtc links too (a filter library: emulator/export/libnvrtc.am) and
the driver cuemu-toolkit's compat/libcuda.so.1; the module that NVRTC made
must run in the process's one libcuemu. Run with the toolkit folder as
its argument (tests/programs_trialpyext.sh)."""
import ctypes
import os
import sys

failures = []


def expect(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


toolkit = sys.argv[1]
vp, sz = ctypes.c_void_p, ctypes.c_size_t

rtc = ctypes.CDLL(os.path.join(toolkit, "lib64", "libnvrtc.so"))
rtc.nvrtcGetErrorString.restype = ctypes.c_char_p
rtc.nvrtcCreateProgram.argtypes = [ctypes.POINTER(vp), ctypes.c_char_p, ctypes.c_char_p,
                                   ctypes.c_int, vp, vp]
rtc.nvrtcCompileProgram.argtypes = [vp, ctypes.c_int, ctypes.POINTER(ctypes.c_char_p)]
rtc.nvrtcGetPTXSize.argtypes = [vp, ctypes.POINTER(sz)]
rtc.nvrtcGetPTX.argtypes = [vp, ctypes.c_char_p]
rtc.nvrtcGetProgramLogSize.argtypes = [vp, ctypes.POINTER(sz)]
rtc.nvrtcGetProgramLog.argtypes = [vp, ctypes.c_char_p]
rtc.nvrtcDestroyProgram.argtypes = [ctypes.POINTER(vp)]

major, minor = ctypes.c_int(), ctypes.c_int()
expect(rtc.nvrtcVersion(ctypes.byref(major), ctypes.byref(minor)) == 0 and major.value >= 12,
       f"nvrtcVersion through ctypes.CDLL('.../lib64/libnvrtc.so'): {major.value}.{minor.value}")
expect(rtc.nvrtcGetErrorString(6) == b"NVRTC_ERROR_COMPILATION",
       "nvrtcGetErrorString(NVRTC_ERROR_COMPILATION)")

source = b"""extern "C" __global__ void affine(float *v, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = a * v[i] + OFFSET;
}
"""
prog = vp()
options = (ctypes.c_char_p * 2)(b"--gpu-architecture=compute_90", b"-DOFFSET=0.5f")
expect(rtc.nvrtcCreateProgram(ctypes.byref(prog), source, b"affine.cu", 0, None, None) == 0,
       "nvrtcCreateProgram")
result = rtc.nvrtcCompileProgram(prog, 2, options)
if result != 0:
    size = sz()
    rtc.nvrtcGetProgramLogSize(prog, ctypes.byref(size))
    log = ctypes.create_string_buffer(size.value)
    rtc.nvrtcGetProgramLog(prog, log)
    print(log.value.decode(errors="replace"))
expect(result == 0, "nvrtcCompileProgram with -D and --gpu-architecture")
ptx_size = sz()
expect(rtc.nvrtcGetPTXSize(prog, ctypes.byref(ptx_size)) == 0 and ptx_size.value > 1,
       f"nvrtcGetPTXSize: {ptx_size.value}")
ptx = ctypes.create_string_buffer(ptx_size.value)
# As NVIDIA's, the PTX is a C string whose size counts its NUL (a binding
# keeps it as bytes up to the NUL).
expect(rtc.nvrtcGetPTX(prog, ptx) == 0 and len(ptx.value) == ptx_size.value - 1,
       "nvrtcGetPTX gives a C string of nvrtcGetPTXSize bytes with its NUL")
expect(rtc.nvrtcDestroyProgram(ctypes.byref(prog)) == 0,
       "nvrtcDestroyProgram")

# The PTX through the driver library, as a binding of it would run it.
cu = ctypes.CDLL(os.path.join(toolkit, "compat", "libcuda.so.1"))
cu.cuDevicePrimaryCtxRetain.argtypes = [ctypes.POINTER(vp), ctypes.c_int]
cu.cuCtxSetCurrent.argtypes = [vp]
cu.cuModuleLoadData.argtypes = [ctypes.POINTER(vp), ctypes.c_char_p]  # the bytes up to the NUL
cu.cuModuleGetFunction.argtypes = [ctypes.POINTER(vp), vp, ctypes.c_char_p]
cu.cuMemAlloc_v2.argtypes = [ctypes.POINTER(ctypes.c_uint64), sz]
cu.cuMemcpyHtoD_v2.argtypes = [ctypes.c_uint64, vp, sz]
cu.cuMemcpyDtoH_v2.argtypes = [vp, ctypes.c_uint64, sz]
cu.cuMemFree_v2.argtypes = [ctypes.c_uint64]
cu.cuLaunchKernel.argtypes = [vp] + [ctypes.c_uint] * 7 + [vp, ctypes.POINTER(vp), vp]
cu.cuModuleUnload.argtypes = [vp]

n = 200
host = (ctypes.c_float * n)(*range(n))
ctx, module, kernel, dev = vp(), vp(), vp(), ctypes.c_uint64()
expect(cu.cuInit(0) == 0 and cu.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), 0) == 0 and
       cu.cuCtxSetCurrent(ctx) == 0, "cuInit and the primary context")
expect(cu.cuModuleLoadData(ctypes.byref(module), ptx.value) == 0 and
       cu.cuModuleGetFunction(ctypes.byref(kernel), module, b"affine") == 0,
       "cuModuleLoadData of NVRTC's PTX, cuModuleGetFunction")
expect(cu.cuMemAlloc_v2(ctypes.byref(dev), ctypes.sizeof(host)) == 0 and
       cu.cuMemcpyHtoD_v2(dev.value, host, ctypes.sizeof(host)) == 0, "cuMemAlloc, cuMemcpyHtoD")
a, count = ctypes.c_float(2.0), ctypes.c_int(n)
args = (vp * 3)(ctypes.cast(ctypes.byref(dev), vp), ctypes.cast(ctypes.byref(a), vp),
                ctypes.cast(ctypes.byref(count), vp))
expect(cu.cuLaunchKernel(kernel, (n + 63) // 64, 1, 1, 64, 1, 1, 0, None, args, None) == 0 and
       cu.cuCtxSynchronize() == 0, "cuLaunchKernel, cuCtxSynchronize")
back = (ctypes.c_float * n)()
expect(cu.cuMemcpyDtoH_v2(back, dev.value, ctypes.sizeof(back)) == 0 and
       all(back[i] == 2.0 * i + 0.5 for i in range(n)), "the kernel computed 2 * v + 0.5")
expect(cu.cuMemFree_v2(dev.value) == 0 and cu.cuModuleUnload(module) == 0,
       "cuMemFree, cuModuleUnload")

# One libcuemu in the process: the filter's, the driver's and the module's
# are the one file (a second copy is a second runtime).
files = set()
with open("/proc/self/maps") as maps:
    for line in maps:
        fields = line.split()
        if len(fields) >= 6 and os.path.basename(fields[5]).startswith(("libcuemu.so",
                                                                      "libcuemu_by_path.so")):
            files.add((fields[3], fields[4]))
expect(len(files) == 1, f"one libcuemu file mapped in the process: {len(files)}")

print("test_nvrtc.py:", "FAIL" if failures else "PASS")
sys.exit(1 if failures else 0)
