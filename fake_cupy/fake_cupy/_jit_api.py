"""cupyx.jit's public names: the rawkernel decorator and the kernel
object, and the names a kernel uses (threadIdx, grid, syncthreads, the
atomics, ...), which only mean something inside a kernel: called from
Python they raise RuntimeError. See _jit.py for the translation."""
import builtins

import numpy

from fake_cupy._ndarray import ndarray


class _Dim3Name:
    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return f"<cupyx.jit.{self.name}: dim3, in a kernel only>"


threadIdx = _Dim3Name("threadIdx")
blockIdx = _Dim3Name("blockIdx")
blockDim = _Dim3Name("blockDim")
gridDim = _Dim3Name("gridDim")


class _WarpSize:
    def __repr__(self):
        return "<cupyx.jit.warpsize: 32, in a kernel only>"


warpsize = _WarpSize()


def _kernel_only(name):
    def func(*args, **kwargs):
        raise RuntimeError(f"cupyx.jit.{name} can only be used in a "
                           "cupyx.jit kernel")
    func.__name__ = name
    func.__qualname__ = name
    return func


_NAMES = ["grid", "gridsize", "laneid", "syncthreads", "syncwarp",
          "shfl_sync", "shfl_up_sync", "shfl_down_sync", "shfl_xor_sync",
          "shared_memory"] + [f"atomic_{op}" for op in (
              "add", "sub", "exch", "min", "max", "inc", "dec", "cas", "and",
              "or", "xor")]
for _name in _NAMES:
    globals()[_name] = _kernel_only(_name)
BUILTINS = {globals()[n] for n in _NAMES}


def range(*args, unroll=None):
    """cupyx.jit.range: range with loop unrolling (unroll=True, False or a
    count) inside a kernel; outside it, the built-in range."""
    return builtins.range(*args)


def _dims(value, what):
    if isinstance(value, tuple):
        dims = value
    else:
        dims = (value,)
    if not 1 <= len(dims) <= 3:
        raise ValueError(f"{what} must have 1 to 3 dimensions")
    return dims


class JitRawKernel:
    """The object @cupyx.jit.rawkernel() returns. Called as
    kernel(grid, block, args, shared_mem=0, stream=None) or
    kernel[grid, block](*args)."""

    def __init__(self, func, mode="cuda", device=False):
        self.func = func
        self.mode = mode
        self.device = device
        self.__name__ = func.__name__
        self.__doc__ = func.__doc__
        self._kernels = {}
        self._codes = {}

    def __call__(self, grid, block, args, shared_mem=0, stream=None):
        from fake_cupy import _jit
        if self.device:
            raise RuntimeError("a device function is called from kernels")
        if not isinstance(args, tuple):
            raise TypeError("args must be a tuple")
        types = [_jit._arg_type(a, self.mode) for a in args]
        key = tuple(_jit._type_key(t) for t in types)
        kernel = self._kernels.get(key)
        if kernel is None:
            from fake_cupy._kernel import RawKernel
            name = f"{self.func.__name__}_{len(self._kernels)}"
            code = _jit.translate(self.func, types, name, self.mode)
            kernel = RawKernel(code, name, _generated=True)
            self._kernels[key] = kernel
            self._codes[key] = code
        from fake_cupy._elementwise import _carray
        kargs = []
        for a, t in zip(args, types):
            if isinstance(a, ndarray):
                kargs.append(_carray(a))
            else:
                kargs.append(numpy.array(a, dtype=t.dtype)[()])
        kernel(_dims(grid, "grid"), _dims(block, "block"), tuple(kargs),
               shared_mem=shared_mem, stream=stream)
        from fake_cupy import _runtime
        if _runtime.async_mode() == "deferred":
            # CArray arguments hold raw addresses the lifetime checker
            # cannot follow: the launch runs before they can go.
            _runtime.drain()

    def __getitem__(self, grid_and_block):
        if not isinstance(grid_and_block, tuple) or \
                len(grid_and_block) != 2:
            raise ValueError("kernel[grid, block](*args)")
        grid, block = grid_and_block
        return lambda *args, **kwargs: self(grid, block, args, **kwargs)

    @property
    def cached_codes(self):
        """The CUDA C of each compiled signature."""
        return dict(self._codes)

    @property
    def cached_code(self):
        """The CUDA C of the only compiled signature."""
        codes = list(self._codes.values())
        if len(codes) != 1:
            raise ValueError("The kernel has been compiled for "
                             f"{len(codes)} signatures: use cached_codes")
        return codes[0]

    def __repr__(self):
        return f"<cupyx.jit.rawkernel {self.func.__name__}>"


def rawkernel(*, mode="cuda", device=False):
    """@cupyx.jit.rawkernel(): a CUDA kernel (or, with device=True, a
    device function for kernels) from a Python function."""
    def decorator(func):
        return JitRawKernel(func, mode, device)
    return decorator
