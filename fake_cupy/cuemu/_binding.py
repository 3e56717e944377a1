"""ctypes binding to libcuemu: compiling, loading and launching kernels.

Only the part of the C API (emulator/include/cuemu/cuemu.h) that the Python
packages need is bound here. Every failing call raises CuemuError, which
carries the status name and the library's detailed message.
"""
import ctypes
import ctypes.util
import os


class Dim3(ctypes.Structure):
    """Mirror of struct cuemu_dim3."""

    _fields_ = [("x", ctypes.c_uint), ("y", ctypes.c_uint), ("z", ctypes.c_uint)]


class Param(ctypes.Structure):
    """Mirror of struct cuemu_param (one entry of a parameter descriptor)."""

    _fields_ = [("ctype", ctypes.c_char_p), ("size", ctypes.c_size_t),
                ("align", ctypes.c_size_t)]


class CuemuError(RuntimeError):
    """A libcuemu call failed; `status` is the status name ("TRAP", ...)."""

    def __init__(self, status, message):
        self.status = status
        self.message = message
        super().__init__(f"{status}: {message}")


def _candidate_paths():
    """Where libcuemu may be: the build tree, the install prefix, the loader."""
    lib_dir = os.environ.get("CUEMU_LIB_DIR")
    if lib_dir:
        yield os.path.join(lib_dir, "libcuemu.so")
    try:
        from cuemu import _install_paths
        yield os.path.join(_install_paths.LIBDIR, "libcuemu.so")
        yield os.path.join(_install_paths.LIBDIR, "libcuemu.so.0")
    except ImportError:
        pass
    found = ctypes.util.find_library("cuemu")
    if found:
        yield found


_lib = None
_lib_folder = None


def companion(name):
    """A library built beside libcuemu (libcuemu_curand.so, ...), loaded."""
    library()
    return ctypes.CDLL(os.path.join(_lib_folder, name))


