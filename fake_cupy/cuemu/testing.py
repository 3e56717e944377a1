"""Kernel-testing helpers: the emulated leg of a host/CUDA parity test.

pytest is imported only when one of its objects (BACKENDS, requires_cupy,
the backend fixture, parity_cases) is used, so emulate_cuda_kernel and
device_function_kernel work without pytest.
"""
import collections
import math
import re
import sys

import numpy

_DEFAULT_BLOCK = 128


def _fake():
    import fake_cupy
    return fake_cupy


def gpu_available():
    """Whether the real CuPy is importable and sees a CUDA device. A device
    of cuemu's own libcuda.so.1 (which the real CuPy gets where
    LD_LIBRARY_PATH names cuemu-toolkit/compat) is no GPU: its name is
    cuemu's."""
    current = sys.modules.get("cupy")
    if current is not None and getattr(current, "IS_FAKE", False):
        return False
    try:
        import cupy
        if getattr(cupy, "IS_FAKE", False):
            return False
        if cupy.cuda.runtime.getDeviceCount() <= 0:
            return False
        name = cupy.cuda.runtime.getDeviceProperties(0).get("name", b"")
        if isinstance(name, bytes):
            name = name.decode("utf-8", "replace")
        return not name.startswith("cuemu ")
    except Exception:
        return False


def array_module(backend):
    """The array module of a backend name: numpy, fake_cupy ("emulated") or
    the real cupy ("cupy")."""
    if backend == "numpy":
        return numpy
    if backend == "emulated":
        return _fake()
    if backend == "cupy":
        import cupy
        return cupy
    raise ValueError(f"unknown backend {backend!r} (numpy, emulated, cupy)")


def _as_raw_kernel(kernel, name=None, options=(), check=None, debug=False):
    """A fake RawKernel from a RawKernel, a source string or (source, name);
    check (a checker list such as "race,mem,init" or "all") and debug
    (-g -O0) apply to sources compiled here."""
    cp = _fake()
    if isinstance(kernel, cp.RawKernel):
        return kernel
    if isinstance(kernel, EmulatedKernel):
        return kernel.raw_with(check, debug)
    if isinstance(kernel, tuple):
        kernel, name = kernel
    if not isinstance(kernel, str):
        raise TypeError(f"expected a RawKernel or CUDA source, not {type(kernel)}")
    if name is None:
        names = re.findall(r"__global__\s+(?:__launch_bounds__\s*\([^)]*\)\s*)?"
                           r"void\s+(\w+)\s*\(", kernel)
        if len(names) != 1:
            raise ValueError("the source has %d __global__ functions; pass "
                             "name=" % len(names))
        name = names[0]
    return cp.RawKernel(kernel, name, options=tuple(options), _checks=check,
                        _debug=debug)


def _launch_shape(n_threads, grid, block):
    if block is None:
        block = (_DEFAULT_BLOCK,)
    block = (block,) if isinstance(block, int) else tuple(block)
    if grid is None:
        if n_threads is None:
            raise ValueError("give n_threads or grid")
        n = (n_threads,) if isinstance(n_threads, int) else tuple(n_threads)
        if len(block) < len(n):
            block = block + (1,) * (len(n) - len(block))
        grid = tuple(max(1, math.ceil(t / b)) for t, b in zip(n, block))
    grid = (grid,) if isinstance(grid, int) else tuple(grid)
    return grid, block


def _cast_scalar(value, param):
    """Casts a Python or NumPy scalar to the parameter's type, as a launch
    through the seed-style helpers does; structs pass unchanged."""
    from fake_cupy._kernel import _kind_of
    kind = _kind_of(param.ctype)
    if kind is None or isinstance(value, (numpy.void, numpy.ndarray)):
        return value
    table = {("f", 2): numpy.float16, ("f", 4): numpy.float32,
             ("f", 8): numpy.float64, ("i", 1): numpy.int8,
             ("i", 2): numpy.int16, ("i", 4): numpy.int32,
             ("i", 8): numpy.int64, ("u", 1): numpy.uint8,
             ("u", 2): numpy.uint16, ("u", 4): numpy.uint32,
             ("u", 8): numpy.uint64, ("b", 1): numpy.bool_,
             ("c", 8): numpy.complex64, ("c", 16): numpy.complex128}
    dtype = table.get((kind, param.size))
    if dtype is None:
        return value
    if kind in "iu" and isinstance(value, float) and not value.is_integer():
        raise TypeError(f"a {param.ctype} parameter cannot take {value!r}")
    return dtype(value)


