"""cupy.RawKernel and cupy.RawModule, compiled and run by libcuemu.

Arguments are converted as CuPy converts them: a fake ndarray becomes the
address of its data; None raises CuPy's TypeError ("Unsupported type");
NumPy scalars are passed by value as their dtype; Python bool, int, float
and complex become bool, long long (unsigned long long from 2**63), double
and complex double (a Python int fits any integer parameter whose range
holds it, as the driver copies the parameter's bytes; an out-of-range one
raises OverflowError naming the parameter); a NumPy array of size one is
passed by value as its dtype, and a larger one raises CuPy's TypeError. Structured NumPy scalars (numpy.void) and ctypes structures are
passed by value as their bytes, for struct parameters.

Strict mode (the default; CUEMU_FAKE_CUPY_STRICT=0 or set_strict(False)
turns it off) checks every launch against the kernel's parameter
descriptor and raises TypeError naming the parameter for too few arguments, a
scalar of another size or kind, a pointer for a scalar (or the reverse) and
an array whose dtype differs from the pointed-to type: on a GPU such a call
silently reads garbage. An 8-byte integer (such as a.data.ptr) is accepted
for a pointer, as it is a valid address on a GPU too. Arguments beyond the
kernel's parameters are ignored, as cuLaunchKernel reads only as many as the
kernel has (strict mode warns of them, RuntimeWarning).

Code is compiled by NVRTC first when NVRTC is present (see
fake_cupy._nvrtc), so that what CuPy refuses raises CompileException with
NVRTC's log, then by libcuemu, which runs it. CuPy's headers
(<cupy/complex.cuh>, <cupy/cuComplex_bridge.h>, <cupy/carray.cuh>) are on
both include paths.

Where the fake differs: libcuemu sees only the NVRTC options -D, -U, -I,
-std and -G/--device-debug; `path` may name a CUDA source file or a module
built by cuemu-cc --module instead of a cubin or PTX file.
"""
import atexit
import ctypes
import hashlib
import linecache
import operator
import os
import re
import shutil
import sys
import tempfile
import threading
import warnings

import numpy

from cuemu import _binding, _device
from fake_cupy import _errors, _memory, _nvrtc, _runtime, _texture
from fake_cupy._ndarray import ndarray

_strict = os.environ.get("CUEMU_FAKE_CUPY_STRICT", "1") != "0"
_PACKAGE_DIRS = (os.path.dirname(os.path.abspath(__file__)),
                 os.path.dirname(os.path.abspath(_binding.__file__)))


def set_strict(on):
    """Turns strict argument checking on or off; returns the old setting."""
    global _strict
    old, _strict = _strict, bool(on)
    return old


# ---- compiling ---------------------------------------------------------------

_work_dir = None
_work_lock = threading.Lock()
_compile_lock = threading.Lock()
_modules = {}


def _workdir():
    global _work_dir
    with _work_lock:
        if _work_dir is None:
            _work_dir = tempfile.mkdtemp(prefix="fake_cupy-")
            atexit.register(shutil.rmtree, _work_dir, True)
        return _work_dir


def _source_folder(key):
    """Where the source of the compile keyed `key` is written: a folder of
    libcuemu's compile cache named after the key, so that every process
    compiles the same code from the same path and the cache's entry (whose
    key holds the source's path) is found again, as CuPy's kernel cache
    outlives a process; this process's own folder when the cache folder
    cannot be used."""
    base = _binding.cache_dir()
    if base is not None:
        folder = os.path.join(base, "fake_cupy", key)
        try:
            os.makedirs(folder, exist_ok=True)
            return folder
        except OSError:
            pass
    folder = os.path.join(_workdir(), key)
    os.makedirs(folder, exist_ok=True)
    return folder


# The fake's packages, whose frames _code_label passes over.
_PACKAGES = tuple(os.path.dirname(os.path.abspath(f)) + os.sep
                  for f in (__file__, _binding.__file__))


def _code_label(code):
    """Where the user's program holds `code`: (its Python file, the line of
    the code's first line there), found by looking for the code string in
    the file of the first caller outside the fake (a literal written as it
    is, an r'''...''' string say); None when the file does not hold it as
    written (code built at run time, or with escapes), or is no file."""
    frame = sys._getframe(1)
    while frame is not None and os.path.abspath(
            frame.f_code.co_filename).startswith(_PACKAGES):
        frame = frame.f_back
    if frame is None or not code:
        return None
    path = os.path.abspath(frame.f_code.co_filename)
    if not os.path.isfile(path):
        return None
    text = "".join(linecache.getlines(path))
    at = text.find(code)
    if at < 0:
        return None
    return path, text.count("\n", 0, at) + 1


def _labelled(code, label):
    """`code` after a #line directive naming its place in the user's files,
    `label` = (path, line of its first line), so that the compiler's
    messages and the checkers' reports name the user's file and line
    instead of the code's copy in the cache (which they name without a
    label, as for generated code)."""
    if label is None:
        return code
    path, line = label
    quoted = path.replace("\\", "\\\\").replace('"', '\\"')
    return f'#line {line} "{quoted}"\n{code}'


def _write_source(key, source_name, code):
    """Writes `code` as `source_name` in _source_folder(key) and returns its
    path. The file is replaced only when its contents differ, through a
    temporary file and a rename, so that processes compiling the same code
    at once never read a partly written file."""
    src = os.path.join(_source_folder(key), source_name)
    data = code.encode("utf-8", errors="surrogateescape")
    try:
        with open(src, "rb") as f:
            if f.read() == data:
                return src
    except OSError:
        pass
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(src), suffix=".cu.tmp")
    with os.fdopen(fd, "wb") as f:
        f.write(data)
    os.replace(tmp, src)
    return src


