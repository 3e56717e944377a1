"""fake_cupy: a strict stand-in for CuPy that runs RawKernels on the CPU.

``import fake_cupy as cupy`` gives CuPy's API over host memory: a distinct
ndarray that refuses implicit conversion to NumPy exactly as CuPy does,
RawKernel/RawModule compiled and run by libcuemu, streams, events, memory
pools, __cuda_array_interface__ (version 3) and DLPack (kDLCUDA).
``fake_cupy.install()`` (or CUEMU_FAKE_CUPY=1 with the cuemu pytest plugin)
makes ``import cupy`` and ``import cupyx`` return it.

Where the fake differs from CuPy (each also said where it applies):
- array operations run synchronously on the host through NumPy; only
  kernel launches are queued in deferred mode (CUEMU_ASYNC=deferred);
- kernel failures are not sticky: after the error is raised, the process
  and the emulated device stay usable;
- the code ElementwiseKernel, ReductionKernel, cupy.fuse and cupyx.jit
  generate is the fake's own (the same results);
- arrays of dtypes CuPy lacks are not refused (strings), except an object
  dtype: device memory holds no Python references (ValueError, as CuPy).
"""
import numpy as _numpy

from fake_cupy import _functions, _runtime
from fake_cupy._dlpack import from_dlpack, fromDlpack
from fake_cupy._errors import LifetimeError
from fake_cupy._functions import (array, asarray, asanyarray, ascontiguousarray,
                                  asfarray, asfortranarray, asnumpy, get_array_module,
                                  clip, imag, is_available, real, reshape, synchronize)
from fake_cupy._install import install, installed, uninstall
from fake_cupy._internals import clear_memo, memoize
from fake_cupy._elementwise import ElementwiseKernel, ReductionKernel, fuse
from fake_cupy._kernel import RawKernel, RawModule, set_strict
from fake_cupy._memory import (get_default_memory_pool,
                               get_default_pinned_memory_pool)
# CuPy's own names of the default pools (cupy/__init__.py), which public
# code calls directly: `cp._default_memory_pool.free_all_blocks()`.
_default_memory_pool = get_default_memory_pool()
_default_pinned_memory_pool = get_default_pinned_memory_pool()
from fake_cupy._ndarray import ndarray
from fake_cupy._flatiter import fill_diagonal, flatiter
from fake_cupy import cuda, _testing as testing
import sys as _sys
_sys.modules.setdefault("fake_cupy.testing", testing)

__version__ = "13.0.0+cuemu"
IS_FAKE = True


globals().update(_functions.CREATION)
globals().update(_functions.INDEX_TRICKS)

from fake_cupy import _random as random  # noqa: E402
from fake_cupy import _exceptions as exceptions  # noqa: E402
_sys.modules.setdefault("fake_cupy.exceptions", exceptions)
from fake_cupy._exceptions import (AxisError, ComplexWarning,  # noqa: E402,F401
                                   ModuleDeprecationWarning, RankWarning,
                                   TooHardError, VisibleDeprecationWarning)
from fake_cupy import _linalg  # noqa: E402
linalg = _functions.delegate_module("fake_cupy.linalg", _linalg, signatures="cupy.linalg")
fft = _functions.delegate_module("fake_cupy.fft", _numpy.fft, "cupy.fft")
from fake_cupy import _fft_plan, _fft_config, _fft_arguments  # noqa: E402
_fft_plan.install(fft, takes_plan=False)
_fft_arguments.install(fft, "numpy")
fft.config = _fft_config
fft.__path__ = []              # a package, for `import cupy.fft.config`
_sys.modules.setdefault("fake_cupy.fft", fft)
_sys.modules.setdefault("fake_cupy.fft.config", _fft_config)
from fake_cupy._stride_tricks import lib  # noqa: E402
from fake_cupy._copyto import copyto  # noqa: E402,F401
from fake_cupy._einsum import einsum  # noqa: E402,F401
from fake_cupy import _index_wrap  # noqa: E402
take = _functions.delegate(_index_wrap.take)
put = _functions.delegate(_index_wrap.put)
ravel_multi_index = _functions.delegate(_index_wrap.ravel_multi_index)
from fake_cupy._sorting import (argpartition, argsort, lexsort,  # noqa: E402,F401
                                nanargmax, nanargmin, nonzero, partition,
                                repeat, searchsorted, sort, where)
from fake_cupy._histogram import (bincount, digitize, histogram,  # noqa: E402,F401
                                  histogram2d, histogramdd)
