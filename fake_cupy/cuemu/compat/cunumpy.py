"""cunumpy.kernel_testing's calling forms over cuemu, for a painless move:
replace ``from cunumpy.kernel_testing import ...`` by
``from cuemu.compat.cunumpy import ...`` (docs/migrating-from-cunumpy.md
lists what still differs).

- Kernels may be cunumpy objects (duck-typed, cunumpy need not be
  installed): a CudaKernel (source, name, options, include_dirs,
  source_dir, block_size, template_args, n_threads_from), a Kernel
  (host_kernel and cuda_kernel), as well as a fake RawKernel, a source
  string, or (source, name).
- template_args give the instantiation ("scale<double, 3>" from
  (numpy.float64, 3)); the kernel's block_size is its default block;
  n_threads may be "first_array", a callable of the arguments, or come
  from the kernel's n_threads_from.
- cunumpy's CUDA headers (<cunumpy/atomic.cuh>, ...) are found without
  -I when cunumpy is installed (CUNUMPY_INCLUDE_DIR names the folder
  otherwise).
- assert_kernels_agree calls make_args with the seed's backend names
  ("numpy", then "cupy" for the CUDA leg, which runs emulated), refuses
  n_calls < 1, takes outputs by index or by parameter name, and names the
  kernel in its failure messages. A kernel that does not compile or
  fails raises RuntimeError naming the kernel, as cunumpy's emulator does.
"""
import importlib.util
import inspect
import os
import re

import numpy

from cuemu import testing as _testing

_CTYPE_OF = {"float64": "double", "float32": "float", "float16": "__half",
             "int64": "long long", "int32": "int", "int16": "short",
             "int8": "signed char", "uint64": "unsigned long long",
             "uint32": "unsigned int", "uint16": "unsigned short",
             "uint8": "unsigned char", "bool": "bool",
             "complex128": "complex<double>", "complex64": "complex<float>"}


def ctype_of(dtype):
    """The C type of a NumPy dtype, as cunumpy's ctype_of."""
    name = numpy.dtype(dtype).name
    if name not in _CTYPE_OF:
        raise ValueError(f"no C type for dtype {name}")
    return _CTYPE_OF[name]


def _template_arg(value):
    if isinstance(value, bool) or isinstance(value, numpy.bool_):
        return "true" if value else "false"
    if isinstance(value, (int, numpy.integer)):
        return str(int(value))
    if isinstance(value, str):
        return value
    return ctype_of(value)


def expression(name, template_args):
    """"name<...>" for template arguments (dtypes, ints, bools, C type
    names), or the name itself."""
    if not template_args:
        return name
    return f"{name}<{', '.join(_template_arg(a) for a in template_args)}>"


def cuda_include_dir():
    """The folder holding cunumpy's CUDA headers (cunumpy/atomic.cuh, ...),
    without importing cunumpy: CUNUMPY_INCLUDE_DIR, else searched in the
    installed package; None when there is none."""
    env = os.environ.get("CUNUMPY_INCLUDE_DIR")
    if env:
        return env
    try:
        spec = importlib.util.find_spec("cunumpy")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    for root in spec.submodule_search_locations:
        for folder, dirs, files in os.walk(root):
            if os.path.basename(folder) == "cunumpy" and "atomic.cuh" in files:
                return os.path.dirname(folder)
            if folder.count(os.sep) - root.count(os.sep) > 3:
                dirs[:] = []
    return None