def library():
    """The loaded libcuemu (loaded on first use, with prototypes declared)."""
    global _lib
    if _lib is not None:
        return _lib
    tried = []
    for path in _candidate_paths():
        tried.append(path)
        try:
            lib = ctypes.CDLL(path)
            break
        except OSError:
            continue
    else:
        raise ImportError("libcuemu not found (tried: %s); set CUEMU_LIB_DIR "
                          "to the folder holding libcuemu.so"
                          % (", ".join(tried) or "nothing"))
    status = ctypes.c_int
    vp = ctypes.c_void_p
    lib.cuemu_last_message.restype = ctypes.c_char_p
    lib.cuemu_status_name.restype = ctypes.c_char_p
    lib.cuemu_status_name.argtypes = [status]
    lib.cuemu_strerror.restype = ctypes.c_char_p
    lib.cuemu_strerror.argtypes = [status]
    lib.cuemu_compile_command.restype = status
    lib.cuemu_cache_dir.restype = status
    lib.cuemu_cache_dir.argtypes = [ctypes.c_char_p, ctypes.c_size_t]
    lib.cuemu_compile_command.argtypes = [ctypes.c_int,
                                          ctypes.POINTER(ctypes.c_char_p),
                                          ctypes.POINTER(ctypes.c_int)]
    lib.cuemu_module_load.restype = status
    lib.cuemu_module_load.argtypes = [ctypes.POINTER(vp), ctypes.c_char_p]
    lib.cuemu_module_unload.restype = status
    lib.cuemu_module_unload.argtypes = [vp]
    lib.cuemu_module_get_global.restype = status
    lib.cuemu_module_get_global.argtypes = [vp, ctypes.c_char_p,
                                            ctypes.POINTER(vp),
                                            ctypes.POINTER(ctypes.c_size_t)]
    lib.cuemu_module_get_kernel.restype = status
    lib.cuemu_module_get_kernel.argtypes = [vp, ctypes.c_char_p,
                                            ctypes.POINTER(vp)]
    lib.cuemu_module_kernel_count.restype = ctypes.c_int
    lib.cuemu_module_kernel_count.argtypes = [vp]
    lib.cuemu_module_kernel_at.restype = vp
    lib.cuemu_module_kernel_at.argtypes = [vp, ctypes.c_int]
    lib.cuemu_kernel_name.restype = ctypes.c_char_p
    lib.cuemu_kernel_name.argtypes = [vp]
    lib.cuemu_kernel_param_count.restype = ctypes.c_int
    lib.cuemu_kernel_param_count.argtypes = [vp]
    lib.cuemu_kernel_param.restype = ctypes.POINTER(Param)
    lib.cuemu_kernel_param.argtypes = [vp, ctypes.c_int]
    lib.cuemu_kernel_set_max_dynamic_shared.restype = status
    lib.cuemu_kernel_set_max_dynamic_shared.argtypes = [vp, ctypes.c_size_t]
    for name in ("cuemu_kernel_launch", "cuemu_kernel_launch_cooperative"):
        fn = getattr(lib, name)
        fn.restype = status
        fn.argtypes = [vp, Dim3, Dim3, ctypes.c_size_t, vp,
                       ctypes.POINTER(vp), ctypes.c_int]
    lib.cuemu_kernel_max_cooperative_blocks.restype = status
    lib.cuemu_kernel_max_cooperative_blocks.argtypes = [
        vp, Dim3, ctypes.c_size_t, ctypes.POINTER(ctypes.c_uint)]
    # Optional: present once the checkers are built into libcuemu.
    if hasattr(lib, "cuemu_alloc_register"):
        lib.cuemu_alloc_register.restype = status
        lib.cuemu_alloc_register.argtypes = [vp, ctypes.c_size_t,
                                             ctypes.c_char_p]
        if hasattr(lib, "cuemu_alloc_register_at"):
            lib.cuemu_alloc_register_at.restype = status
            lib.cuemu_alloc_register_at.argtypes = [vp, ctypes.c_size_t,
                                                    ctypes.c_char_p,
                                                    ctypes.c_char_p]
        if hasattr(lib, "cuemu_alloc_register_mapping"):
            lib.cuemu_alloc_register_mapping.restype = status
            lib.cuemu_alloc_register_mapping.argtypes = [vp, vp,
                                                         ctypes.c_size_t]
        lib.cuemu_alloc_unregister.restype = status
        lib.cuemu_alloc_unregister.argtypes = [vp]
    if hasattr(lib, "cuemu_check_reports_fail"):
        lib.cuemu_check_reports_fail.restype = ctypes.c_int
        lib.cuemu_check_reports_fail.argtypes = [ctypes.c_int]
        lib.cuemu_check_reports.restype = ctypes.c_ulonglong
        lib.cuemu_check_reports.argtypes = [ctypes.POINTER(ctypes.c_char_p)]
        lib.cuemu_check_reports_clear.restype = None
        lib.cuemu_check_reports_clear.argtypes = []
    if hasattr(lib, "cuemu_check_report_host"):
        lib.cuemu_check_report_host.restype = None
        lib.cuemu_check_report_host.argtypes = [ctypes.c_char_p, ctypes.c_char_p]
    global _lib_folder
    _lib_folder = os.path.dirname(path)
    _lib = lib
    return lib


def check_reports():
    """(count, last): the racecheck and initcheck reports counted in this
    process (launches that went on after them, see Kernel.launch) and the
    last report printed ("" when none); (0, "") without checkers."""
    lib = library()
    if not hasattr(lib, "cuemu_check_reports"):
        return 0, ""
    last = ctypes.c_char_p()
    count = lib.cuemu_check_reports(ctypes.byref(last))
    return int(count), (last.value or b"").decode("utf-8", "replace")


def check_report_host(where, text):
    """Counts and prints (once per `where`) a checker's report found by host
    code standing in for a kernel, as libcuemu counts the launches' reports
    (check_reports())."""
    lib = library()
    if hasattr(lib, "cuemu_check_report_host"):
        lib.cuemu_check_report_host(os.fsencode(where), text.encode("utf-8", "replace"))


