"""cupy.cuda.curand of the fake CuPy: cuRAND's constants, CURANDError and
the thin wrapper of cuRAND's host API (cupy_backends/cuda/libs/curand.pyx).

Programs name a generator type for RandomState(method=...), print the
library version in their configuration reports (getVersion), and fill
cupy arrays through the generator calls as CuPy's own RandomState does:
`g = createGenerator(t)`, `setPseudoRandomGeneratorSeed(g, seed)`,
`generateUniform(g, x.data.ptr, x.size)`, `destroyGenerator(g)`.

The calls go to libcuemu's cuRAND (libcuemu_curand.so, the library
-lcurand links). The fake's arrays are host memory outside libcuemu's
runtime allocations, so each generator is one of cuRAND's host generators
(curandCreateGeneratorHost), whose sequences are the device generators';
a generation waits for the queued work of the current device (as the
fake's other blocking copies do) and then writes at once, so that it is
ordered after the kernels issued before it and before those issued after
it, as on the stream CuPy gives it. Handles are checked: one that
createGenerator did not give, or that destroyGenerator took back, is
CURAND_STATUS_NOT_INITIALIZED (NVIDIA's cuRAND would read freed memory).
A span past the array behind the pointer is refused before cuRAND's own
checks, as CUDA_ERROR_ILLEGAL_ADDRESS naming the call: on a GPU the
generator's kernel faults there.
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
    """A cuRAND status other than success; `status` is its number. The
    message is CuPy's: "cuRAND Error: CURAND_STATUS_TYPE_ERROR"."""

    def __init__(self, status):
        self.status = status
        super().__init__("cuRAND Error: "
                         + STATUS.get(status, f"CURAND_STATUS_{status}"))

    def __reduce__(self):
        return (type(self), (self.status,))


def check_status(status):
    if status != 0:
        raise CURANDError(status)


def _library():
    """libcuemu's cuRAND, its prototypes declared (loaded once)."""
    global _lib
    if _lib is not None:
        return _lib
    from cuemu import _binding
    lib = _binding.companion("libcuemu_curand.so")
    vp, size, ull = ctypes.c_void_p, ctypes.c_size_t, ctypes.c_ulonglong
    prototypes = {
        "curandGetVersion": (ctypes.POINTER(ctypes.c_int),),
        "curandCreateGeneratorHost": (ctypes.POINTER(vp), ctypes.c_int),
        "curandDestroyGenerator": (vp,),
        "curandSetPseudoRandomGeneratorSeed": (vp, ull),
        "curandSetGeneratorOffset": (vp, ull),
        "curandSetGeneratorOrdering": (vp, ctypes.c_int),
        "curandGenerate": (vp, vp, size),
        "curandGenerateLongLong": (vp, vp, size),
        "curandGenerateUniform": (vp, vp, size),
        "curandGenerateUniformDouble": (vp, vp, size),
        "curandGenerateNormal": (vp, vp, size, ctypes.c_float,
                                 ctypes.c_float),
        "curandGenerateNormalDouble": (vp, vp, size, ctypes.c_double,
                                       ctypes.c_double),
        "curandGenerateLogNormal": (vp, vp, size, ctypes.c_float,
                                    ctypes.c_float),
        "curandGenerateLogNormalDouble": (vp, vp, size, ctypes.c_double,
                                          ctypes.c_double),
        "curandGeneratePoisson": (vp, vp, size, ctypes.c_double),
    }
    for name, argtypes in prototypes.items():
        function = getattr(lib, name)
        function.argtypes = argtypes
        function.restype = ctypes.c_int
    _lib = lib
    return lib


_lib = None

# The live generators: handle -> the stream setStream last gave (recorded
# only; every generation waits for the device's queued work).
_generators = {}


def _unsigned(value, bits, ctype):
    """An argument of a cpdef's unsigned C type, converted as Cython does:
    an integer (`TypeError` otherwise) that fits (`OverflowError`)."""
    import operator
    value = operator.index(value)
    if value < 0:
        raise OverflowError(f"can't convert negative value to {ctype}")
    if value >> bits:
        raise OverflowError(f"value too large to convert to {ctype}")
    return value


def _size_t(value):
    return _unsigned(value, 64, "size_t")


def _c_float(value):
    """A `float` parameter of curand.pyx: a C float, so that even the
    double generators' mean and stddev are rounded to single precision."""
    return ctypes.c_float(float(value)).value


