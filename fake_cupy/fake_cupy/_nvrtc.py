"""NVRTC, when it is present, as the judge of what CuPy would compile.

CuPy compiles RawKernel and RawModule code with NVRTC; code that NVRTC
refuses (a host-only call such as abort() or exit(), a missing extern "C"
that the caller relies on, a C++ feature NVRTC lacks) raises CuPy's
CompileException with NVRTC's log. The fake compiles the same code with
NVRTC first, with the user's options and those CuPy adds (the target
architecture, CuPy's header folder and the toolkit's include folder), so
that what CuPy refuses is refused here too, with the same log; libcuemu
then compiles the code it runs.

libnvrtc is loaded with ctypes: CUEMU_NVRTC_LIBRARY names it, else
libnvrtc.so from the loader's path, CUDA_PATH or /usr/local/cuda.
CUEMU_FAKE_CUPY_NVRTC=0 turns the check off; without NVRTC, libcuemu's own
errors are raised in the same exception type.

As CuPy's kernel cache outlives a process (a program that compiled once
is loaded from the cache, without NVRTC), so does what NVRTC made of a
program it compiled: its log, PTX and lowered names are kept in
libcuemu's cache folder (CUEMU_CACHE_DIR/fake_cupy/nvrtc/KEY.json, the
key covering the code, the options, the name expressions, the file name,
NVRTC's library and version and the fake's own headers), and the next
process takes them from there. A refusal is never kept: it is judged
again each time. As with CuPy's cache, the user's headers that the code
includes are not part of the key.
"""
import ctypes
import functools
import hashlib
import json
import os
import re
import tempfile
import threading

_lock = threading.Lock()


def _cuda_path():
    for var in ("CUDA_PATH", "CUDA_HOME"):
        if os.environ.get(var):
            return os.environ[var]
    return "/usr/local/cuda"


@functools.lru_cache(maxsize=None)
def library():
    """The loaded libnvrtc with the prototypes used here, or None."""
    if os.environ.get("CUEMU_FAKE_CUPY_NVRTC", "1") == "0":
        return None
    names = []
    if os.environ.get("CUEMU_NVRTC_LIBRARY"):
        names.append(os.environ["CUEMU_NVRTC_LIBRARY"])
    for lib in ("lib64", "lib"):
        names.append(os.path.join(_cuda_path(), lib, "libnvrtc.so"))
    names += ["libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12"]
    lib = None
    for name in names:
        try:
            lib = ctypes.CDLL(name)
            break
        except OSError:
            continue
    if lib is None:
        return None
    vp, sz = ctypes.c_void_p, ctypes.c_size_t
    proto = {
        "nvrtcCreateProgram": [ctypes.POINTER(vp), ctypes.c_char_p,
                               ctypes.c_char_p, ctypes.c_int,
                               ctypes.c_void_p, ctypes.c_void_p],
        "nvrtcCompileProgram": [vp, ctypes.c_int,
                                ctypes.POINTER(ctypes.c_char_p)],
        "nvrtcGetProgramLogSize": [vp, ctypes.POINTER(sz)],
        "nvrtcGetProgramLog": [vp, ctypes.c_char_p],
        "nvrtcGetPTXSize": [vp, ctypes.POINTER(sz)],
        "nvrtcGetPTX": [vp, ctypes.c_char_p],
        "nvrtcAddNameExpression": [vp, ctypes.c_char_p],
        "nvrtcGetLoweredName": [vp, ctypes.c_char_p,
                                ctypes.POINTER(ctypes.c_char_p)],
        "nvrtcDestroyProgram": [ctypes.POINTER(vp)],
        "nvrtcVersion": [ctypes.POINTER(ctypes.c_int),
                         ctypes.POINTER(ctypes.c_int)],
    }
    try:
        for fn, args in proto.items():
            getattr(lib, fn).argtypes = args
            getattr(lib, fn).restype = ctypes.c_int
        lib.nvrtcGetErrorString.restype = ctypes.c_char_p
        lib.nvrtcGetErrorString.argtypes = [ctypes.c_int]
    except AttributeError:
        return None
    return lib


def available():
    return library() is not None


def version():
    """(major, minor) of NVRTC, or None."""
    lib = library()
    if lib is None:
        return None
    major, minor = ctypes.c_int(), ctypes.c_int()
    lib.nvrtcVersion(ctypes.byref(major), ctypes.byref(minor))
    return major.value, minor.value


