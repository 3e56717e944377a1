"""cupy.cuda.curand of the fake CuPy: cuRAND's constants, CURANDError and
getVersion (cupy_backends/cuda/libs/curand.pyx).

Programs name a generator type for RandomState(method=...)
(cupy.cuda.curand.CURAND_RNG_PSEUDO_XORWOW) and print the library version
in their configuration reports (getVersion, CURANDError). getVersion asks
libcuemu's cuRAND (libcuemu_curand.so, the library -lcurand links). The
host API calls (createGenerator, generateUniform, ...) are not bound: the
fake's arrays live outside libcuemu's runtime allocations that its cuRAND
writes to; cupy.random draws with NumPy instead.
"""
import ctypes

CURAND_RNG_PSEUDO_DEFAULT = 100
CURAND_RNG_PSEUDO_XORWOW = 101
CURAND_RNG_PSEUDO_MRG32K3A = 121
CURAND_RNG_PSEUDO_MTGP32 = 141
CURAND_RNG_PSEUDO_MT19937 = 142
CURAND_RNG_PSEUDO_PHILOX4_32_10 = 161
CURAND_RNG_QUASI_DEFAULT = 200
CURAND_RNG_QUASI_SOBOL32 = 201
CURAND_RNG_QUASI_SCRAMBLED_SOBOL32 = 202
CURAND_RNG_QUASI_SOBOL64 = 203
CURAND_RNG_QUASI_SCRAMBLED_SOBOL64 = 204

CURAND_ORDERING_PSEUDO_BEST = 100
CURAND_ORDERING_PSEUDO_DEFAULT = 101
CURAND_ORDERING_PSEUDO_SEEDED = 102
CURAND_ORDERING_QUASI_DEFAULT = 201

CURAND_DIRECTION_VECTORS_32_JOEKUO6 = 101
CURAND_SCRAMBLED_DIRECTION_VECTORS_32_JOEKUO6 = 102
CURAND_DIRECTION_VECTORS_64_JOEKUO6 = 103
CURAND_SCRAMBLED_DIRECTION_VECTORS_64_JOEKUO6 = 104

STATUS = {
    0: "CURAND_STATUS_SUCCESS",
    100: "CURAND_STATUS_VERSION_MISMATCH",
    101: "CURAND_STATUS_NOT_INITIALIZED",
    102: "CURAND_STATUS_ALLOCATION_FAILED",
    103: "CURAND_STATUS_TYPE_ERROR",
    104: "CURAND_STATUS_OUT_OF_RANGE",
    105: "CURAND_STATUS_LENGTH_NOT_MULTIPLE",
    106: "CURAND_STATUS_DOUBLE_PRECISION_REQUIRED",
    201: "CURAND_STATUS_LAUNCH_FAILURE",
    202: "CURAND_STATUS_PREEXISTING_FAILURE",
    203: "CURAND_STATUS_INITIALIZATION_FAILED",
    204: "CURAND_STATUS_ARCH_MISMATCH",
    999: "CURAND_STATUS_INTERNAL_ERROR",
}

# The generator types createGenerator (and so RandomState) accepts.
RNG_TYPES = (CURAND_RNG_PSEUDO_DEFAULT, CURAND_RNG_PSEUDO_XORWOW,
             CURAND_RNG_PSEUDO_MRG32K3A, CURAND_RNG_PSEUDO_MTGP32,
             CURAND_RNG_PSEUDO_MT19937, CURAND_RNG_PSEUDO_PHILOX4_32_10,
             CURAND_RNG_QUASI_DEFAULT, CURAND_RNG_QUASI_SOBOL32,
             CURAND_RNG_QUASI_SCRAMBLED_SOBOL32, CURAND_RNG_QUASI_SOBOL64,
             CURAND_RNG_QUASI_SCRAMBLED_SOBOL64)


class CURANDError(RuntimeError):
    """A cuRAND status other than success; `status` is its number."""

    def __init__(self, status):
        self.status = status
        super().__init__(STATUS.get(status, f"CURAND_STATUS_{status}"))

    def __reduce__(self):
        return (type(self), (self.status,))


def check_status(status):
    if status != 0:
        raise CURANDError(status)


def getVersion():
    """libcuemu's cuRAND version (curandGetVersion)."""
    from cuemu import _binding
    library = _binding.companion("libcuemu_curand.so")
    version = ctypes.c_int()
    check_status(library.curandGetVersion(ctypes.byref(version)))
    return version.value
