"""test_cudart.py: the CUDA runtime and math libraries loaded by ctypes.

Python programs call the runtime API without a compiled library of their
own: ctypes.CDLL("libcudart.so") (with the toolkit's lib64 on
LD_LIBRARY_PATH), or the name that ctypes.util.find_library("cudart")
gives, then cudaMalloc, cudaMemcpy and cudaFree on NumPy arrays' memory;
bindings of cuBLAS, cuFFT and cuRAND load libcublas.so, libcufft.so and
libcurand.so alike. Here those are cuemu-toolkit's lib64 files, which the
same files are to a link editor (-lcudart, -lcublas, ...). Run with LD_LIBRARY_PATH naming that
folder (tests/programs_trialpyext.sh); KERN_LIBDIR names libkern_a.so, a
library of kernels loaded beside it."""
import ctypes
import ctypes.util
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cudalib  # noqa: E402

failures = []


def expect(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


H2D, D2H = 1, 2
rt = ctypes.CDLL("libcudart.so")
rt.cudaMalloc.argtypes = [ctypes.POINTER(ctypes.c_void_p), ctypes.c_size_t]
rt.cudaMemcpy.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
rt.cudaMemset.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_size_t]
rt.cudaFree.argtypes = [ctypes.c_void_p]
rt.cudaGetErrorString.restype = ctypes.c_char_p
rt.cudaGetErrorString.argtypes = [ctypes.c_int]

count = ctypes.c_int(-1)
expect(rt.cudaGetDeviceCount(ctypes.byref(count)) == 0 and count.value >= 1,
       f"cudaGetDeviceCount through ctypes.CDLL('libcudart.so'): {count.value}")

x = np.arange(1000, dtype=np.float32)
back = np.zeros_like(x)
d = ctypes.c_void_p()
expect(rt.cudaMalloc(ctypes.byref(d), x.nbytes) == 0 and d.value, "cudaMalloc")
expect(rt.cudaMemcpy(d, x.ctypes.data_as(ctypes.c_void_p), x.nbytes, H2D) == 0,
       "cudaMemcpy host to device")
expect(rt.cudaMemcpy(back.ctypes.data_as(ctypes.c_void_p), d, x.nbytes, D2H) == 0 and
       np.array_equal(back, x), "cudaMemcpy device to host gives the array back")
expect(rt.cudaMemset(d, 0, x.nbytes) == 0 and
       rt.cudaMemcpy(back.ctypes.data_as(ctypes.c_void_p), d, x.nbytes, D2H) == 0 and
       not back.any(), "cudaMemset")
expect(rt.cudaFree(d) == 0, "cudaFree")
expect(rt.cudaFree(ctypes.c_void_p(16)) == 1 and
       rt.cudaGetErrorString(1) == b"invalid argument",
       "cudaFree of a pointer that is no allocation: cudaErrorInvalidValue, with its string")
expect(rt.cudaGetLastError() == 1 and rt.cudaGetLastError() == 0,
       "the error is the last error once, as CUDA's")

# A library of kernels built by cuemu-nvcc runs beside these calls.
a = cudalib.load_a()
y = np.ones(8, np.float32)
expect(a.ka_saxpy(y.size, 2.0, np.ones(8, np.float32), y) == 0 and (y == 3).all(),
       "libkern_a's saxpy in the same process")

# The math libraries the same way (the pattern of ctypes bindings of
# cuBLAS, cuFFT and cuRAND): cuRAND fills memory that cudaMalloc gave here.
blas = ctypes.cdll.LoadLibrary("libcublas.so")
handle = ctypes.c_void_p()
version = ctypes.c_int()
expect(blas.cublasCreate_v2(ctypes.byref(handle)) == 0 and
       blas.cublasGetVersion_v2(handle, ctypes.byref(version)) == 0 and version.value > 0 and
       blas.cublasDestroy_v2(handle) == 0, f"libcublas.so: create, version {version.value}, destroy")
fft = ctypes.cdll.LoadLibrary("libcufft.so")
plan = ctypes.c_int()
expect(fft.cufftPlan1d(ctypes.byref(plan), 64, 0x29, 1) == 0 and fft.cufftDestroy(plan) == 0,
       "libcufft.so: a C2C plan")
rand = ctypes.cdll.LoadLibrary("libcurand.so")
rand.curandGenerateUniform.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t]
rand.curandSetPseudoRandomGeneratorSeed.argtypes = [ctypes.c_void_p, ctypes.c_ulonglong]
gen = ctypes.c_void_p()
u = np.zeros(256, np.float32)
expect(rt.cudaMalloc(ctypes.byref(d), u.nbytes) == 0 and
       rand.curandCreateGenerator(ctypes.byref(gen), 100) == 0 and
       rand.curandSetPseudoRandomGeneratorSeed(gen, 1234) == 0 and
       rand.curandGenerateUniform(gen, d, u.size) == 0 and
       rt.cudaMemcpy(u.ctypes.data_as(ctypes.c_void_p), d, u.nbytes, D2H) == 0 and
       rand.curandDestroyGenerator(gen) == 0 and rt.cudaFree(d) == 0 and
       u.min() > 0 and u.max() <= 1 and len(set(u.tolist())) > 200,
       "libcurand.so: uniform numbers in (0, 1] into memory from cudaMalloc")

found = ctypes.util.find_library("cudart")
expect(found is not None and ctypes.CDLL(found).cudaGetDeviceCount(ctypes.byref(count)) == 0,
       f"ctypes.util.find_library('cudart') names a loadable library: {found}")

print("test_cudart.py:", "FAIL" if failures else "PASS")
sys.exit(1 if failures else 0)
