"""cupyx of the fake CuPy: cupyx.jit (see _jit.py), cupyx.profiler (see
_profiler.py; cupyx.time.repeat is its old name), cupyx.errstate, seterr
and geterr (see _ufunc_config.py), pinned host arrays (NumPy arrays here),
and cupyx.scipy, whose submodules (cupyx.scipy.special, ...) delegate to SciPy's
as cupy.linalg delegates to NumPy's; without SciPy importing one raises
ImportError, as the real cupyx.scipy needs no SciPy but the fake does."""
import importlib as _importlib
import importlib.abc as _importlib_abc
import importlib.machinery as _importlib_machinery
import sys as _sys
import types as _types

import numpy as _numpy

from fake_cupy import _cupy_keywords, _cupy_names
from fake_cupy import _jit_api as jit  # noqa: F401 (cupyx.jit)
from fake_cupy import _memory, _profiler
from fake_cupy import _own_ufunc, _scatter as _scatter_module
from fake_cupy._ufunc_config import errstate, geterr, seterr  # noqa: F401

profiler = _types.ModuleType("cupyx.profiler", "Fake CuPy's cupyx.profiler.")
profiler.benchmark = _profiler.benchmark
profiler.time_range = _profiler.time_range
profiler.profile = _profiler.profile

time = _types.ModuleType("cupyx.time", "Fake CuPy's cupyx.time (deprecated "
                        "since CuPy v10 for cupyx.profiler).")


def _repeat(func, args=(), kwargs={}, n_repeat=10000, *, name=None,
            n_warmup=10, max_duration=float("inf"), devices=None):
    """cupyx.time.repeat: cupyx.profiler.benchmark under its old name."""
    import warnings
    warnings.warn("cupyx.time.repeat is deprecated since CuPy v10: use "
                  "cupyx.profiler.benchmark", DeprecationWarning, stacklevel=2)
    return _profiler.benchmark(func, args, kwargs, n_repeat, name=name,
                               n_warmup=n_warmup, max_duration=max_duration,
                               devices=devices)


_repeat.__name__ = "repeat"
time.repeat = _repeat

scipy = _types.ModuleType("cupyx.scipy", "Fake CuPy's cupyx.scipy: delegates "
                         "of SciPy's modules.")
scipy.__path__ = []       # a package, so that its submodules can be imported


def _scipy_get_array_module(*args):
    """cupyx.scipy.get_array_module: cupyx.scipy when an argument is a fake
    CuPy array (or a value cupy.fuse traces), else SciPy itself."""
    from fake_cupy import _functions
    import fake_cupy
    if _functions.get_array_module(*args) is fake_cupy:
        return scipy
    import scipy as real_scipy
    return real_scipy


scipy.get_array_module = _scipy_get_array_module


def _scipy_getattr(name):
    """cupyx.scipy.NAME: a submodule CuPy has, imported on first use as
    CuPy 14's cupyx.scipy does; any other name raises CuPy's
    AttributeError."""
    _cupy_names.check("cupyx.scipy", name)
    return _importlib.import_module("cupyx.scipy." + name)


scipy.__getattr__ = _scipy_getattr