def _handle(generator):
    handle = _size_t(generator)
    if handle not in _generators:
        raise CURANDError(101)
    return handle


def createGenerator(rng_type):
    """curandCreateGenerator: the handle of a new generator of `rng_type`."""
    handle = ctypes.c_void_p()
    check_status(_library().curandCreateGeneratorHost(ctypes.byref(handle),
                                                      int(rng_type)))
    _generators[handle.value] = None
    return handle.value


def destroyGenerator(generator):
    handle = _handle(generator)
    status = _library().curandDestroyGenerator(handle)
    del _generators[handle]
    check_status(status)


def getVersion():
    """libcuemu's cuRAND version (curandGetVersion)."""
    version = ctypes.c_int()
    check_status(_library().curandGetVersion(ctypes.byref(version)))
    return version.value


def setStream(generator, stream):
    _generators[_handle(generator)] = _size_t(stream)


def setPseudoRandomGeneratorSeed(generator, seed):
    check_status(_library().curandSetPseudoRandomGeneratorSeed(
        _handle(generator), _unsigned(seed, 64, "unsigned PY_LONG_LONG")))


def setGeneratorOffset(generator, offset):
    check_status(_library().curandSetGeneratorOffset(
        _handle(generator), _unsigned(offset, 64, "unsigned PY_LONG_LONG")))


def setGeneratorOrdering(generator, order):
    check_status(_library().curandSetGeneratorOrdering(_handle(generator),
                                                       int(order)))


def _generate(name, element, generator, output, n, *parameters):
    """Calls cuRAND's `name` to write `n` values of `element` bytes at
    address `output`, which must lie in one of the fake's allocations."""
    from fake_cupy import _errors, _memory
    handle, output, n = _handle(generator), _size_t(output), _size_t(n)
    if n:
        mem = _memory.owner_of(output)
        if output % element:
            raise _errors.CUDADriverError(716, (
                f"{name}: outputPtr ({output:#x}) is not aligned to the "
                f"{element} bytes of its element type"))
        if mem is None or output + n * element > mem.ptr + mem.size:
            where = ("is not the fake's device memory" if mem is None else
                     f"spans {n * element} bytes, past the end of its "
                     f"allocation ({mem.size} bytes at {mem.ptr:#x})")
            raise _errors.CUDADriverError(700, (
                f"{name}: outputPtr ({output:#x}) {where}: an illegal "
                "memory access on a GPU"))
    status = []
    _memory.MemoryPointer._now(
        lambda: status.append(getattr(_library(), name)(handle, output, n,
                                                        *parameters)))
    check_status(status[0])


def _even(name, n):
    """CuPy refuses an odd count of normals before cuRAND sees it."""
    if _size_t(n) % 2 == 1:
        raise ValueError(f"{name} can only generate even number of random "
                         "variables simultaneously. See issue #390 for "
                         "detail.")


def generate(generator, outputPtr, num):
    _generate("curandGenerate", 4, generator, outputPtr, num)


def generateLongLong(generator, outputPtr, num):
    _generate("curandGenerateLongLong", 8, generator, outputPtr, num)


def generateUniform(generator, outputPtr, num):
    _generate("curandGenerateUniform", 4, generator, outputPtr, num)


def generateUniformDouble(generator, outputPtr, num):
    _generate("curandGenerateUniformDouble", 8, generator, outputPtr, num)


def generateNormal(generator, outputPtr, n, mean, stddev):
    _even("curandGenerateNormal", n)
    _generate("curandGenerateNormal", 4, generator, outputPtr, n,
              _c_float(mean), _c_float(stddev))


def generateNormalDouble(generator, outputPtr, n, mean, stddev):
    _even("curandGenerateNormalDouble", n)
    _generate("curandGenerateNormalDouble", 8, generator, outputPtr, n,
              _c_float(mean), _c_float(stddev))


def generateLogNormal(generator, outputPtr, n, mean, stddev):
    _even("curandGenerateLogNormal", n)
    _generate("curandGenerateLogNormal", 4, generator, outputPtr, n,
              _c_float(mean), _c_float(stddev))


def generateLogNormalDouble(generator, outputPtr, n, mean, stddev):
    _even("curandGenerateLogNormalDouble", n)
    _generate("curandGenerateLogNormalDouble", 8, generator, outputPtr, n,
              _c_float(mean), _c_float(stddev))


def generatePoisson(generator, outputPtr, n, lam):
    _generate("curandGeneratePoisson", 4, generator, outputPtr, n,
              float(lam))