def _translate_options(options):
    """NVRTC options -> (options for cuemu-cc, debug). NVRTC trims the
    spaces around each option (' -I dir' works), so this does too."""
    out, debug = [], False
    options = [o.strip() for o in options]
    i = 0
    while i < len(options):
        opt = options[i]
        i += 1
        if opt in ("-G", "--device-debug"):
            debug = True
        elif opt.startswith("--std=") or opt.startswith("-std="):
            out.append("-std=" + opt.split("=", 1)[1])
        elif opt.startswith("--include-path="):
            out.append("-I" + opt.split("=", 1)[1])
        elif opt.startswith("--define-macro="):
            out.append("-D" + opt.split("=", 1)[1])
        elif opt in ("-I", "-D", "-U") and i < len(options):
            out.append(opt + options[i])
            i += 1
        elif opt[:2] in ("-I", "-D", "-U"):
            out.append(opt)
    return out, debug


INCLUDE_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                           "include")


def _nvrtc_options(options, include_dir, cooperative):
    """The options CuPy gives NVRTC: the user's, the target architecture
    (the emulated device's) unless given, CuPy's header folder and the
    toolkit's include folder, and -rdc=true for cooperative groups."""
    out = list(options)
    if not any(o.startswith(("-arch", "--gpu-architecture")) for o in out):
        major, minor = _runtime.compute_capability()
        out.append(f"-arch=compute_{major}{minor}")
    if cooperative and not any(o.startswith(("-rdc", "--relocatable-device-code", "-dc"))
                               for o in out):
        out.append("-rdc=true")
    out.append("-I" + INCLUDE_DIR)
    if include_dir:
        out.append("-I" + include_dir)
    cuda_include = os.path.join(_nvrtc._cuda_path(), "include")
    out.append("-I" + cuda_include)
    if os.path.isdir(os.path.join(cuda_include, "cccl")):
        out.append("-I" + os.path.join(cuda_include, "cccl"))
    return out


def _check_with_nvrtc(code, options, name_expressions, source_name,
                      include_dir, cooperative, label=None):
    """Compiles with NVRTC when it is present (see fake_cupy._nvrtc);
    raises CuPy's CompileException with NVRTC's log when NVRTC refuses the
    code. Returns the NVRTC result, or None without NVRTC. With a `label`
    NVRTC compiles the code after its #line directive (_labelled), so that
    its messages name the line of the user's Python file, not the line
    within the code string of a "kernel.cu" the user never wrote."""
    nv_options = _nvrtc_options(options, include_dir, cooperative)
    try:
        return _nvrtc.compile(_labelled(code, label), nv_options,
                              name_expressions, source_name)
    except _nvrtc.Failure as f:
        raise _errors.CompileException(f.log, code, source_name,
                                       tuple(options), log=f.log,
                                       backend="nvrtc") from None


_HOST_ONLY = re.compile(r"(?<![\w.>:])(abort|exit|_Exit|quick_exit|system)\s*\(")


def _refuse_host_only_calls(code, source_name, options):
    """Without NVRTC: the host-only calls that NVRTC does not know (and
    that would end the interpreter here) raise CompileException with the
    error NVRTC gives for them."""
    text = re.sub(r"//[^\n]*|/\*.*?\*/",
                  lambda m: re.sub(r"[^\n]", " ", m.group(0)), code, flags=re.S)
    text = re.sub(r'"(?:\\.|[^"\\])*"', '""', text)
    m = _HOST_ONLY.search(text)
    if m is None:
        return
    line = text.count("\n", 0, m.start()) + 1
    log = (f'{source_name}({line}): error: identifier "{m.group(1)}" is '
           f"undefined\n\n1 error detected in the compilation of "
           f'"{source_name}".\n')
    raise _errors.CompileException(log, code, source_name, tuple(options),
                                   log=log, backend="nvrtc")


def _compile(code, options, name_expressions, source_name="kernel.cu",
             checks=None, kernel_name=None, include_dir=None,
             backend="nvrtc", cooperative=False, log_stream=None,
             jitify=False, label=None):
    """_compile_code, whose errors are JitifyException's with jitify=True
    (as CuPy reports what Jitify's compilation refuses)."""
    try:
        return _compile_code(code, options, name_expressions, source_name,
                             checks, kernel_name, include_dir, backend,
                             cooperative, log_stream, label)
    except _errors.CompileException as e:
        if jitify:
            raise _errors.JitifyException(str(e)) from None
        raise