class _ScipyFinder(_importlib_abc.MetaPathFinder, _importlib_abc.Loader):
    """Imports cupyx.scipy.NAME as the delegates of scipy.NAME."""

    def find_spec(self, fullname, path=None, target=None):
        # Only CuPy's modules: `import cupyx.scipy.optimize` raises
        # ModuleNotFoundError, as on a GPU.
        if fullname not in _cupy_names.NAMES or not fullname.startswith("cupyx.scipy."):
            return None
        return _importlib_machinery.ModuleSpec(fullname, self)

    def create_module(self, spec):
        module = self._create(spec)
        # The fake's own functions take CuPy's keywords only, as the
        # delegates do (_cupy_keywords.py).
        for attr in _cupy_keywords.SIGNED.get(spec.name, set()) & set(vars(module)):
            setattr(module, attr, _cupy_keywords.checked(spec.name, attr, getattr(module, attr)))
        return module

    def _create(self, spec):
        from fake_cupy import _functions
        if spec.name in ("cupyx.scipy.sparse", "cupyx.scipy.sparse.linalg"):
            # Matrices of device arrays (see _sparse.py), not delegates.
            from fake_cupy import _sparse
            return (_sparse.MODULE if spec.name == "cupyx.scipy.sparse"
                    else _sparse.linalg)
        if spec.name == "cupyx.scipy.sparse.csgraph":
            # CuPy's connected_components alone (_sparse_csgraph.py).
            from fake_cupy import _sparse_csgraph
            return _sparse_csgraph.MODULE
        if spec.name == "cupyx.scipy.stats":
            # CuPy's five functions only, as CuPy computes them (_stats.py).
            from fake_cupy import _stats
            return _stats.module(spec.name)
        if spec.name == "cupyx.scipy.linalg":
            # CuPy's functions only, with CuPy's arguments (_scipy_linalg.py).
            from fake_cupy import _scipy_linalg
            return _scipy_linalg.module(spec.name)
        name = "scipy." + spec.name[len("cupyx.scipy."):]
        try:
            module = _importlib.import_module(name)
        except ImportError as e:
            raise ImportError(f"the fake CuPy's {spec.name} delegates to "
                              f"{name}, which cannot be imported ({e})",
                              name=spec.name) from None
        # CuPy's names only (_cupyx_names.py), SciPy's others refused.
        proxy = _functions.delegate_module(spec.name, module, cupy_name=spec.name)
        proxy.__path__ = []
        if spec.name in ("cupyx.scipy.fftpack", "cupyx.scipy.fft"):
            # CuPy's cuFFT plans: get_fft_plan and the plan= argument.
            from fake_cupy import _fft_overwrite, _fft_plan
            _fft_plan.install(proxy, takes_plan=True)
            _fft_overwrite.install(proxy)
            # CuPy's arguments, dtypes and layouts (after the plans and
            # overwrite_x, which they wrap).
            from fake_cupy import _fft_arguments
            _fft_arguments.install(proxy, "fftpack" if spec.name.endswith(
                "fftpack") else "scipy")
        if spec.name == "cupyx.scipy.fft":
            from fake_cupy import _fft_backend, _fft_lengths
            _fft_backend.install(proxy)
            # cuFFT's fast lengths (2, 3, 5, 7), not pocketfft's.
            proxy.next_fast_len = _fft_lengths.next_fast_len
        if spec.name == "cupyx.scipy.special":
            # CuPy 13's functions that SciPy removed (sph_harm).
            from fake_cupy import _special
            for attr, func in _special.FUNCTIONS.items():
                setattr(proxy, attr, func)
        if spec.name == "cupyx.scipy.ndimage":
            # The interpolation functions as CuPy computes them (in the
            # image's precision), with CuPy's checks and mode='opencv'.
            from fake_cupy import _ndimage_distance, _ndimage_interpolation
            for attr, func in _ndimage_interpolation.FUNCTIONS.items():
                setattr(proxy, attr, _functions.delegate(func))
            # The correlation filters in CuPy's types (float32 sums for a
            # float32 image), and the derivative sums on cupy arrays.
            from fake_cupy import _ndimage_derivatives, _ndimage_filters
            for attr, func in _ndimage_filters.FUNCTIONS.items():
                setattr(proxy, attr, _functions.delegate(func))
            for attr, func in _ndimage_derivatives.FUNCTIONS.items():
                setattr(proxy, attr, func)
            for attr, per_axis in _ndimage_filters.RANK_FILTERS.items():
                setattr(proxy, attr, _ndimage_filters.rank_checked(
                    getattr(proxy, attr), per_axis))
            # CuPy's keywords of the Euclidean distance transform.
            proxy.distance_transform_edt = \
                _ndimage_distance.distance_transform_edt
            # CuPy's label, which reads its structure on the host.
            from fake_cupy import _ndimage_label
            proxy.label = _ndimage_label.label
            # CuPy's output dtypes of the Fourier filters (float16 taken).
            from fake_cupy import _ndimage_fourier
            for attr in _ndimage_fourier.NAMES:
                setattr(proxy, attr,
                        _ndimage_fourier.filtered(attr, getattr(proxy, attr)))
            # CuPy's checks of binary morphology's iterations.
            from fake_cupy import _ndimage_binary
            for attr, dilates in _ndimage_binary.FUNCTIONS.items():
                setattr(proxy, attr, _ndimage_binary.checked(
                    getattr(proxy, attr), dilates))
            # CuPy's measurements: cupy indexes, cupy arrays to `func`.
            from fake_cupy import _ndimage_measure
            for attr, func in _ndimage_measure.FUNCTIONS.items():
                setattr(proxy, attr, func)
        if spec.name == "cupyx.scipy.spatial.distance":
            # CuPy's own distances, which SciPy's module lacks.
            from fake_cupy import _spatial_distance
            for attr, func in _spatial_distance.FUNCTIONS.items():
                setattr(proxy, attr, func)
        if spec.name == "cupyx.scipy.signal":
            # The spectral functions copy host signals to the device, and
            # wiener takes float window sizes, as CuPy's do.
            from fake_cupy import _signal
            for attr, func in _signal.FUNCTIONS.items():
                setattr(proxy, attr, func)
        return proxy

    def exec_module(self, module):
        # cupyx.scipy.sparse.linalg is an attribute of cupyx.scipy.sparse.
        parent, _, child = module.__name__.rpartition(".")
        setattr(_sys.modules.get(parent, scipy), child, module)


