"""cupy.cuda.nvrtc of the fake CuPy: CuPy's thin wrapper of NVRTC (its
cupy_backends.cuda.libs.nvrtc), over libcuemu's NVRTC (cuemu_nvrtc.h).

As CuPy's wrapper does, each function is NVRTC's without the `nvrtc`
prefix, returns its results instead of writing them through pointers, and
raises NVRTCError (a RuntimeError with the result's `status` and the text
"NVRTC_ERROR_COMPILATION (6)") when NVRTC fails. The NVRTC is libcuemu's,
the one a CUDA C program linked with -lnvrtc gets: getVersion gives its
version and getSupportedArchs the architectures -arch accepts, and a
program compiled here gives a cuemu module image (getCUBIN, getPTX), not
NVIDIA's PTX. RawKernel and RawModule do not need any of it: they compile
their code themselves (and let NVIDIA's NVRTC judge it when present, see
_nvrtc.py).
"""
import ctypes

from cuemu import _binding

_vp = ctypes.c_void_p
_int_p = ctypes.POINTER(ctypes.c_int)
_size_p = ctypes.POINTER(ctypes.c_size_t)
_PROTOTYPES = {
    "cuemu_nvrtc_version": [_int_p, _int_p],
    "cuemu_nvrtc_supported_arch_count": [_int_p],
    "cuemu_nvrtc_supported_archs": [_int_p],
    "cuemu_nvrtc_create_program": [ctypes.POINTER(_vp), ctypes.c_char_p,
                                   ctypes.c_char_p, ctypes.c_int,
                                   ctypes.POINTER(ctypes.c_char_p),
                                   ctypes.POINTER(ctypes.c_char_p)],
    "cuemu_nvrtc_destroy_program": [ctypes.POINTER(_vp)],
    "cuemu_nvrtc_add_name_expression": [_vp, ctypes.c_char_p],
    "cuemu_nvrtc_compile_program": [_vp, ctypes.c_int,
                                    ctypes.POINTER(ctypes.c_char_p)],
    "cuemu_nvrtc_get_program_log_size": [_vp, _size_p],
    "cuemu_nvrtc_get_program_log": [_vp, ctypes.c_char_p],
    "cuemu_nvrtc_get_image_size": [_vp, ctypes.c_int, _size_p],
    "cuemu_nvrtc_get_image": [_vp, ctypes.c_int, ctypes.c_char_p],
    "cuemu_nvrtc_get_lowered_name": [_vp, ctypes.c_char_p,
                                     ctypes.POINTER(ctypes.c_char_p)],
}
_lib = None


def _nvrtc():
    """libcuemu with the prototypes of its NVRTC functions declared."""
    global _lib
    if _lib is None:
        lib = _binding.library()
        for name, args in _PROTOTYPES.items():
            getattr(lib, name).argtypes = args
            getattr(lib, name).restype = ctypes.c_int
        lib.cuemu_nvrtc_error_string.argtypes = [ctypes.c_int]
        lib.cuemu_nvrtc_error_string.restype = ctypes.c_char_p
        _lib = lib
    return _lib


class NVRTCError(RuntimeError):
    """An NVRTC call failed: `status` is its nvrtcResult."""

    def __init__(self, status):
        self.status = status
        name = _nvrtc().cuemu_nvrtc_error_string(status).decode()
        super().__init__(f"{name} ({status})")

    def __reduce__(self):
        return (type(self), (self.status,))


NVRTCError.__module__ = "cupy.cuda.nvrtc"


def check_status(status):
    if status != 0:
        raise NVRTCError(status)


def getVersion():
    """(major, minor) of the NVRTC."""
    major, minor = ctypes.c_int(), ctypes.c_int()
    check_status(_nvrtc().cuemu_nvrtc_version(ctypes.byref(major),
                                              ctypes.byref(minor)))
    return major.value, minor.value


def getSupportedArchs():
    """The compute capabilities (times ten) that -arch accepts."""
    count = ctypes.c_int()
    check_status(_nvrtc().cuemu_nvrtc_supported_arch_count(
        ctypes.byref(count)))
    archs = (ctypes.c_int * count.value)()
    check_status(_nvrtc().cuemu_nvrtc_supported_archs(archs))
    return tuple(archs)


def _strings(values):
    """A C array of the strings (the array keeps the bytes alive)."""
    encoded = [v if isinstance(v, bytes) else v.encode() for v in values]
    return (ctypes.c_char_p * max(len(encoded), 1))(*encoded)


def createProgram(src, name, headers, include_names):
    """A program handle (an int) for `src`; `headers` are the texts of the
    headers named by `include_names`."""
    assert len(headers) == len(include_names)
    heads = _strings(headers)
    names = _strings(include_names)
    program = _vp()
    check_status(_nvrtc().cuemu_nvrtc_create_program(
        ctypes.byref(program), src.encode(), name.encode() if name else None,
        len(headers), heads if headers else None,
        names if headers else None))
    return program.value


def destroyProgram(prog):
    handle = _vp(prog)
    check_status(_nvrtc().cuemu_nvrtc_destroy_program(ctypes.byref(handle)))


def compileProgram(prog, options):
    opts = _strings(options)
    check_status(_nvrtc().cuemu_nvrtc_compile_program(
        _vp(prog), len(options), opts if options else None))


def _image(prog, kind):
    size = ctypes.c_size_t()
    check_status(_nvrtc().cuemu_nvrtc_get_image_size(_vp(prog), kind,
                                                      ctypes.byref(size)))
    if size.value == 0:
        return b""
    buf = ctypes.create_string_buffer(size.value)
    check_status(_nvrtc().cuemu_nvrtc_get_image(_vp(prog), kind, buf))
    return buf.raw[:size.value - 1] if kind == 1 else buf.raw


def getPTX(prog):
    """The program's text form (bytes, without the NUL that ends it)."""
    return _image(prog, 1)


def getCUBIN(prog):
    """The program's module image; as CuPy's, a RuntimeError when the
    compile named no real architecture (-arch=sm_XX)."""
    cubin = _image(prog, 0)
    if not cubin:
        raise RuntimeError("cubin is requested, but the real arch (sm_XX) "
                           "is not provided")
    return cubin


def getProgramLog(prog):
    size = ctypes.c_size_t()
    check_status(_nvrtc().cuemu_nvrtc_get_program_log_size(
        _vp(prog), ctypes.byref(size)))
    if size.value <= 1:
        return ""
    buf = ctypes.create_string_buffer(size.value)
    check_status(_nvrtc().cuemu_nvrtc_get_program_log(_vp(prog), buf))
    return buf.value.decode("utf-8", "replace")


def addNameExpression(prog, name):
    check_status(_nvrtc().cuemu_nvrtc_add_name_expression(_vp(prog),
                                                          name.encode()))


def getLoweredName(prog, name):
    lowered = ctypes.c_char_p()
    check_status(_nvrtc().cuemu_nvrtc_get_lowered_name(
        _vp(prog), name.encode(), ctypes.byref(lowered)))
    return lowered.value.decode()


__all__ = ["NVRTCError", "addNameExpression", "check_status",
           "compileProgram", "createProgram", "destroyProgram", "getCUBIN",
           "getLoweredName", "getPTX", "getProgramLog", "getSupportedArchs",
           "getVersion"]
