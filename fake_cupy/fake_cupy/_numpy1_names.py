"""CuPy 13's names that NumPy 2 removed: NumPy 1's constants and type
aliases, which CuPy defines itself on NumPy 2 (cupy/__init__.py); the
deprecated function aliases of cupy/_logic/truth.py, cupy/_math/sumprod.py
and cupy/_sorting/sort.py, which warn DeprecationWarning with CuPy's text
and call the function they name; and the NumPy functions that CuPy 13
re-exported and NumPy 2 removed without a replacement, which CuPy keeps as
functions raising RuntimeError on NumPy 2."""
import warnings

import numpy

PINF = Inf = Infinity = infty = numpy.inf
NINF = -numpy.inf
NAN = NaN = numpy.nan
PZERO = 0.0
NZERO = -0.0
float_ = numpy.float64
complex_ = cfloat = numpy.complex128
singlecomplex = numpy.complex64
disable_experimental_feature_warning = False


def _cupy():
    import fake_cupy
    return fake_cupy


def alltrue(a, axis=None, out=None, keepdims=False):
    warnings.warn("Please use `all` instead.", DeprecationWarning, stacklevel=2)
    return _cupy().all(a, axis, out, keepdims)


def sometrue(a, axis=None, out=None, keepdims=False):
    warnings.warn("Please use `any` instead.", DeprecationWarning, stacklevel=2)
    return _cupy().any(a, axis, out, keepdims)


def product(a, axis=None, dtype=None, out=None, keepdims=False):
    warnings.warn("Please use `prod` instead.", DeprecationWarning, stacklevel=2)
    return _cupy().prod(a, axis, dtype, out, keepdims)


def cumproduct(a, axis=None, dtype=None, out=None):
    warnings.warn("Please use `cumprod` instead.", DeprecationWarning, stacklevel=2)
    return _cupy().cumprod(a, axis, dtype, out)


def msort(a):
    warnings.warn("msort is deprecated, use cupy.sort(a, axis=0) instead",
                  DeprecationWarning, stacklevel=2)
    return _cupy().sort(a, axis=0)


def _removed_in_numpy2(name, recommendation):
    def removed(*args, **kwargs):
        raise RuntimeError(
            f"This function has been removed in NumPy v2.\nUse {recommendation} "
            "instead.\n\nCuPy has been providing this function as an alias to the "
            "NumPy implementation, so it cannot be used in environments with "
            "NumPy v2 installed.")
    removed.__name__ = removed.__qualname__ = name
    return removed


find_common_type = _removed_in_numpy2("find_common_type",
                                      "`promote_types` or `result_type`")
set_string_function = _removed_in_numpy2("set_string_function",
                                         "`np.set_printoptions`")
get_array_wrap = _removed_in_numpy2("get_array_wrap", "<no replacement>")
disp = _removed_in_numpy2("disp", "your own print function")
safe_eval = _removed_in_numpy2("safe_eval", "`ast.literal_eval`")