def _compile_code(code, options, name_expressions, source_name="kernel.cu",
                  checks=None, kernel_name=None, include_dir=None,
                  backend="nvrtc", cooperative=False, log_stream=None,
                  label=None):
    """Compiles `code` once per process and returns the loaded Module.

    With the nvrtc backend the code is first compiled by NVRTC when it is
    present, so that what CuPy refuses is refused with NVRTC's log; the
    module's `nvrtc_entries` are then the kernels NVRTC exports (a kernel
    without extern "C" has a mangled name there), else None.

    Thread-safe: one lock serializes compiles (the compiler's stderr is
    captured around each, so they cannot overlap), the source is written to
    a temporary file and renamed into place, and a module is cached only
    when it holds the kernel asked for (`kernel_name`), or any kernel when
    the source defines one, so that a failed or partial compile is never
    remembered. `include_dir` is put on the include path, so that a file
    given by path keeps its relative includes. `label` names the source in
    libcuemu's compile and in the checkers' reports (_labelled); without
    it they name the copy in the cache, as for generated code."""
    argv, debug = _translate_options(options)
    argv.append("-I" + INCLUDE_DIR)
    if include_dir:
        argv.append("-I" + include_dir)
    if os.environ.get("CUEMU_FAKE_CUPY_DEBUG") == "1":
        debug = True
    checks = checks or os.environ.get("CUEMU_FAKE_CUPY_CHECK") or None
    key = hashlib.sha256(repr((code, argv, tuple(options),
                               tuple(name_expressions), debug, checks,
                               backend, cooperative, include_dir,
                               label)).encode()
                         ).hexdigest()[:24]
    module = _modules.get(key)
    if module is not None:
        if log_stream is not None and module.compile_log:
            log_stream.write(module.compile_log)
        return module
    nv = None
    if backend == "nvrtc":
        nv = _check_with_nvrtc(code, options, name_expressions, source_name,
                               include_dir, cooperative, label)
    if nv is None:
        _refuse_host_only_calls(code, source_name, options)
    with _compile_lock:
        module = _modules.get(key)
        if module is not None:
            return module
        src = _write_source(key, source_name, _labelled(code, label))
        folder = os.path.join(_workdir(), key)
        os.makedirs(folder, exist_ok=True)
        out = os.path.join(folder, "module.so")
        log = _StderrCapture()
        try:
            with log:
                _binding.compile_module(src, out, argv, name_expressions,
                                        debug=debug, checks=checks)
            module = _binding.Module(out)
        except _binding.CuemuError as e:
            raise _errors.CompileException(
                str(e) + ("\n" + log.text if log.text else ""), code,
                source_name, tuple(options), log=log.text,
                backend=backend) from None
        module.nvrtc_entries = nv.entries if nv is not None else None
        # As CuPy's: a successful compile prints nothing; its log (NVRTC's
        # warnings, then libcuemu's notes and the C++ compiler's warnings)
        # goes to log_stream when one is given, and a failed compile's log
        # is in the CompileException.
        module.compile_log = (nv.log if nv is not None else "") + log.text
        if log_stream is not None:
            log_stream.write(module.compile_log)
        if _holds_kernel(module, code, kernel_name):
            _modules[key] = module
        return module


def _holds_kernel(module, code, kernel_name):
    """Whether a compiled module is complete enough to cache."""
    names = module.kernel_names()
    if kernel_name is not None and "<" not in kernel_name:
        return kernel_name in names
    return bool(names) or "__global__" not in code


class _StderrCapture:
    """Captures file descriptor 2 (where the compiler's diagnostics go)
    into `text`, as the parity runner does around its compiles."""

    def __init__(self):
        self.text = ""

    def __enter__(self):
        sys.stderr.flush()
        self._file = tempfile.TemporaryFile()
        self._saved = os.dup(2)
        os.dup2(self._file.fileno(), 2)
        return self

    def __exit__(self, *exc):
        sys.stderr.flush()
        os.dup2(self._saved, 2)
        os.close(self._saved)
        self._file.seek(0)
        self.text = self._file.read().decode("utf-8", errors="replace")
        self._file.close()
        return False


# ---- argument conversion -----------------------------------------------------

_INT_TYPES = {
    "bool": "b", "char": "i", "signed char": "i", "unsigned char": "u",
    "short": "i", "short int": "i", "unsigned short": "u", "unsigned short int": "u",
    "int": "i", "signed int": "i", "signed": "i", "unsigned int": "u",
    "unsigned": "u", "long": "i", "long int": "i", "unsigned long": "u",
    "unsigned long int": "u", "long long": "i", "long long int": "i",
    "unsigned long long": "u", "unsigned long long int": "u",
    "int8_t": "i", "int16_t": "i", "int32_t": "i", "int64_t": "i",
    "uint8_t": "u", "uint16_t": "u", "uint32_t": "u", "uint64_t": "u",
    "size_t": "u", "ptrdiff_t": "i",
    "float": "f", "double": "f", "__half": "f", "half": "f",
    # CuPy's float16 (cupy/carray.cuh), the float16 dtype's C type in the
    # code that ElementwiseKernel, cupy.fuse and cupyx.jit generate.
    "float16": "f",
}
_COMPLEX_TYPES = {"cuComplex": 8, "cuFloatComplex": 8, "cuDoubleComplex": 16,
                  "complex<float>": 8, "complex<double>": 16,
                  "thrust::complex<float>": 8, "thrust::complex<double>": 16,
                  "cuda::std::complex<float>": 8,
                  "cuda::std::complex<double>": 16}


def _base_type(ctype):
    words = [w for w in ctype.replace("*", " ").split()
             if w not in ("const", "volatile", "__restrict__", "restrict",
                          "struct")]
    return " ".join(words).replace("std::", "") if words else ""


def _kind_of(ctype):
    """'i', 'u', 'f', 'b', 'c' (complex) or None (a struct or unknown)."""
    base = _base_type(ctype)
    if base in _INT_TYPES:
        return _INT_TYPES[base]
    if base in _COMPLEX_TYPES or base.replace(" ", "") in _COMPLEX_TYPES:
        return "c"
    return None


class _Arg:
    """One converted argument: its bytes (or pointer) and what it was."""

    __slots__ = ("buffer", "pointer", "dtype", "array", "mem", "shape",
                 "describe", "pyint")

    def __init__(self, buffer=None, pointer=None, dtype=None, array=None,
                 describe="", mem=None, shape=None, pyint=None):
        self.buffer, self.pointer, self.dtype = buffer, pointer, dtype
        # A Python int (passed as 8 bytes, of which the driver copies the
        # parameter's size): checked against the parameter's range.
        self.pyint = pyint
        self.array, self.describe = array, describe
        # The allocation behind a pointer (an array's or a MemoryPointer's),
        # and the shape the lifetime checker names.
        self.mem = mem if mem is not None or array is None else array._mem
        self.shape = shape if shape is not None or array is None else array.shape