def check_reports_clear():
    """Forgets the reports counted so far (check_reports())."""
    lib = library()
    if hasattr(lib, "cuemu_check_reports_clear"):
        lib.cuemu_check_reports_clear()


def cache_dir():
    """libcuemu's compile cache folder (CUEMU_CACHE_DIR, else the user's
    cache folder), created if need be; None when it cannot be used."""
    buf = ctypes.create_string_buffer(4096)
    if library().cuemu_cache_dir(buf, len(buf)) != 0:
        return None
    return os.fsdecode(buf.value)


def register_alloc(ptr, size, name, where=None):
    """Tells the checkers that [ptr, ptr + size) is a device allocation
    called `name` (so that accesses past its end and after its release are
    reported), made at `where` ("file.py:12"; None: at this call's C
    caller). Returns False when libcuemu has no checkers or refused."""
    lib = library()
    if where is not None and hasattr(lib, "cuemu_alloc_register_at"):
        return lib.cuemu_alloc_register_at(
            ptr, size, name.encode(),
            where.encode("utf-8", errors="surrogateescape")) == 0
    if not hasattr(lib, "cuemu_alloc_register"):
        return False
    return lib.cuemu_alloc_register(ptr, size, name.encode()) == 0


def register_mapping(ptr, map_base, map_size):
    """Tells memcheck that [map_base, map_base + map_size), which holds the
    buffer registered at `ptr`, holds nothing else (its guards, the rest of
    its pages): an access there outside the buffer is out of its bounds,
    however far from it. Returns False when libcuemu has no such call or
    refused."""
    lib = library()
    if not hasattr(lib, "cuemu_alloc_register_mapping"):
        return False
    return lib.cuemu_alloc_register_mapping(ptr, map_base, map_size) == 0


def unregister_alloc(ptr):
    """Undoes register_alloc (ignored when it had not succeeded)."""
    lib = library()
    if hasattr(lib, "cuemu_alloc_unregister"):
        lib.cuemu_alloc_unregister(ptr)


def status_name(code):
    """The status enumerator's name without its prefix ("TRAP")."""
    return library().cuemu_status_name(code).decode()


def check(code):
    """Raises CuemuError for a failing status, with the detailed message."""
    if code != 0:
        lib = library()
        message = lib.cuemu_last_message().decode(errors="replace")
        if not message:
            message = lib.cuemu_strerror(code).decode()
        raise CuemuError(status_name(code), message)


def _strings(values):
    values = [v.encode() if isinstance(v, str) else bytes(v) for v in values]
    return (ctypes.c_char_p * max(1, len(values)))(*values), len(values)


def compile_module(source_path, output_path, options=(), name_expressions=(),
                   debug=False, checks=None, no_cache=False, cxx=None):
    """Compiles a .cu file into a loadable module; returns whether the
    result came from the compile cache. `options` are passed to the C++
    compiler (-I, -D, -U, -std=...). Raises CuemuError (COMPILE, with the
    compiler's diagnostics on stderr) on failure.

    The words are cuemu-cc's command line (cuemu_compile_command), so that
    this binding keeps no copy of struct cuemu_compile_options."""
    words = ["--module", "-o", os.fsencode(output_path)]
    if debug:
        words.append("-g")
    if checks:
        words.append("--check=" + checks)
    if no_cache:
        words.append("--no-cache")
    if cxx:
        words.append("--cxx=" + cxx)
    for expr in name_expressions:
        words += ["--name-expr", expr]
    words += list(options)
    words.append(os.fsencode(source_path))
    argv, argc = _strings(words)
    hit = ctypes.c_int(0)
    check(library().cuemu_compile_command(argc, argv, ctypes.byref(hit)))
    return bool(hit.value)


