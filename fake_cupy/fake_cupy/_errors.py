"""CuPy's CUDA error types, and the CUDA errors of libcuemu statuses.

A kernel that fails on a GPU leaves a CUDA driver error that CuPy raises as
cupy.cuda.driver.CUDADriverError at the next synchronization. The fake
raises the same type with the same "NAME: description" text, followed by
libcuemu's message, which names the kernel, the block and thread and the
source line.

The codes, names and texts all come from libcuemu's tables (the status
table in cuemu_status.h and CUDA's error tables), read through the C API;
nothing of them is written here.
"""
import ctypes
import functools

from cuemu import _binding


@functools.lru_cache(maxsize=None)
def _library():
    """libcuemu, with the prototypes of the calls this module makes."""
    lib = _binding.library()
    text = ctypes.c_char_p
    for name, restype in (("cuemu_status_driver_error", ctypes.c_int),
                          ("cuemu_status_is_sticky", ctypes.c_int),
                          ("cuemu_driver_error_name", text),
                          ("cuemu_driver_error_string", text),
                          ("cuemu_rt_error_name", text),
                          ("cuemu_rt_error_string", text)):
        fn = getattr(lib, name)
        fn.restype = restype
        fn.argtypes = [ctypes.c_int]
    return lib


@functools.lru_cache(maxsize=None)
def _status_codes():
    """libcuemu status name ("TRAP") -> its value, from cuemu_status_name."""
    codes = {}
    value = 0
    while True:
        name = _binding.status_name(value)
        if name == "UNKNOWN":
            return codes
        codes[name] = value
        value += 1


def status_driver_error(status):
    """The CUresult that the libcuemu status named `status` becomes, as a
    GPU would report the same condition; CUDA_ERROR_UNKNOWN (999) for a
    name libcuemu does not have."""
    code = _status_codes().get(status)
    if code is None:
        return 999
    return _library().cuemu_status_driver_error(code)


def status_is_sticky(status):
    """True when the libcuemu status named `status` is an execution error,
    which CUDA makes sticky."""
    code = _status_codes().get(status)
    return code is not None and bool(_library().cuemu_status_is_sticky(code))


class CUDADriverError(RuntimeError):
    """cupy.cuda.driver.CUDADriverError: `status` is the CUresult code."""

    def __reduce__(self):
        return (_rebuild, ("CUDADriverError", self.status, self.detail))

    def __init__(self, status, detail=None):
        self.status = status
        self.detail = detail
        lib = _library()
        name = lib.cuemu_driver_error_name(status)
        if name:
            message = (f"{name.decode()}: "
                       f"{lib.cuemu_driver_error_string(status).decode()}")
        else:
            # cuGetErrorName refuses a code CUDA does not have.
            message = "CUDA_ERROR_UNKNOWN: unknown error"
        if detail:
            message += f" ({detail})"
        super().__init__(message)


class CUDARuntimeError(RuntimeError):
    """cupy.cuda.runtime.CUDARuntimeError: `status` is the cudaError code."""

    def __reduce__(self):
        return (_rebuild, ("CUDARuntimeError", self.status))

    def __init__(self, status):
        self.status = status
        # As CuPy: cudaGetErrorName and cudaGetErrorString of the code
        # ("unrecognized error code" for a code CUDA does not have).
        lib = _library()
        super().__init__(f"{lib.cuemu_rt_error_name(status).decode()}: "
                         f"{lib.cuemu_rt_error_string(status).decode()}")


class CompileException(Exception):
    """cupy.cuda.compiler.CompileException: the kernel did not compile. The
    message is the compiler's log (NVRTC's, as CuPy shows it, when NVRTC
    refused the code; else libcuemu's message and log), which `log` holds
    alone. `dump(f)` writes the message, the options and the numbered
    source, as CuPy's does."""

    def __init__(self, msg, source, name, options, backend="nvrtc", log=""):
        self._msg = msg
        self.log = log
        self.source = source
        self.name = name
        self.options = tuple(options)
        self.backend = backend
        super().__init__(msg)

    def __reduce__(self):
        return (_rebuild, ("CompileException", self._msg, self.source,
                           self.name, self.options, self.backend, self.log))

    def __repr__(self):
        return str(self)

    def get_message(self):
        return self._msg

    def dump(self, f):
        lines = (self.source or "").split("\n")
        width = len(str(len(lines)))
        f.write(f"{self.backend.upper()} compilation error: {self}\n")
        f.write("-----\n")
        f.write(f"Name: {self.name}\n")
        f.write(f"Options: {' '.join(self.options)}\n")
        f.write("CUDA source:\n")
        for number, line in enumerate(lines, 1):
            f.write(f"{number:0{width}d} {line.rstrip()}\n")
        f.write("-----\n")
        f.flush()


class JitifyException(Exception):
    """cupy.cuda.compiler.JitifyException: what a compile error is with
    jitify=True (Jitify itself is never used by the fake)."""


def _rebuild(cls_name, *args):
    """Unpickles one of these errors (they are shown under CuPy's module
    names, which pickle could not import without the fake installed)."""
    return globals()[cls_name](*args)


class OutOfMemoryError(MemoryError):
    """cupy.cuda.memory.OutOfMemoryError, with CuPy's message; it pickles
    (its arguments are kept)."""

    def __reduce__(self):
        return (_rebuild, ("OutOfMemoryError", self.size, self.total,
                           self.limit))

    def __init__(self, size, total, limit=0):
        self.size, self.total, self.limit = size, total, limit
        msg = (f"Out of memory allocating {size:,} bytes "
               f"(allocated so far: {total:,} bytes")
        if limit:
            msg += f", limit set to: {limit:,} bytes"
        super().__init__(msg + ").")


class LifetimeError(RuntimeError):
    """A queued launch outlived an operand, or used one another stream wrote
    without ordering (fake-only: on a GPU this is silent corruption)."""


def driver_error_from(exc):
    """The CUDADriverError for a libcuemu CuemuError."""
    return CUDADriverError(status_driver_error(exc.status),
                           f"cuemu {exc.status}: {exc.message}")


# Shown (and documented) under CuPy's module names.
CUDADriverError.__module__ = "cupy.cuda.driver"
CUDARuntimeError.__module__ = "cupy.cuda.runtime"
CompileException.__module__ = "cupy.cuda.compiler"
JitifyException.__module__ = "cupy.cuda.compiler"
OutOfMemoryError.__module__ = "cupy.cuda.memory"