from fake_cupy._indexing import compress, extract  # noqa: E402,F401
from fake_cupy._setops import in1d, isin, unique  # noqa: E402,F401
from fake_cupy._quantile import percentile, quantile  # noqa: E402,F401
# CuPy keeps round_ (cupy/_math/rounding.py: around), which NumPy 2 removed.
round_ = _functions.delegate(_numpy.around)
# CuPy 13's sign and angle, whose values differ from NumPy 2's.
from fake_cupy._own_ufunc import angle, sign  # noqa: E402,F401
from fake_cupy._trapz import trapz  # noqa: E402,F401
from fake_cupy._apply_along_axis import apply_along_axis  # noqa: E402,F401
from fake_cupy._interp import interp  # noqa: E402,F401
from fake_cupy._ediff1d import ediff1d  # noqa: E402,F401
from fake_cupy._polynomial import polyfit, polyval  # noqa: E402,F401
from fake_cupy._convolve import convolve, correlate  # noqa: E402,F401
from fake_cupy._nan_to_num import nan_to_num  # noqa: E402,F401
from fake_cupy._correlation import cov  # noqa: E402,F401
# NumPy's functions called on the fake's arrays dispatch to these forms.
from fake_cupy import _ndarray as _ndarray_module  # noqa: E402
_ndarray_module.CUPY_FORMS.update({_numpy.sign: sign, _numpy.angle: angle,
                                   _numpy.clip: clip})
from fake_cupy import _typing as typing  # noqa: E402
_sys.modules.setdefault("fake_cupy.typing", typing)
# NumPy 1's names that CuPy 13 keeps on NumPy 2, from where CuPy takes them.
from fake_cupy._numpy1_names import (  # noqa: E402,F401
    NAN, NINF, NZERO, PINF, PZERO, Inf, Infinity, NaN, alltrue, cfloat,
    complex_, cumproduct, disable_experimental_feature_warning, disp,
    find_common_type, float_, get_array_wrap, infty, msort, product,
    safe_eval, set_string_function, singlecomplex, sometrue)
from fake_cupy._numpy1_types import (  # noqa: E402,F401
    byte_bounds, issctype, issubclass_, issubsctype, obj2sctype, sctype2char)
from fake_cupy import sparse  # noqa: E402,F401
from fake_cupy._who import who  # noqa: E402,F401
from numpy.rec import format_parser  # noqa: E402,F401
from numpy.lib.npyio import DataSource  # noqa: E402,F401
from fake_cupy import _cupy_keywords, _cupy_names  # noqa: E402


# Where CuPy has some of NumPy's names that its module lacks, or why it
# lacks them: the fake's AttributeError says so after CuPy's message.
_ELSEWHERE_IN_CUPY = {
    "errstate": "CuPy's error state is cupyx.errstate",
    "seterr": "CuPy's error state is cupyx.seterr",
    "geterr": "CuPy's error state is cupyx.geterr",
    "seterrcall": "CuPy's error state is cupyx's, without callbacks",
    "geterrcall": "CuPy's error state is cupyx's, without callbacks",
    "nanpercentile": "cupy/_statistics/order.py has percentile and quantile only",
    "nanquantile": "cupy/_statistics/order.py has percentile and quantile only",
    # NumPy's submodules for masked, string and record arrays, which CuPy
    # does not implement (its comparison table; masked arrays: CuPy's
    # issue 2225). Through NumPy's, `cupy.ma.masked_array(x, mask)` failed
    # with the implicit-conversion TypeError, far from the cause.
    "ma": "CuPy implements no masked arrays: keep a boolean mask beside the "
          "data (cupy.where, the nan-functions)",
    "char": "CuPy has no string arrays",
    "strings": "CuPy has no string arrays",
    "rec": "CuPy has no record arrays",
}


# The fake's own functions (creation, reshape, ...) take CuPy's keywords
# only, as the delegates below do (_cupy_keywords.py).
for _name in _cupy_keywords.SIGNED["cupy"] & set(globals()):
    globals()[_name] = _cupy_keywords.checked("cupy", _name, globals()[_name])
del _name


def __getattr__(name):
    """CuPy's other names come from NumPy: types and constants as they are,
    functions (ufuncs, reductions, ...) as delegates on fake arrays. A name
    that no CuPy release has (_cupy_names) raises CuPy's AttributeError,
    also where NumPy has it."""
    _cupy_names.check("cupy", name, _ELSEWHERE_IN_CUPY.get(name))
    try:
        value = getattr(_numpy, name)
    except AttributeError:
        raise AttributeError(f"module 'cupy' has no attribute {name!r}") from None
    if callable(value) and not isinstance(value, type):
        # CuPy's keywords only (_cupy_keywords.py).
        value = _cupy_keywords.checked("cupy", name, _functions.delegate(value))
    globals()[name] = value
    return value


# The fake's own names that CuPy lacks, kept out of a star import.
_FAKE_ONLY = ("install", "installed", "uninstall", "set_strict", "IS_FAKE",
              "LifetimeError")


def _star_names():
    """What `from cupy import *` takes. CuPy defines no __all__, so a star
    import gives its public names; the fake resolves NumPy's lazily, so its
    list is NumPy's __all__ without the names no CuPy release has
    (_cupy_names) and without NumPy's submodules the fake does not provide
    (ma, char, core, f2py, ...), with the fake's own public names except its
    helpers (_FAKE_ONLY)."""
    import types
    names = {n for n in _numpy.__all__ if n in _cupy_names.NAMES["cupy"] and
             not isinstance(getattr(_numpy, n), types.ModuleType)}
    names.update(n for n in globals() if not n.startswith("_"))
    return sorted(names.difference(_FAKE_ONLY))


__all__ = _star_names()