class _Spec:
    """What the emulator needs of a kernel, whatever form it came in."""

    def __init__(self, kernel, name=None, options=()):
        cp = _testing._fake()
        self.block_size = None
        self.n_threads_from = None
        self.host = None
        if hasattr(kernel, "cuda_kernel") and hasattr(kernel, "host_kernel"):
            self.host = kernel.host_kernel
            outer_name = getattr(kernel, "name", None)
            kernel = kernel.cuda_kernel
            if kernel is None:
                self.raw = None
                self.name = name or outer_name or "kernel"
                return
        if isinstance(kernel, _testing.KernelPair):
            self.host = kernel.host
            name = name or kernel.name
            options = tuple(options) + kernel.options
            kernel = kernel.cuda
        opts = list(options)
        if isinstance(kernel, cp.RawKernel):
            self.raw = kernel
            self.name = kernel.name
            self.source = kernel.code
            return
        if isinstance(kernel, tuple):
            kernel, name = kernel
        if isinstance(kernel, str):
            source = kernel
            if name is None:
                names = _global_names(source)
                if len(names) != 1:
                    raise ValueError(f"the source has {len(names)} __global__ "
                                     "functions; pass name=")
                name = names[0]
            expr = name
        else:   # a cunumpy CudaKernel, duck-typed
            source = kernel.source
            name = kernel.name
            expr = getattr(kernel, "expression", None) or expression(
                name, getattr(kernel, "template_args", None))
            opts += list(getattr(kernel, "options", ()) or ())
            for d in getattr(kernel, "include_dirs", ()) or ():
                opts.append(f"-I{d}")
            if getattr(kernel, "source_dir", None):
                opts.append(f"-I{kernel.source_dir}")
            self.block_size = getattr(kernel, "block_size", None)
            self.n_threads_from = getattr(kernel, "n_threads_from", None)
        include = cuda_include_dir()
        if include and f"-I{include}" not in opts:
            opts.append(f"-I{include}")
        self.name = name
        self.source = source
        self.raw = cp.RawKernel(source, expr, options=tuple(opts))

    def parameter_names(self):
        """The CUDA kernel's parameter names, from its source."""
        m = re.search(r"__global__\s+(?:__launch_bounds__\s*\([^)]*\)\s*)?"
                      r"void\s+" + re.escape(self.name) + r"\s*\(([^)]*)\)",
                      self.source or "")
        if not m:
            return None
        names = []
        for p in m.group(1).split(","):
            words = re.findall(r"\w+", p)
            if words:
                names.append(words[-1])
        return names


def _global_names(source):
    source = re.sub(r"//[^\n]*|/\*.*?\*/", "", source, flags=re.S)
    return re.findall(r"__global__\s+(?:__launch_bounds__\s*\([^)]*\)\s*)?"
                      r"void\s+(\w+)\s*\(", source)


def _n_threads(spec, n_threads, grid, args):
    if n_threads is None and grid is None:
        n_threads = spec.n_threads_from
        if n_threads is None:
            raise ValueError(f"kernel {spec.name}: give n_threads or grid "
                             "(or a kernel with n_threads_from)")
    if n_threads == "first_array":
        for a in args:
            if isinstance(a, numpy.ndarray) or hasattr(a, "shape"):
                return a.shape[0]
        raise ValueError(f"kernel {spec.name}: n_threads='first_array' but "
                         "no argument is an array")
    if callable(n_threads):
        return n_threads(args)
    return n_threads


def emulate_cuda_kernel(kernel, *args, n_threads=None, grid=None, block=None,
                        compiler=None, options=(), shared_mem=0, name=None):
    """cunumpy's emulate_cuda_kernel: runs the kernel on NumPy arrays
    (written back unless const). `compiler` is accepted and ignored
    (libcuemu compiles). Compile errors and kernel faults raise
    RuntimeError naming the kernel."""
    spec = kernel if isinstance(kernel, _Spec) else _Spec(kernel, name, options)
    if spec.raw is None:
        raise ValueError(f"kernel {spec.name} has no CUDA version")
    n = _n_threads(spec, n_threads, grid, args)
    if block is None and spec.block_size is not None:
        block = spec.block_size
    cp = _testing._fake()
    try:
        _testing.emulate_cuda_kernel(spec.raw, *args, n_threads=n, grid=grid,
                                     block=block, shared_mem=shared_mem)
    except (cp.cuda.compiler.CompileException,
            cp.cuda.driver.CUDADriverError) as e:
        raise RuntimeError(f"kernel {spec.name}: {e}") from e


