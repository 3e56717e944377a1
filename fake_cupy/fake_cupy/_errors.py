"""CuPy's CUDA error types, and the mapping from libcuemu statuses to them.

A kernel that fails on a GPU leaves a CUDA driver error that CuPy raises as
cupy.cuda.driver.CUDADriverError at the next synchronization. The fake
raises the same type with the same "NAME: description" text, followed by
libcuemu's message, which names the kernel, the block and thread and the
source line.
"""

# (code, name, description) of the driver errors the emulator can produce.
_DRIVER_ERRORS = {
    1: ("CUDA_ERROR_INVALID_VALUE", "invalid argument"),
    2: ("CUDA_ERROR_OUT_OF_MEMORY", "out of memory"),
    400: ("CUDA_ERROR_INVALID_HANDLE", "invalid resource handle"),
    500: ("CUDA_ERROR_NOT_FOUND", "named symbol not found"),
    600: ("CUDA_ERROR_NOT_READY", "device not ready"),
    700: ("CUDA_ERROR_ILLEGAL_ADDRESS", "an illegal memory access was encountered"),
    701: ("CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES", "too many resources requested for launch"),
    710: ("CUDA_ERROR_ASSERT", "device-side assert triggered"),
    715: ("CUDA_ERROR_ILLEGAL_INSTRUCTION", "an illegal instruction was encountered"),
    719: ("CUDA_ERROR_LAUNCH_FAILED", "unspecified launch failure"),
    720: ("CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE",
          "too many blocks in cooperative launch"),
}

# libcuemu status name -> CUDA driver error code, as a GPU would report it.
_STATUS_TO_DRIVER = {
    "INVALID_VALUE": 1,
    "OUT_OF_MEMORY": 2,
    "KERNEL_NOT_FOUND": 500,
    "INVALID_GRID_DIM": 1,
    "INVALID_BLOCK_DIM": 1,
    "TOO_MANY_THREADS": 1,
    "SHARED_MEMORY_LIMIT": 1,
    "ARGUMENT_COUNT": 1,
    "KERNEL_FAULT": 700,
    "STACK_OVERFLOW": 719,
    "ASSERT": 710,
    "TRAP": 715,
    "COOPERATIVE_TOO_LARGE": 720,
    "INVALID_HANDLE": 400,
    "CHECK_REPORT": 719,
}


class CUDADriverError(RuntimeError):
    """cupy.cuda.driver.CUDADriverError: `status` is the CUresult code."""

    def __init__(self, status, detail=None):
        self.status = status
        name, text = _DRIVER_ERRORS.get(status, ("CUDA_ERROR_UNKNOWN",
                                                 "unknown error"))
        message = f"{name}: {text}"
        if detail:
            message += f" ({detail})"
        super().__init__(message)


class CUDARuntimeError(RuntimeError):
    """cupy.cuda.runtime.CUDARuntimeError: `status` is the cudaError code."""

    _NAMES = {
        1: ("cudaErrorInvalidValue", "invalid argument"),
        101: ("cudaErrorInvalidDevice", "invalid device ordinal"),
        400: ("cudaErrorInvalidResourceHandle", "invalid resource handle"),
        600: ("cudaErrorNotReady", "device not ready"),
    }

    def __init__(self, status):
        self.status = status
        name, text = self._NAMES.get(status, ("cudaErrorUnknown", "unknown error"))
        super().__init__(f"{name}: {text}")


class CompileException(Exception):
    """cupy.cuda.compiler.CompileException: the kernel did not compile. The
    message ends with the compiler's log, which `log` holds alone."""

    def __init__(self, msg, source, name, options, log=""):
        self._msg = msg
        self.log = log
        self.source = source
        self.name = name
        self.options = options
        super().__init__(msg)

    def get_message(self):
        return self._msg


class OutOfMemoryError(MemoryError):
    """cupy.cuda.memory.OutOfMemoryError, with CuPy's message."""

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
    code = _STATUS_TO_DRIVER.get(exc.status, 719)
    return CUDADriverError(code, f"cuemu {exc.status}: {exc.message}")


# Shown (and documented) under CuPy's module names.
CUDADriverError.__module__ = "cupy.cuda.driver"
CUDARuntimeError.__module__ = "cupy.cuda.runtime"
CompileException.__module__ = "cupy.cuda.compiler"
OutOfMemoryError.__module__ = "cupy.cuda.memory"