def emulate_cuda_kernel(source_or_kernel, *args, n_threads=None, grid=None,
                        block=None, shared_mem=0, options=(), name=None,
                        check=None, debug=False):
    """Runs a kernel on the CPU as if launched with `args`, NumPy arrays in
    place of device arrays: each array is copied to emulated device memory
    (contiguous), and written back after the launch unless its parameter is
    a pointer to const. Scalars are cast to their parameter's type. The
    block defaults to 128 threads and the grid to ceil(n_threads / block).
    check names the checkers to compile in ("race", "mem", "init", "all"),
    debug compiles with -g -O0. Kernel failures and checker reports raise
    fake_cupy.cuda.driver.CUDADriverError."""
    cp = _fake()
    kernel = _as_raw_kernel(source_or_kernel, name, options, check, debug)
    params = kernel.kernel.params
    grid, block = _launch_shape(n_threads, grid, block)
    launch_args, copies = [], []
    from fake_cupy import _memory
    for i, a in enumerate(args):
        param = params[i] if i < len(params) else None
        if isinstance(a, numpy.ndarray) and (a.size != 1 or (param is not None and param.is_pointer)):
            # Under memcheck each array gets an allocation of its own, so
            # that a write past one is reported rather than made in another.
            with _memory.checked_allocations(check):
                dev = cp.array(numpy.ascontiguousarray(a))
            launch_args.append(dev)
            if param is None or not param.is_const_pointer:
                copies.append((a, dev))
        elif param is not None and not param.is_pointer:
            launch_args.append(_cast_scalar(a, param))
        else:
            launch_args.append(a)
    kernel(grid, block, tuple(launch_args), shared_mem=shared_mem)
    cp.cuda.Device().synchronize()
    for host, dev in copies:
        host[...] = dev.get().reshape(host.shape)


class KernelPair:
    """A kernel's host implementation (a Python function on NumPy arrays,
    changing its output arguments in place) and its CUDA version (a RawKernel,
    a source string or (source, name))."""

    def __init__(self, host, cuda, name=None, options=()):
        self.host = host
        self.cuda = cuda
        self.name = name
        self.options = tuple(options)


def _arrays_of(args, outputs):
    picked = range(len(args)) if outputs is None else \
        [i % len(args) for i in outputs]
    found = collections.OrderedDict()
    for i in picked:
        a = args[i]
        if isinstance(a, numpy.ndarray):
            found[f"argument {i}"] = a
        elif isinstance(a, (tuple, list)):
            for j, x in enumerate(a):
                if isinstance(x, numpy.ndarray):
                    found[f"argument {i}.{j}"] = x
        elif isinstance(a, dict):
            for k, x in a.items():
                if isinstance(x, numpy.ndarray):
                    found[f"argument {i}.{k}"] = x
    return found


def _copy_args(args):
    return tuple(a.copy() if isinstance(a, numpy.ndarray) else a for a in args)


def assert_kernels_agree(kernel, make_args, *, n_threads=None, grid=None,
                         block=None, shared_mem=0, rtol=1e-12, atol=0.0,
                         n_calls=1, outputs=None, seed=0, check=None,
                         debug=False):
    """Checks that the host and CUDA versions of `kernel` (a KernelPair, or
    (host_function, cuda_kernel)) compute the same. make_args(backend, seed)
    builds the positional arguments (NumPy arrays and scalars) for "numpy"
    (the host leg), "emulated" and, when the real CuPy sees a GPU, "cupy".
    Each leg runs n_calls times; the arrays among the arguments (or the
    `outputs` indices) are compared with numpy.testing.assert_allclose, and
    the AssertionError names the argument. check and debug apply to the
    emulated leg (see emulate_cuda_kernel). Returns the host arrays by
    argument name."""
    if isinstance(kernel, tuple):
        kernel = KernelPair(*kernel)
    if kernel.cuda is None:
        raise ValueError("the kernel has no CUDA version")
    host_args = tuple(make_args("numpy", seed))
    for _ in range(n_calls):
        kernel.host(*host_args)
    expected = _arrays_of(host_args, outputs)
    legs = [("emulated", _run_emulated)]
    if gpu_available():
        legs.append(("cupy", _run_gpu))
    for leg, run in legs:
        args = tuple(make_args(leg, seed))
        got = run(kernel, args, n_threads, grid, block, shared_mem, n_calls,
                  check, debug)
        actual = _arrays_of(got, outputs)
        for key, want in expected.items():
            numpy.testing.assert_allclose(
                actual[key], want, rtol=rtol, atol=atol,
                err_msg=f"{key} differs between the host and the {leg} kernel")
    return dict(expected)