def _scalar(value, dtype):
    arr = numpy.array(value, dtype=dtype)
    return _Arg(buffer=arr.tobytes(), dtype=arr.dtype,
                describe=f"{arr.dtype.itemsize}-byte {arr.dtype}")


def _convert(x):
    if isinstance(x, ndarray):
        return _Arg(pointer=x.data.ptr if x.size else 0, dtype=x.dtype, array=x,
                    describe=f"a {x.dtype} array")
    if isinstance(x, _memory.MemoryPointer):
        return _Arg(pointer=x.ptr, mem=x.mem, shape=(x.mem.size,),
                    describe="a MemoryPointer")
    if isinstance(x, (_texture.TextureObject, _texture.SurfaceObject)):
        # Its handle (cudaTextureObject_t / cudaSurfaceObject_t), as CuPy's.
        return _Arg(buffer=numpy.uint64(x.ptr).tobytes(),
                    dtype=numpy.dtype(numpy.uint64),
                    describe=f"a {type(x).__name__}")
    if type(x) is bool:
        return _scalar(x, numpy.bool_)
    if type(x) is int:
        if not -2 ** 63 <= x < 2 ** 64:
            raise OverflowError(f"Python int {x} does not fit in 64 bits")
        arg = _scalar(x, numpy.uint64 if x >= 2 ** 63 else numpy.int64)
        arg.pyint = x
        return arg
    if type(x) is float:
        return _scalar(x, numpy.float64)
    if type(x) is complex:
        return _scalar(x, numpy.complex128)
    if isinstance(x, numpy.void):
        return _Arg(buffer=x.tobytes(), dtype=x.dtype,
                    describe=f"a {x.dtype.itemsize}-byte structured scalar")
    if isinstance(x, numpy.generic):
        return _scalar(x, x.dtype)
    if isinstance(x, numpy.ndarray):
        if x.size == 1:
            if x.dtype.fields is not None:
                return _Arg(buffer=x.tobytes(), dtype=x.dtype,
                            describe=f"a {x.dtype.itemsize}-byte structured scalar")
            return _scalar(x.reshape(()), x.dtype)
        raise TypeError(
            f"You are trying to pass a numpy.ndarray of shape {x.shape} as a "
            "kernel parameter. Only numpy.ndarrays of size one can be passed "
            "by value. If you meant to pass a pointer to __global__ memory, "
            "you need to pass a cupy.ndarray instead.")
    if isinstance(x, ctypes.Structure):
        return _Arg(buffer=bytes(x), describe=f"a {ctypes.sizeof(x)}-byte "
                    f"{type(x).__name__}")
    for kind in (bool, int, float, complex):
        if isinstance(x, kind):
            return _convert(kind(x))
    raise TypeError(f"Unsupported type {type(x)}")


def _drop_extra(kernel_name, params, args):
    """The arguments the kernel's parameters take. CuPy packs every argument
    and cuLaunchKernel reads only as many as the kernel has, so extra ones
    are ignored; strict mode warns of them."""
    if len(args) <= len(params):
        return args
    if _strict:
        warnings.warn(f"kernel {kernel_name} takes {len(params)} "
                      f"argument{'s' if len(params) != 1 else ''} but "
                      f"{len(args)} were given; the extra ones are ignored, "
                      "as on CUDA", RuntimeWarning, stacklevel=3)
    return args[:len(params)]


def _check(kernel_name, params, args):
    """Strict mode: raises TypeError naming the parameter that the
    arguments do not fit (too few of them, or one of another kind)."""
    if len(params) > len(args):
        listed = ", ".join(p.ctype for p in params)
        raise TypeError(f"kernel {kernel_name}({listed}) takes {len(params)} "
                        f"argument{'s' if len(params) != 1 else ''} but "
                        f"{len(args)} were given")
    for i, (p, a) in enumerate(zip(params, args)):
        where = f"argument {i} of kernel {kernel_name} ({p.ctype})"
        if p.is_pointer:
            address = (a.pointer is None and a.dtype is not None
                       and a.dtype.kind in "iu" and a.dtype.itemsize == 8)
            if a.pointer is None and not address:
                raise TypeError(f"{where} takes an array (a pointer) but got "
                                f"{a.describe} by value")
            if a.array is not None and not _element_fits(p.ctype, a.dtype):
                raise TypeError(f"{where} points to {_base_type(p.ctype)} but "
                                f"got {a.describe}")
            continue
        if a.pointer is not None:
            raise TypeError(f"{where} is a {p.size}-byte value but got "
                            f"{a.describe} (a pointer)")
        if a.pyint is not None and _kind_of(p.ctype) in ("i", "u"):
            _fit_python_int(where, p, a)
            continue
        if len(a.buffer) != p.size:
            raise TypeError(f"{where} is {p.size} bytes but got {a.describe}"
                            f"; pass numpy.{_suggest(p)}(value)"
                            if _suggest(p) else
                            f"{where} is {p.size} bytes but got {a.describe}")
        kind = _kind_of(p.ctype)
        if kind is None:
            _check_aggregate(where, p, a)
        elif a.dtype is not None and a.dtype.fields is None:
            dkind = a.dtype.kind
            fits = (dkind == kind or (kind in "iu" and dkind in "iu")
                    or (kind == "b" and dkind in "iub")
                    or (kind in "iu" and dkind == "b"))
            if not fits:
                raise TypeError(f"{where} is {_describe_kind(kind)} but got "
                                f"{a.describe}")