class KernelParam:
    """One parameter of a kernel: its C type, size and alignment."""

    __slots__ = ("ctype", "size", "align")

    def __init__(self, ctype, size, align):
        self.ctype, self.size, self.align = ctype, size, align

    @property
    def is_pointer(self):
        return self.ctype.rstrip().endswith("*")

    @property
    def is_const_pointer(self):
        return self.is_pointer and self.ctype.lstrip().startswith("const ")

    def __repr__(self):
        return f"KernelParam({self.ctype!r}, size={self.size}, align={self.align})"


class Kernel:
    """A kernel of a loaded module (owned by, and keeping alive, its module)."""

    def __init__(self, module, handle):
        self.module = module
        self.handle = ctypes.c_void_p(handle)
        lib = library()
        self.name = lib.cuemu_kernel_name(self.handle).decode()
        self.params = []
        for i in range(lib.cuemu_kernel_param_count(self.handle)):
            p = lib.cuemu_kernel_param(self.handle, i).contents
            self.params.append(KernelParam(p.ctype.decode(), p.size, p.align))

    def set_max_dynamic_shared(self, nbytes):
        check(library().cuemu_kernel_set_max_dynamic_shared(self.handle,
                                                            int(nbytes)))

    def max_cooperative_blocks(self, block, shared_mem=0):
        out = ctypes.c_uint(0)
        check(library().cuemu_kernel_max_cooperative_blocks(
            self.handle, Dim3(*block), shared_mem, ctypes.byref(out)))
        return out.value

    def launch(self, grid, block, shared_mem, arg_pointers,
               cooperative=False, reports_fail=True):
        """Runs the kernel; arg_pointers holds one address per parameter.
        Raises CuemuError when the launch is refused or a thread fails. A
        racecheck or initcheck report fails the launch (CHECK_REPORT, once
        its blocks ran) when `reports_fail`; otherwise the launch succeeds
        and the report is counted (check_reports()), as in a whole
        program (cuemu_check_reports_fail())."""
        n = len(arg_pointers)
        args = (ctypes.c_void_p * max(1, n))(*arg_pointers)
        lib = library()
        fn = (lib.cuemu_kernel_launch_cooperative if cooperative
              else lib.cuemu_kernel_launch)
        setting = getattr(lib, "cuemu_check_reports_fail", None)
        old = setting(int(bool(reports_fail))) if setting else None
        try:
            code = fn(self.handle, Dim3(*grid), Dim3(*block), int(shared_mem),
                      None, args, n)
        finally:
            if setting:
                setting(old)
        check(code)


class Module:
    """A loaded module (a shared object made by compile_module)."""

    def __init__(self, path):
        self.path = os.path.abspath(path)
        handle = ctypes.c_void_p()
        check(library().cuemu_module_load(ctypes.byref(handle),
                                          os.fsencode(self.path)))
        self.handle = handle
        self._kernels = {}

    def get_kernel(self, name):
        """The kernel called `name` (a template instantiation such as
        "scale<double, 3>" when it was compiled as a name expression)."""
        kernel = self._kernels.get(name)
        if kernel is None:
            out = ctypes.c_void_p()
            check(library().cuemu_module_get_kernel(self.handle, name.encode(),
                                                    ctypes.byref(out)))
            kernel = self._kernels[name] = Kernel(self, out.value)
        return kernel

    def kernel_names(self):
        lib = library()
        return [lib.cuemu_kernel_name(
                    ctypes.c_void_p(lib.cuemu_module_kernel_at(self.handle, i))
                ).decode()
                for i in range(lib.cuemu_module_kernel_count(self.handle))]

    def global_address(self, name):
        """Address and size of the module's global variable `name` (a
        __device__ or __constant__ variable), from cuemu_module_get_global.
        Raises KeyError when the module has no such variable."""
        ptr = ctypes.c_void_p()
        size = ctypes.c_size_t()
        code = library().cuemu_module_get_global(self.handle, name.encode(),
                                                 ctypes.byref(ptr),
                                                 ctypes.byref(size))
        if code != 0 and status_name(code) == "INVALID_VALUE":
            raise KeyError(name)
        check(code)
        return ptr.value, size.value