def _to_host(args):
    """make_args may give fake (or real) CuPy arrays for a device leg: their
    host copies take their place, so that the legs compare alike."""
    return tuple(a.get() if hasattr(a, "__cuda_array_interface__")
                 and hasattr(a, "get") else a for a in args)


def _run_emulated(kernel, args, n_threads, grid, block, shared_mem, n_calls,
                  check, debug):
    args = _copy_args(_to_host(args))
    for _ in range(n_calls):
        emulate_cuda_kernel(kernel.cuda, *args, n_threads=n_threads, grid=grid,
                            block=block, shared_mem=shared_mem,
                            options=kernel.options, name=kernel.name,
                            check=check, debug=debug)
    return args


def _run_gpu(kernel, args, n_threads, grid, block, shared_mem, n_calls,
             check, debug):
    import cupy
    source = kernel.cuda
    if isinstance(source, EmulatedKernel):
        source = (source.source, source.name)
    if isinstance(source, tuple):
        source, name = source
    elif isinstance(source, str):
        name = kernel.name or _as_raw_kernel(source).name
    else:
        source, name = source.code, source.name
    raw = cupy.RawKernel(source, name, options=kernel.options)
    grid, block = _launch_shape(n_threads, grid, block)
    # Scalars are cast with the parameter descriptor, as the emulated leg
    # casts them (a Python float would otherwise reach a float parameter as
    # a double).
    params = _as_raw_kernel((source, name), options=kernel.options).kernel.params
    args = _to_host(args)
    dev = [cupy.asarray(a) if isinstance(a, numpy.ndarray)
           and (a.size != 1 or (i < len(params) and params[i].is_pointer))
           else _cast_scalar(a, params[i])
           if i < len(params) and not params[i].is_pointer else a
           for i, a in enumerate(args)]
    for _ in range(n_calls):
        raw(grid, block, tuple(dev), shared_mem=shared_mem)
    cupy.cuda.Device().synchronize()
    return tuple(cupy.asnumpy(d) if isinstance(a, numpy.ndarray)
                 and hasattr(d, "__cuda_array_interface__") else a
                 for a, d in zip(args, dev))


# ---- device functions ----------------------------------------------------------

_SIGNATURE = re.compile(r"^\s*(?P<ret>[\w:\s<>]+?[\s*&]*)\s*(?P<name>\w+)\s*"
                        r"\((?P<params>.*)\)\s*;?\s*$", re.S)


# Words that may come before a device function's return type.
_SPECIFIERS = {"__device__", "__host__", "__forceinline__", "__noinline__",
               "static", "inline", "__inline__", "constexpr", "extern"}


class EmulatedKernel:
    """A generated kernel, callable on NumPy arrays through
    emulate_cuda_kernel: kernel(*args, n_threads=..., grid=..., block=...)."""

    def __init__(self, source, name, options=()):
        self.source = source
        self.name = name
        self.options = tuple(options)
        self._raw = None

    @property
    def raw(self):
        """The fake RawKernel (compiled without checkers, optimised)."""
        return self.raw_with(None, False)

    def raw_with(self, check, debug):
        """The fake RawKernel compiled with these checkers and debug mode."""
        key = (check, bool(debug))
        if self._raw is None:
            self._raw = {}
        if key not in self._raw:
            self._raw[key] = _fake().RawKernel(self.source, self.name,
                                               options=self.options,
                                               _checks=check, _debug=debug)
        return self._raw[key]

    def __call__(self, *args, **launch):
        emulate_cuda_kernel(self.raw, *args, **launch)


