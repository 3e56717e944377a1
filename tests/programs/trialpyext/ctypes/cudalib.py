"""cudalib.py: ctypes bindings of libkern_a.so and libkern_b.so."""
import ctypes
import os

import numpy as np
from numpy.ctypeslib import ndpointer

HERE = os.path.dirname(os.path.abspath(__file__))
LIBDIR = os.environ.get("KERN_LIBDIR", HERE)


class CudaError(RuntimeError):
    def __init__(self, code, name, message):
        super().__init__(f"{name}: {message} (code {code})")
        self.code = code
        self.name = name


def _f32(ndim=1, flags="C_CONTIGUOUS"):
    return ndpointer(dtype=np.float32, ndim=ndim, flags=flags)


def load_a(path=None):
    lib = ctypes.CDLL(path or os.path.join(LIBDIR, "libkern_a.so"))
    lib.ka_version.restype = ctypes.c_int
    lib.ka_error_string.restype = ctypes.c_char_p
    lib.ka_error_string.argtypes = [ctypes.c_int]
    lib.ka_error_name.restype = ctypes.c_char_p
    lib.ka_error_name.argtypes = [ctypes.c_int]
    lib.ka_device_name.argtypes = [ctypes.c_char_p, ctypes.c_int]
    lib.ka_saxpy.argtypes = [ctypes.c_size_t, ctypes.c_float, _f32(), _f32(flags="C_CONTIGUOUS,WRITEABLE")]
    lib.ka_daxpy.argtypes = [ctypes.c_size_t, ctypes.c_double, ctypes.c_void_p, ctypes.c_void_p]
    lib.ka_set_poly.argtypes = [_f32()]
    lib.ka_poly.argtypes = [ctypes.c_int, _f32(), _f32()]
    lib.ka_which.argtypes = [ctypes.POINTER(ctypes.c_int)]
    lib.ka_fill.argtypes = [ndpointer(np.int32, flags="C,W"), ctypes.c_size_t, ctypes.c_int]
    lib.ka_calls.argtypes = [ctypes.POINTER(ctypes.c_int)]
    return lib


def load_b(path=None):
    lib = ctypes.CDLL(path or os.path.join(LIBDIR, "libkern_b.so"))
    lib.kb_sum_f64.argtypes = [ndpointer(np.float64, flags="C"), ctypes.c_int,
                               ctypes.POINTER(ctypes.c_double)]
    lib.kb_sum_i32.argtypes = [ndpointer(np.int32, flags="C"), ctypes.c_int,
                               ctypes.POINTER(ctypes.c_int)]
    lib.kb_histogram.argtypes = [ndpointer(np.uint8, flags="C"), ctypes.c_int,
                                 ndpointer(np.uint32, flags="C,W")]
    lib.kb_which.argtypes = [ctypes.POINTER(ctypes.c_int)]
    lib.kb_fill.argtypes = [ndpointer(np.int32, flags="C,W"), ctypes.c_size_t, ctypes.c_int]
    lib.kb_calls.argtypes = [ctypes.POINTER(ctypes.c_int)]
    return lib


class Kernels:
    """Wraps both libraries; every call's status becomes an exception."""

    def __init__(self, a, b):
        self.a, self.b = a, b

    def check(self, code):
        if code != 0:
            raise CudaError(code, self.a.ka_error_name(code).decode(),
                            self.a.ka_error_string(code).decode())

    def device_name(self):
        buf = ctypes.create_string_buffer(128)
        self.check(self.a.ka_device_name(buf, len(buf)))
        return buf.value.decode()

    def saxpy(self, a, x, y):
        self.check(self.a.ka_saxpy(x.size, a, x, y))

    def daxpy(self, a, x, y):
        assert x.dtype == np.float64 and y.flags.c_contiguous
        self.check(self.a.ka_daxpy(x.size, a, x.ctypes.data_as(ctypes.c_void_p),
                                   y.ctypes.data_as(ctypes.POINTER(ctypes.c_double))))

    def poly(self, coeffs, x):
        self.check(self.a.ka_set_poly(np.ascontiguousarray(coeffs, np.float32)))
        y = np.empty_like(x)
        self.check(self.a.ka_poly(x.size, x, y))
        return y

    def total(self, x):
        if x.dtype == np.float64:
            out = ctypes.c_double()
            self.check(self.b.kb_sum_f64(x, x.size, ctypes.byref(out)))
        else:
            out = ctypes.c_int()
            self.check(self.b.kb_sum_i32(x, x.size, ctypes.byref(out)))
        return out.value

    def histogram(self, data):
        hist = np.zeros(256, np.uint32)
        self.check(self.b.kb_histogram(data, data.size, hist))
        return hist

    def which(self):
        wa, wb = ctypes.c_int(), ctypes.c_int()
        self.check(self.a.ka_which(ctypes.byref(wa)))
        self.check(self.b.kb_which(ctypes.byref(wb)))
        return wa.value, wb.value

    def fill(self, n, va, vb):
        xa, xb = np.zeros(n, np.int32), np.zeros(n, np.int32)
        self.check(self.a.ka_fill(xa, n, va))
        self.check(self.b.kb_fill(xb, n, vb))
        return xa, xb

    def calls(self):
        ca, cb = ctypes.c_int(), ctypes.c_int()
        self.check(self.a.ka_calls(ctypes.byref(ca)))
        self.check(self.b.kb_calls(ctypes.byref(cb)))
        return ca.value, cb.value