def _fit_python_int(where, param, arg):
    """A Python int for an integer parameter of any width: CuPy passes it
    as 8 bytes and the driver copies the parameter's size, which is the
    value itself on little-endian whenever it fits. An out-of-range value
    raises OverflowError naming the parameter (on a GPU it would be
    silently truncated)."""
    signed = _kind_of(param.ctype) == "i"
    bits = 8 * param.size
    lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed \
        else (0, (1 << bits) - 1)
    value = arg.pyint
    if not lo <= value <= hi:
        raise OverflowError(f"{where}: Python int {value} is out of range "
                            f"for a {param.size}-byte "
                            f"{'signed' if signed else 'unsigned'} integer "
                            f"[{lo}, {hi}]")
    arg.buffer = value.to_bytes(param.size, "little", signed=signed)
    arg.dtype = numpy.dtype(f"{'i' if signed else 'u'}{param.size}")


_VECTOR = re.compile(r"^(u?char|u?short|u?int|u?long|u?longlong|float|double|"
                     r"half|__half)([1-4])$")


def _check_aggregate(where, param, arg):
    """A struct, vector or enum parameter (no scalar kind): a vector takes
    a structured scalar, a ctypes structure, or a complex value of its size
    for float2/double2; a struct or an enum refuses floating-point and
    complex scalars (an enum takes an integer, a struct its bytes)."""
    if arg.dtype is None or arg.dtype.fields is not None:
        return
    base = _base_type(param.ctype)
    vector = _VECTOR.match(base)
    dkind = arg.dtype.kind
    if vector:
        fits = dkind == "c" and vector.group(1) in ("float", "double")
    else:
        fits = dkind in "iub"
    if not fits:
        raise TypeError(f"{where} is a struct, vector or enum type but got "
                        f"{arg.describe}; pass a structured NumPy scalar "
                        f"(numpy.void) or a ctypes.Structure"
                        + ("" if vector else ", or an integer for an enum"))


def _element_fits(ctype, dtype):
    """Whether an array of `dtype` fits a pointer parameter of C type
    `ctype`: same kind (any integer for an integer) and same size. Pointers
    to structs, void and unknown types take any array."""
    kind = _kind_of(ctype)
    if kind not in ("i", "u", "f", "b"):
        return True
    base = _base_type(ctype)
    size = {"float": 4, "double": 8, "__half": 2, "half": 2,
            "float16": 2}.get(base)
    if size is None:
        size = ctypes.sizeof(_ctypes_int(base))
    dkind = dtype.kind
    if kind == "f":
        same_kind = dkind == "f"
    else:  # integers and bool are interchangeable at the same size
        same_kind = dkind in "iub"
    return same_kind and size == dtype.itemsize


def _ctypes_int(base):
    table = {"char": ctypes.c_char, "signed char": ctypes.c_byte,
             "unsigned char": ctypes.c_ubyte, "bool": ctypes.c_bool,
             "short": ctypes.c_short, "unsigned short": ctypes.c_ushort,
             "int": ctypes.c_int, "unsigned int": ctypes.c_uint,
             "unsigned": ctypes.c_uint, "long": ctypes.c_long,
             "unsigned long": ctypes.c_ulong, "long long": ctypes.c_longlong,
             "unsigned long long": ctypes.c_ulonglong,
             "int8_t": ctypes.c_int8, "int16_t": ctypes.c_int16,
             "int32_t": ctypes.c_int32, "int64_t": ctypes.c_int64,
             "uint8_t": ctypes.c_uint8, "uint16_t": ctypes.c_uint16,
             "uint32_t": ctypes.c_uint32, "uint64_t": ctypes.c_uint64,
             "size_t": ctypes.c_size_t, "ptrdiff_t": ctypes.c_ssize_t}
    return table.get(base)


def _describe_kind(kind):
    return {"i": "a signed integer", "u": "an unsigned integer",
            "f": "a floating-point value", "b": "a bool",
            "c": "a complex value"}[kind]


def _suggest(param):
    kind = _kind_of(param.ctype)
    if kind == "f":
        return {2: "float16", 4: "float32", 8: "float64"}.get(param.size)
    if kind in ("i", "u"):
        return {1: "int8", 2: "int16", 4: "int32", 8: "int64"}.get(param.size) \
            if kind == "i" else {1: "uint8", 2: "uint16", 4: "uint32",
                                 8: "uint64"}.get(param.size)
    if kind == "c":
        return {8: "complex64", 16: "complex128"}.get(param.size)
    return None


def _dim3(value, what):
    """A grid or block tuple as CuPy converts it: each item to a C
    unsigned int (a float raises TypeError, a value outside 0..2**32-1
    OverflowError, as Cython's conversion does); missing items are 1. A 0
    is passed on, and the launch refuses it as cuLaunchKernel does."""
    if not isinstance(value, tuple):
        raise TypeError(f"Argument '{what}' has incorrect type (expected tuple, "
                        f"got {type(value).__name__})")
    if len(value) > 3:
        raise ValueError(f"{what} must be a tuple of at most 3 integers")
    items = []
    for v in value:
        try:
            v = operator.index(v)
        except TypeError:
            raise TypeError(f"'{type(v).__name__}' object cannot be "
                            f"interpreted as an integer") from None
        if v < 0:
            raise OverflowError("can't convert negative value to unsigned int")
        if v >= 2 ** 32:
            raise OverflowError("value too large to convert to unsigned int")
        items.append(v)
    return (tuple(items) + (1, 1, 1))[:3]


def _callsite():
    frame = sys._getframe(1)
    while frame is not None:
        filename = os.path.abspath(frame.f_code.co_filename)
        if not filename.startswith(_PACKAGE_DIRS):
            return f"{frame.f_code.co_filename}:{frame.f_lineno}"
        frame = frame.f_back
    return "<unknown>"


