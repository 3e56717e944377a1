"""cuemu: run CUDA kernels on the CPU from Python, and test them with pytest.

The helpers follow the shapes of the usual kernel-testing utilities, so a
test suite moves over by changing an import:

- emulate_cuda_kernel runs a kernel on NumPy arrays (pointer arguments are
  written back);
- assert_kernels_agree compares a host implementation with the emulated
  kernel (and with the GPU one when the real CuPy and a device are present);
- device_function_kernel wraps a __device__ function in an elementwise
  kernel;
- BACKENDS, the `backend` fixture, parity_cases and check_parity
  parametrise tests;
- the pytest plugin (module and entry point cuemu.pytest_plugin)
  installs the fake CuPy for a whole session when CUEMU_FAKE_CUPY=1;
- check_reports and check_reports_clear read and forget the racecheck and
  initcheck reports that launches went on after (CUEMU_FAKE_CUPY_CHECK).

The ctypes binding to libcuemu is cuemu._binding.
"""
from cuemu._binding import check_reports, check_reports_clear
from cuemu.testing import (KernelPair, ParityCase, assert_kernels_agree,
                           array_module, check_parity, device_function_kernel,
                           emulate_cuda_kernel, gpu_available, parity_cases)

__version__ = "0.1.0"


def __getattr__(name):
    # BACKENDS and the pytest marks need pytest, imported only when used.
    if name in ("BACKENDS", "requires_cupy", "backend"):
        from cuemu import testing
        return getattr(testing, name)
    raise AttributeError(f"module 'cuemu' has no attribute {name!r}")


__all__ = ["BACKENDS", "KernelPair", "ParityCase", "array_module",
           "assert_kernels_agree", "backend", "check_parity", "check_reports",
           "check_reports_clear",
           "device_function_kernel", "emulate_cuda_kernel", "gpu_available",
           "parity_cases", "requires_cupy"]