def device_function_kernel(header_source, signature, *, name=None, includes=(),
                           n_threads_param="n", out_param="out", options=()):
    """Generates an elementwise extern "C" __global__ kernel that calls the
    __device__ function of `signature` once per thread: pointer parameters
    are passed unchanged, a scalar parameter `T x` becomes `const T* x` read
    at the thread's index, so does `const T& x`, a reference `T& x` becomes
    `T* x` whose element the function may write, the return value goes to
    `R* out` (none for void) and `int n` is the element count. Specifiers
    before the return type (__device__, __host__, __forceinline__, static,
    inline, constexpr) are allowed and ignored. Raises ValueError for a
    struct or pointer return type or a parameter named like out_param or
    n_threads_param."""
    m = _SIGNATURE.match(signature)
    if not m:
        raise ValueError(f"cannot parse the signature {signature!r}")
    ret = " ".join(w for w in m.group("ret").split() if w not in _SPECIFIERS)
    func = m.group("name")
    if "*" in ret or "&" in ret:
        raise ValueError(f"{func}: a pointer or reference return type ({ret}) "
                         "is not supported")
    from fake_cupy._kernel import _kind_of
    if ret != "void" and _kind_of(ret) is None:
        raise ValueError(f"{func}: the return type {ret} is not a scalar type")
    params, call = [], []
    text = m.group("params").strip()
    for raw in ([] if text in ("", "void") else text.split(",")):
        pm = re.match(r"^(?P<type>.*?)(?P<name>\w+)\s*$", raw.strip(), re.S)
        if not pm:
            raise ValueError(f"cannot parse the parameter {raw.strip()!r}")
        ptype, pname = " ".join(pm.group("type").split()), pm.group("name")
        if pname in (out_param, n_threads_param):
            raise ValueError(f"{func}: parameter {pname!r} clashes with the "
                             "generated parameters; rename it or pass "
                             "out_param=/n_threads_param=")
        if "*" in ptype:
            params.append(f"{ptype} {pname}")
            call.append(pname)
        elif "&" in ptype:
            base = ptype.replace("&", "").strip()
            params.append(f"{base}* {pname}")
            call.append(f"{pname}[i]")
        else:
            base = ptype.replace("const ", "").strip()
            params.append(f"const {base}* {pname}")
            call.append(f"{pname}[i]")
    if ret != "void":
        params.append(f"{ret}* {out_param}")
    params.append(f"int {n_threads_param}")
    kname = name or f"{func}_kernel"
    lines = []
    for inc in includes:
        lines.append(f"#include {inc}" if inc.startswith("<")
                     else f'#include "{inc}"')
    lines.append(header_source)
    body = (f"{out_param}[i] = {func}({', '.join(call)});" if ret != "void"
            else f"{func}({', '.join(call)});")
    lines.append(
        f'extern "C" __global__ void {kname}({", ".join(params)})\n'
        "{\n"
        "  int i = blockDim.x * blockIdx.x + threadIdx.x;\n"
        f"  if (i >= {n_threads_param}) return;\n"
        f"  {body}\n"
        "}\n")
    return EmulatedKernel("\n".join(lines), kname, options)


# ---- pytest objects (pytest imported on use) --------------------------------------

ParityCase = collections.namedtuple("ParityCase", "kernel make_args settings")
ParityCase.__new__.__defaults__ = (None,)
ParityCase.__doc__ = ("A parity case: a KernelPair, make_args(backend, seed) "
                      "and assert_kernels_agree's settings (n_threads, grid, "
                      "block, rtol, atol, n_calls, outputs, seed).")


def parity_cases(cases):
    """One pytest.param(case, id=name) per entry of a {name: ParityCase}
    mapping; a case without make_args is marked skip with the reason."""
    import pytest
    params = []
    for name, case in dict(cases).items():
        marks = ()
        if case.make_args is None:
            marks = pytest.mark.skip(reason=f"{name}: no make_args")
        params.append(pytest.param(case, id=name, marks=marks))
    return params


def check_parity(case, **overrides):
    """Runs assert_kernels_agree with the case's settings, overridden by
    keyword arguments."""
    if case.make_args is None:
        raise ValueError("the parity case has no make_args")
    if not callable(case.make_args):
        raise TypeError("make_args must be callable")
    settings = dict(case.settings or {})
    settings.update(overrides)
    return assert_kernels_agree(case.kernel, case.make_args, **settings)


def _requires_cupy():
    import pytest
    return pytest.mark.skipif(not gpu_available(),
                              reason="the real CuPy and a CUDA device are not available")


def _backends():
    import pytest
    return ["numpy", "emulated", pytest.param("cupy", marks=_requires_cupy())]


def _backend_fixture():
    import pytest

    @pytest.fixture(params=_backends())
    def backend(request):
        """The backend name: "numpy", "emulated" and, with a GPU, "cupy"."""
        return request.param
    return backend


def __getattr__(name):
    if name == "BACKENDS":
        return _backends()
    if name == "requires_cupy":
        return _requires_cupy()
    if name == "backend":
        value = _backend_fixture()
        globals()["backend"] = value
        return value
    raise AttributeError(f"module 'cuemu.testing' has no attribute {name!r}")