# ---- kernels -----------------------------------------------------------------

def _backend_rules(backend, jitify, name_expressions=()):
    """CuPy's rules for backend= and jitify=: the jitify argument is
    deprecated (a DeprecationWarning whenever it is given; jitify=True has
    its own) and works with NVRTC only; name expressions need NVRTC's
    lowered names."""
    if backend not in ("nvrtc", "nvcc"):
        raise ValueError(f"Invalid backend {backend}")
    if jitify is not None:
        if jitify:
            warnings.warn("jitify=True is deprecated and will be removed in "
                          "a future version of CuPy.", DeprecationWarning,
                          stacklevel=3)
        else:
            warnings.warn("The jitify argument is deprecated and will be "
                          "removed in a future version of CuPy.",
                          DeprecationWarning, stacklevel=3)
        if jitify and backend != "nvrtc":
            raise ValueError("jitify only works with NVRTC")
    if name_expressions and backend != "nvrtc":
        raise ValueError("name_expressions is only supported with the nvrtc "
                         "backend")


def _translate_cucomplex(code):
    """translate_cucomplex=True: as CuPy, the line including <cuComplex.h>
    includes CuPy's bridge instead, which gives cuComplex's names over
    CuPy's complex<T> (fake_cupy/include/cupy/cuComplex_bridge.h)."""
    return re.sub(r"^[ \t]*#[ \t]*include[ \t]*<cuComplex\.h>[ \t]*$",
                  "#include <cupy/cuComplex_bridge.h>", code,
                  flags=re.MULTILINE)


def _find_kernel(module, name, name_expressions):
    """The kernel `name` of a module, as cuModuleGetFunction finds it: a
    kernel without extern "C" has a mangled name, so its plain name is
    not found (CUDA_ERROR_NOT_FOUND) unless it is a name expression. The
    linkage is known from NVRTC's PTX when NVRTC compiled the code."""
    entries = getattr(module, "nvrtc_entries", None)
    if (entries is not None and name not in name_expressions
            and name not in entries):
        raise _errors.CUDADriverError(
            500, f"no kernel named {name!r} in the module (NVRTC exports "
                 f"{', '.join(sorted(entries)) or 'none'}; a kernel without "
                 f'extern "C" has a mangled name, or use name_expressions)')
    try:
        return module.get_kernel(name)
    except _binding.CuemuError as e:
        raise _errors.CUDADriverError(500, e.message) from None


