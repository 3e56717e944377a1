"""cupy.cuda.driver of the fake CuPy (error type and a few queries)."""
from fake_cupy._errors import CUDADriverError

CUDA_ERROR_INVALID_VALUE = 1
CUDA_ERROR_ILLEGAL_ADDRESS = 700
CUDA_ERROR_ASSERT = 710
CUDA_ERROR_ILLEGAL_INSTRUCTION = 715
CUDA_ERROR_LAUNCH_FAILED = 719


def get_build_version():
    return 12000


def driverGetVersion():
    return 12000


def _is_cuda_python():
    """Whether CuPy was built on NVIDIA's cuda-python bindings: not the
    fake (its tests then take the Cython bindings' paths)."""
    return False


__all__ = ["CUDADriverError", "driverGetVersion", "get_build_version"]