def assert_kernels_agree(kernel, make_args, *, n_threads=None, grid=None,
                         block=None, rtol=1e-12, atol=0.0, n_calls=1,
                         outputs=None, seed=0):
    """cunumpy's assert_kernels_agree: the host kernel on make_args("numpy",
    seed) against the CUDA kernel, emulated, on make_args("cupy", seed)
    (device arrays are copied to the host first). outputs: indices
    (negative from the end) or the CUDA kernel's parameter names; by
    default the host kernel's declared outputs, else every argument.
    Returns the host arrays by argument name."""
    if isinstance(kernel, tuple) and len(kernel) == 2 and callable(kernel[0]):
        kernel = _testing.KernelPair(*kernel)
    spec = _Spec(kernel)
    if spec.raw is None:
        raise ValueError(f"kernel {spec.name} has no CUDA version")
    if spec.host is None:
        raise ValueError(f"kernel {spec.name} has no host version")
    if not isinstance(n_calls, int) or n_calls < 1:
        raise ValueError(f"n_calls must be a positive integer, not {n_calls!r}")
    if outputs is None:
        outputs = getattr(spec.host, "outputs", None)
    host_args = tuple(make_args("numpy", seed))
    for _ in range(n_calls):
        spec.host(*host_args)
    indices = _output_indices(spec, outputs, len(host_args))
    expected = _testing._arrays_of(host_args, indices)
    cuda_args = _testing._copy_args(_testing._to_host(tuple(make_args("cupy", seed))))
    for _ in range(n_calls):
        emulate_cuda_kernel(spec, *cuda_args, n_threads=n_threads, grid=grid,
                            block=block)
    actual = _testing._arrays_of(cuda_args, indices)
    for key, want in expected.items():
        numpy.testing.assert_allclose(
            actual[key], want, rtol=rtol, atol=atol,
            err_msg=f"{key} differs between the host and the CUDA version of "
                    f"kernel {spec.name} (emulated)")
    return dict(expected)


def _output_indices(spec, outputs, nargs):
    if outputs is None:
        return None
    names = spec.parameter_names() or []
    host_names = None
    try:
        host_names = list(inspect.signature(spec.host).parameters)
    except (TypeError, ValueError):
        pass
    out = []
    for o in outputs:
        if isinstance(o, str):
            for candidates in (names, host_names or []):
                if o in candidates:
                    out.append(candidates.index(o))
                    break
            else:
                raise ValueError(f"kernel {spec.name}: no parameter named "
                                 f"{o!r} (parameters: {', '.join(names)})")
        else:
            if not -nargs <= o < nargs:
                raise IndexError(f"kernel {spec.name}: output index {o} out "
                                 f"of range for {nargs} arguments")
            out.append(o)
    return out


def device_function_kernel(header_source, signature, *, name=None,
                           includes=(), n_threads_param="n", out_param="out",
                           **cuda_kernel_options):
    """cunumpy's device_function_kernel: the generated kernel, callable as
    kernel(*args, n_threads=...) on NumPy arrays. block_size, options and
    include_dirs of cuda_kernel_options apply; cunumpy's headers are found
    as for any kernel here."""
    options = list(cuda_kernel_options.pop("options", ()))
    for d in cuda_kernel_options.pop("include_dirs", ()) or ():
        options.append(f"-I{d}")
    include = cuda_include_dir()
    if include:
        options.append(f"-I{include}")
    block_size = cuda_kernel_options.pop("block_size", None)
    unknown = set(cuda_kernel_options) - {"source_dir", "structs",
                                          "check_signature", "debug"}
    if unknown:
        raise TypeError(f"unexpected CudaKernel options {sorted(unknown)}")
    kernel = _testing.device_function_kernel(
        header_source, signature, name=name, includes=includes,
        n_threads_param=n_threads_param, out_param=out_param,
        options=tuple(options))
    kernel.block_size = block_size
    return _DeviceFunctionKernel(kernel, block_size)


class _DeviceFunctionKernel:
    def __init__(self, kernel, block_size):
        self._kernel = kernel
        self.block_size = block_size
        self.name = kernel.name
        self.source = kernel.source

    def __call__(self, *args, n_threads=None, grid=None, block=None,
                 shared_mem=0):
        if block is None:
            block = self.block_size
        cp = _testing._fake()
        try:
            _testing.emulate_cuda_kernel(self._kernel.raw, *args,
                                         n_threads=n_threads, grid=grid,
                                         block=block, shared_mem=shared_mem)
        except (cp.cuda.compiler.CompileException,
                cp.cuda.driver.CUDADriverError) as e:
            raise RuntimeError(f"kernel {self.name}: {e}") from e


def install_fake_cupy():
    """Installs the fake CuPy as ``cupy`` (RuntimeError when the real one
    was imported already)."""
    import fake_cupy
    fake_cupy.install()


def fake_cupy_active():
    import fake_cupy
    return fake_cupy.installed()


def __getattr__(name):
    if name == "requires_cupy":
        import pytest
        return pytest.mark.skipif(not _testing.gpu_available(),
                                  reason="CuPy/GPU not available")
    if name == "BACKENDS":
        # The CUDA leg runs on the fake when there is no GPU, so "cupy" is
        # never skipped here.
        return ["numpy", "cupy"]
    raise AttributeError(f"module 'cuemu.compat.cunumpy' has no attribute "
                         f"{name!r}")