class RawKernel:
    """cupy.RawKernel(code, name, options=(), backend='nvrtc',
    translate_cucomplex=False, *, enable_cooperative_groups=False,
    jitify=None). See the module docstring for what the fake does
    differently. Kernels pickle (their source and settings; the copy
    compiles again on first use), for multiprocessing."""

    def __init__(self, code, name, options=(), backend="nvrtc",
                 translate_cucomplex=False, *, enable_cooperative_groups=False,
                 jitify=None, _module=None, _checks=None, _debug=False,
                 _parent=None, _generated=False):
        if _parent is None:
            _backend_rules(backend, jitify)
        self.code = code
        self.name = name
        # As CuPy's: "for profiling mechanisms to auto infer a name"
        # (cupyx.profiler.benchmark(kernel, ...)).
        self.__name__ = name
        self.options = tuple(options)
        self.backend = backend
        self.translate_cucomplex = translate_cucomplex
        self.enable_cooperative_groups = enable_cooperative_groups
        self.jitify = jitify
        self.file_path = None
        self._module = _module
        self._parent = _parent
        # Set by the cuemu helpers (check=, debug=): the checker list for
        # cuemu_compile_options.checks, and -g -O0.
        self._checks = _checks
        self._debug = _debug
        self._kernel = None
        self._lock = threading.Lock()
        # Reports name the line of the user's file that holds the kernel's
        # line; generated code (ElementwiseKernel, cupyx.jit) keeps its copy
        # in the cache, where those lines are.
        self._label = None if _generated or code is None else \
            _code_label(code)

    def __getstate__(self):
        state = {k: v for k, v in self.__dict__.items()
                 if k not in ("_module", "_kernel", "_lock")}
        return state

    def __setstate__(self, state):
        self.__dict__.update(state)
        self._module = None
        self._kernel = None
        self._lock = threading.Lock()

    def _get_kernel(self, log_stream=None):
        if self._kernel is None:
            if self._parent is not None:
                module = self._module or self._parent._load(log_stream)
                self._kernel = _find_kernel(module, self.name,
                                            self._parent.name_expressions)
                return self._kernel
            module = self._module
            exprs = [self.name] if "<" in self.name else []
            if module is None:
                code = self.code
                if self.translate_cucomplex:
                    code = _translate_cucomplex(code)
                options = self.options + (("-G",) if self._debug else ())
                module = _compile(code, options, exprs,
                                  checks=self._checks, kernel_name=self.name,
                                  backend=self.backend,
                                  cooperative=self.enable_cooperative_groups,
                                  log_stream=log_stream, jitify=self.jitify,
                                  label=self._label)
            self._kernel = _find_kernel(module, self.name, exprs)
        return self._kernel

    @property
    def kernel(self):
        """The compiled kernel (a cuemu._binding.Kernel)."""
        return self._get_kernel()

    def compile(self, log_stream=None):
        """Compiles the kernel now; the compiler's log (NVRTC's warnings,
        then libcuemu's) goes to `log_stream` when given."""
        if self._kernel is not None:
            return
        self._get_kernel(log_stream)

    @property
    def attributes(self):
        """cudaFuncGetAttributes of the kernel, from libcuemu's device."""
        return _device.kernel_attributes(self.kernel)

    def _attribute(name):
        return property(lambda self: self.attributes[name])

    max_threads_per_block = _attribute("max_threads_per_block")
    shared_size_bytes = _attribute("shared_size_bytes")
    const_size_bytes = _attribute("const_size_bytes")
    local_size_bytes = _attribute("local_size_bytes")
    num_regs = _attribute("num_regs")
    cache_mode_ca = _attribute("cache_mode_ca")
    ptx_version = _attribute("ptx_version")
    binary_version = _attribute("binary_version")
    max_dynamic_shared_size_bytes = _attribute("max_dynamic_shared_size_bytes")
    preferred_shared_memory_carveout = _attribute(
        "preferred_shared_memory_carveout")
    del _attribute

    @max_dynamic_shared_size_bytes.setter
    def max_dynamic_shared_size_bytes(self, value):
        try:
            self.kernel.set_max_dynamic_shared(value)
        except _binding.CuemuError as e:
            raise _errors.CUDADriverError(1, e.message) from None

    @preferred_shared_memory_carveout.setter
    def preferred_shared_memory_carveout(self, value):
        try:
            _device.set_carveout(self.kernel, value)
        except _binding.CuemuError as e:
            raise _errors.CUDADriverError(1, e.message) from None

    def __call__(self, grid, block, args, *, shared_mem=0, stream=None,
                 enable_cooperative_groups=False):
        """Launches the kernel on `stream` (the current stream if None)."""
        grid = _dim3(grid, "grid")
        block = _dim3(block, "block")
        kernel = self.kernel
        converted = _drop_extra(self.name, kernel.params,
                                [_convert(a) for a in args])
        if _strict:
            _check(self.name, kernel.params, converted)
        arrays = [a.array for a in converted if a.array is not None]
        _check_devices(self.name, kernel.params, converted)
        if stream is None:
            stream = _runtime.get_current_stream()
        elif not isinstance(stream, _runtime.BaseStream):
            # CuPy launches on stream.ptr: any object with a .ptr (another
            # library's stream, a namedtuple) names a stream.
            stream = _runtime.ExternalStream(int(stream.ptr))
        stream_key = stream.key
        buffers = []
        pointers = []
        for a in converted:
            if a.pointer is not None:
                buf = ctypes.c_void_p(a.pointer)
            else:
                buf = ctypes.create_string_buffer(a.buffer, max(1, len(a.buffer)))
            buffers.append(buf)
            pointers.append(ctypes.addressof(buf))
        cooperative = enable_cooperative_groups or self.enable_cooperative_groups
        if cooperative:
            grid = self._cooperative_grid(grid, block, shared_mem)
        # Under CUEMU_FAKE_CUPY_CHECK, as under compute-sanitizer, a
        # racecheck or initcheck report lets the kernel finish and the
        # launch succeed; the report is printed and counted (the pytest
        # plugin fails the test, and the process's exit status says so).
        # The cuemu helpers' check= (self._checks) fail the call instead.
        reports_fail = self._checks is not None
        name = self.name
        operands = []
        for i, (a, p) in enumerate(zip(converted,
                                       kernel.params + [None] * len(converted))):
            if a.mem is not None and a.mem.block is not None:
                written = p is None or not p.is_const_pointer
                operands.append((a.mem, a.shape, written, i))
        del arrays, converted
        state = {}

        def run():
            try:
                kernel.launch(grid, block, shared_mem, pointers,
                              cooperative=cooperative,
                              reports_fail=reports_fail)
                # A graph's launch (a captured one) runs again: its
                # arguments stay.
                if not getattr(launch, "captured", False):
                    buffers.clear()
            except _binding.CuemuError as e:
                error = _errors.driver_error_from(e)
                # cuLaunchKernel itself returns a bad configuration (a
                # status that is not sticky); an execution error shows at
                # the next synchronization.
                if (not _errors.status_is_sticky(e.status)
                        and not state.get("queued")):
                    state["error"] = error
                else:
                    _runtime.add_error(error, stream_key)

        state["queued"] = (_runtime.async_mode() == "deferred"
                           or stream.is_capturing())
        if state["queued"]:
            self._validate(grid, block, shared_mem, len(pointers),
                           cooperative)
        launch = _runtime.Launch(name, stream, _callsite(), run, operands)
        _runtime.check_and_enqueue(launch)
        if "error" in state:
            raise state["error"]


    def _cooperative_grid(self, grid, block, shared_mem):
        """As CuPy's launch: a 1-D grid larger than the blocks that can be
        resident at once shrinks to that many, with a warning; a larger
        multi-dimensional grid raises ValueError."""
        try:
            limit = self.kernel.max_cooperative_blocks(block, shared_mem)
        except _binding.CuemuError:
            return grid        # a bad block: the launch reports it
        gx, gy, gz = grid
        if gx * gy * gz <= limit or limit == 0:
            return grid
        if gy == 1 and gz == 1:
            import warnings
            warnings.warn(f"The grid size will be reduced from {gx} to "
                          f"{limit}, as the specified grid size exceeds the "
                          f"limit.")
            return (limit, 1, 1)
        raise ValueError(f"The specified grid size ({gx} * {gy} * {gz}) "
                         f"exceeds the limit ({limit})")

    def _validate(self, grid, block, shared_mem, nargs, cooperative):
        """Raises, at the launch call, the CUDADriverError that
        cuLaunchKernel returns for a bad configuration (libcuemu's own check
        of it); deferred mode needs it because libcuemu only sees the launch
        when the queue runs."""
        try:
            _device.check_launch(self.kernel, grid, block, shared_mem, nargs,
                                 cooperative)
        except _binding.CuemuError as e:
            raise _errors.driver_error_from(e) from None