class Result:
    """What NVRTC made of a program: its PTX, log, the kernels it defines
    (PTX entry names: a kernel without extern "C" has a mangled one) and
    the lowered names of the name expressions."""

    def __init__(self, ptx, log, lowered):
        self.ptx = ptx
        self.log = log
        self.lowered = lowered
        self.entries = set(re.findall(r"\.entry\s+([A-Za-z_$][\w$]*)", ptx))


class Failure(Exception):
    """NVRTC refused the program: `log` is its log, `status` its text."""

    def __init__(self, status, log):
        super().__init__(status)
        self.status = status
        self.log = log


_cache = {}


@functools.lru_cache(maxsize=None)
def _own_headers():
    """A digest of the fake's own headers (cupy/carray.cuh, ...), which
    every program may include: a change to them is a new key."""
    digest = hashlib.sha256()
    top = os.path.join(os.path.dirname(os.path.abspath(__file__)), "include")
    for folder, dirs, files in sorted(os.walk(top)):
        dirs.sort()
        for name in sorted(files):
            digest.update(name.encode())
            with open(os.path.join(folder, name), "rb") as f:
                digest.update(f.read())
    return digest.hexdigest()


def _kept_path(key):
    """The file that keeps the Result of `key` between processes, or None
    when libcuemu's cache folder cannot be used."""
    from cuemu import _binding
    base = _binding.cache_dir()
    if base is None:
        return None
    lib = library()
    digest = hashlib.sha256(repr((key, getattr(lib, "_name", None),
                                  version(), _own_headers())).encode(
        "utf-8", errors="surrogateescape")).hexdigest()[:32]
    return os.path.join(base, "fake_cupy", "nvrtc", digest + ".json")


def _read_kept(path):
    try:
        with open(path, encoding="utf-8") as f:
            kept = json.load(f)
        return Result(kept["ptx"], kept["log"], kept["lowered"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _keep(path, result):
    """Writes `result` to `path` through a temporary file and a rename, so
    that processes keeping the same program at once never read a part."""
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path),
                                   suffix=".json.tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump({"ptx": result.ptx, "log": result.log,
                       "lowered": result.lowered}, f)
        os.replace(tmp, path)
    except OSError:
        pass


def compile(code, options, name_expressions=(), name="kernel.cu"):
    """Compiles with NVRTC; returns a Result, raises Failure, or returns
    None when NVRTC is absent. Results are cached per process, and a
    success between processes (see the module's docstring)."""
    lib = library()
    if lib is None:
        return None
    key = (code, tuple(options), tuple(name_expressions), name)
    with _lock:
        if key in _cache:
            result = _cache[key]
            if isinstance(result, Failure):
                # A fresh exception each time: a raised one keeps the
                # frames it went through (and their locals) alive.
                raise Failure(result.status, result.log)
            return result
        kept_path = _kept_path(key)
        kept = _read_kept(kept_path) if kept_path else None
        if kept is not None:
            _cache[key] = kept
            return kept
        prog = ctypes.c_void_p()
        status = lib.nvrtcCreateProgram(ctypes.byref(prog),
                                        code.encode("utf-8", "surrogateescape"),
                                        name.encode(), 0, None, None)
        if status != 0:
            return None
        try:
            for expr in name_expressions:
                lib.nvrtcAddNameExpression(prog, expr.encode())
            argv = (ctypes.c_char_p * max(1, len(options)))(
                *[o.encode() for o in options])
            status = lib.nvrtcCompileProgram(prog, len(options), argv)
            size = ctypes.c_size_t()
            lib.nvrtcGetProgramLogSize(prog, ctypes.byref(size))
            buf = ctypes.create_string_buffer(size.value + 1)
            lib.nvrtcGetProgramLog(prog, buf)
            log = buf.value.decode("utf-8", errors="replace")
            if status != 0:
                failure = Failure(lib.nvrtcGetErrorString(status).decode(), log)
                _cache[key] = failure
                raise Failure(failure.status, failure.log)
            lib.nvrtcGetPTXSize(prog, ctypes.byref(size))
            buf = ctypes.create_string_buffer(size.value + 1)
            lib.nvrtcGetPTX(prog, buf)
            ptx = buf.value.decode("utf-8", errors="replace")
            lowered = {}
            for expr in name_expressions:
                out = ctypes.c_char_p()
                if lib.nvrtcGetLoweredName(prog, expr.encode(),
                                           ctypes.byref(out)) == 0:
                    lowered[expr] = out.value.decode()
        finally:
            lib.nvrtcDestroyProgram(ctypes.byref(prog))
        result = _cache[key] = Result(ptx, log, lowered)
        if kept_path:
            _keep(kept_path, result)
        return result