_SCIPY_FINDER = _ScipyFinder()


class _PinnedHolder:
    """Keeps the pinned allocation alive as long as the NumPy array."""

    def __init__(self, pointer, array):
        self.pointer = pointer
        self.__array_interface__ = array.__array_interface__


def _pinned(shape, dtype, fill):
    dtype = _numpy.dtype(dtype)
    count = int(_numpy.prod(shape, dtype=_numpy.int64))
    pointer = _memory.alloc_pinned_memory(count * dtype.itemsize)
    view = _numpy.frombuffer(pointer, dtype=dtype, count=count).reshape(shape)
    out = _numpy.asarray(_PinnedHolder(pointer, view))
    if fill is not None:
        out[...] = fill
    return out


def _scatter(op):
    def scatter(a, slices, value):
        """cupyx.scatter_add/max/min: CuPy's a.scatter_add(slices, value)
        and its siblings (fake_cupy/_scatter.py)."""
        _scatter_module.scatter(a, slices, value, op)
    scatter.__name__ = "scatter_" + op
    return scatter


scatter_add = _scatter("add")
scatter_max = _scatter("max")
scatter_min = _scatter("min")


# cupyx.rsqrt: CuPy's ufunc (fake_cupy/_own_ufunc.py).
rsqrt = _own_ufunc.rsqrt


def empty_pinned(shape, dtype=float, order="C"):
    return _pinned(shape, dtype, None)


def zeros_pinned(shape, dtype=float, order="C"):
    return _pinned(shape, dtype, 0)


def empty_like_pinned(a, dtype=None, order="K", subok=None, shape=None):
    return _pinned(a.shape if shape is None else shape, dtype or a.dtype, None)


def zeros_like_pinned(a, dtype=None, order="K", subok=None, shape=None):
    return _pinned(a.shape if shape is None else shape, dtype or a.dtype, 0)


def __getattr__(name):
    """A name CuPy's cupyx lacks raises CuPy's AttributeError."""
    _cupy_names.check("cupyx", name)
    raise AttributeError(f"module 'cupyx' has no attribute {name!r} (the fake "
                         "CuPy does not provide it yet)")