def _check_devices(kernel_name, params, converted):
    """All arrays of one launch must be on one device (ValueError naming the
    argument otherwise)."""
    first = None
    for i, a in enumerate(converted):
        if a.mem is None:
            continue
        device = a.mem.device_id
        if first is None:
            first = (i, device)
        elif device != first[1]:
            raise ValueError(
                f"kernel {kernel_name}: argument {i} is on (device_type=2, "
                f"device_id={device}) but argument {first[0]} is on "
                f"(device_type=2, device_id={first[1]}); all arrays in a "
                f"launch must be on the same device")


class _ExternalBlock:
    """A module global seen as a block of memory."""

    __slots__ = ("buffer", "ptr", "size")

    def __init__(self, address, size):
        self.ptr = address
        self.size = size
        raw = (ctypes.c_uint8 * max(1, size)).from_address(address)
        self.buffer = numpy.frombuffer(raw, dtype=numpy.uint8, count=size)


class RawModule:
    """cupy.RawModule(code=None, *, path=None, options=(), backend='nvrtc',
    translate_cucomplex=False, enable_cooperative_groups=False,
    name_expressions=None, jitify=None). Modules pickle (their source
    and settings; the copy compiles again on first use)."""

    def __init__(self, code=None, *, path=None, options=(), backend="nvrtc",
                 translate_cucomplex=False, enable_cooperative_groups=False,
                 name_expressions=None, jitify=None):
        if (code is None) == (path is None):
            raise TypeError("Exactly one of `code` and `path` keyword "
                            "arguments must be given.")
        _backend_rules(backend, jitify, name_expressions)
        self.code = code
        self.file_path = path
        self._label = None if code is None else _code_label(code)
        self.options = tuple(options)
        self.backend = backend
        self.translate_cucomplex = translate_cucomplex
        self.enable_cooperative_groups = enable_cooperative_groups
        self.name_expressions = tuple(name_expressions or ())
        self.jitify = jitify
        self._module = None

    def __getstate__(self):
        return {k: v for k, v in self.__dict__.items() if k != "_module"}

    def __setstate__(self, state):
        self.__dict__.update(state)
        self._module = None

    def _load(self, log_stream=None):
        if self._module is not None:
            return self._module
        if self.code is not None:
            code = self.code
            if self.translate_cucomplex:
                code = _translate_cucomplex(code)
            self._module = _compile(code, self.options, self.name_expressions,
                                    backend=self.backend,
                                    cooperative=self.enable_cooperative_groups,
                                    log_stream=log_stream, jitify=self.jitify,
                                    label=self._label)
            return self._module
        # cuModuleLoad: a missing file is CUDA_ERROR_FILE_NOT_FOUND.
        if not os.path.isfile(self.file_path):
            raise _errors.CUDADriverError(
                301, f"{self.file_path}: no such file")
        with open(self.file_path, "rb") as f:
            data = f.read()
        if data[:4] == b"\x7fELF":
            # A cuemu module: what cuemu-nvcc -cubin, -fatbin or -ptx (or
            # cuemu-cc --module) writes, loaded as cuModuleLoad loads it.
            try:
                self._module = _binding.Module(self.file_path)
            except _binding.CuemuError as e:
                raise _errors.CUDADriverError(200, e.message) from None
            return self._module
        if data[:4] == b"\x50\xed\x55\xba" or self.file_path.endswith(
                (".cubin", ".fatbin", ".ptx")):
            # nvcc's cubin, fatbin or PTX: no code for a CPU.
            raise _errors.CUDADriverError(
                200, f"{self.file_path}: not a cuemu module (nvcc's cubin, "
                "fatbin or PTX has no code for a CPU); build it with "
                "cuemu-nvcc -cubin, -fatbin or -ptx")
        # Any bytes (a Latin-1 comment, say) go to the compilers as they
        # are.
        code = data.decode("utf-8", errors="surrogateescape")
        if self.translate_cucomplex:
            code = _translate_cucomplex(code)
        self._module = _compile(
            code, self.options, self.name_expressions,
            os.path.basename(self.file_path),
            include_dir=os.path.dirname(os.path.abspath(self.file_path)),
            backend=self.backend, cooperative=self.enable_cooperative_groups,
            log_stream=log_stream, jitify=self.jitify,
            label=(os.path.abspath(self.file_path), 1))
        return self._module

    @property
    def module(self):
        return self._load()

    def compile(self, log_stream=None):
        """Compiles the module now; the compiler's log goes to
        `log_stream` when given."""
        if self._module is None:
            self._load(log_stream)

    def get_function(self, name):
        """The kernel `name` (or a name expression given at construction)."""
        module = self.module
        _find_kernel(module, name, self.name_expressions)
        kernel = RawKernel(self.code, name, self.options, self.backend,
                           translate_cucomplex=self.translate_cucomplex,
                           enable_cooperative_groups=self.enable_cooperative_groups,
                           jitify=self.jitify, _module=module, _parent=self)
        kernel.file_path = self.file_path
        return kernel

    def get_global(self, name):
        """A MemoryPointer to the module's __device__/__constant__ variable."""
        try:
            address, size = self.module.global_address(name)
        except KeyError:
            raise _errors.CUDADriverError(500, f"no global {name!r} in the module") from None
        mem = _memory.Memory(None, _ExternalBlock(address, size), size,
                             _runtime.current_device_id(), register=False)
        return _memory.MemoryPointer(mem)

    def get_texref(self, name):
        raise NotImplementedError("texture references are not emulated")
