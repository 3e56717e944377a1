"""CuPy's percentile and quantile (cupy/_statistics/order.py), whose
methods are narrower than NumPy's; the values are NumPy's.

CuPy computes the methods linear, lower, higher, midpoint, nearest and
inverted_cdf. NumPy 1.22's other methods raise ValueError ("'hazen' method
is not yet supported. Please use any other method."), any other name
ValueError ("Unexpected interpolation method."). `interpolation=`, which
NumPy 2.4 no longer takes, is the deprecated name of `method=`: a
DeprecationWarning, and TypeError when `method=` is given too. A list or a
tuple `q` becomes a host array (the result's dtype is NumPy's for it), and a
`q` of more than one dimension raises ValueError. The data `a` must be an array:
CuPy's first step, cupy.result_type(a, q), is NumPy's TypeError for a list
or a tuple, and a Python number fails at its first array attribute
(AttributeError). CuPy's range check of `q`
only asks that some value be in range, and a value out of range then reads
outside the sorted data; the fake refuses any value out of range, with
CuPy's message."""
import warnings

import numpy

from fake_cupy import _functions
from fake_cupy._ndarray import ndarray

_numpy_quantile = _functions.delegate(numpy.quantile)

_SUPPORTED = ("linear", "lower", "higher", "midpoint", "nearest", "inverted_cdf")
_NOT_YET = ("averaged_inverted_cdf", "closest_observation",
            "interpolated_inverted_cdf", "hazen", "weibull", "median_unbiased",
            "normal_unbiased")


def _check_interpolation_as_method(method, interpolation, fname):
    """The method named by the deprecated `interpolation=` keyword."""
    warnings.warn(
        f"the `interpolation=` argument to {fname} was renamed to `method=`, "
        "which has additional options.\nUsers of the modes 'nearest', "
        "'lower', 'higher', or 'midpoint' are encouraged to review the "
        "method they. (Deprecated NumPy 1.22)", DeprecationWarning, stacklevel=3)
    if method != "linear":
        raise TypeError("You shall not pass both `method` and `interpolation`!\n"
                        "(`interpolation` is Deprecated in favor of `method`)")
    return interpolation


def _in_range(q):
    host = q.get() if isinstance(q, ndarray) else numpy.asarray(q)
    return bool(numpy.all((0.0 <= host) & (host <= 1.0)))


def _quantile_unchecked(a, q, axis, out, overwrite_input, method, keepdims):
    # CuPy begins with cupy.result_type(a, q), NumPy's result_type of a's
    # dtype: a list or a tuple `a` is NumPy's TypeError there, and a Python
    # number has no array attribute for the next step.
    numpy.result_type(*(x.dtype if isinstance(x, ndarray) else x for x in (a, q)))
    if not isinstance(a, (ndarray, numpy.ndarray)):
        attr = "ndim" if keepdims or axis is not None else \
            "ravel" if overwrite_input else "flatten"
        raise AttributeError(f"'{type(a).__name__}' object has no attribute '{attr}'")
    if numpy.ndim(q) > 1:
        raise ValueError("Expected q to have a dimension of 1.\n"
                         f"Actual: {numpy.ndim(q)} != 1")
    if method in _NOT_YET:
        raise ValueError(f"'{method}' method is not yet supported. "
                         "Please use any other method.")
    if method not in _SUPPORTED:
        raise ValueError("Unexpected interpolation method.\n"
                         f"Actual: '{method}' not in ('linear', 'lower', "
                         "'higher', 'midpoint')")
    if isinstance(q, numpy.ndarray):
        q = _functions.asarray(q)   # as CuPy's cupy.asarray(q)
    return _numpy_quantile(a, q, axis=axis, out=out,
                           overwrite_input=overwrite_input, method=method,
                           keepdims=keepdims)


def percentile(a, q, axis=None, out=None, overwrite_input=False,
               method="linear", keepdims=False, *, interpolation=None):
    """cupy.percentile: the q-th percentiles of `a`."""
    if interpolation is not None:
        method = _check_interpolation_as_method(method, interpolation, "percentile")
    if isinstance(q, (tuple, list)):
        q = numpy.asarray(q)
    q = q / 100
    if not _in_range(q):
        raise ValueError("Percentiles must be in the range [0, 100]")
    return _quantile_unchecked(a, q, axis, out, overwrite_input, method, keepdims)


def quantile(a, q, axis=None, out=None, overwrite_input=False,
             method="linear", keepdims=False, *, interpolation=None):
    """cupy.quantile: the q-th quantiles of `a`."""
    if interpolation is not None:
        method = _check_interpolation_as_method(method, interpolation, "quantile")
    if isinstance(q, (tuple, list)):
        q = numpy.asarray(q)
    if not _in_range(q):
        raise ValueError("Quantiles must be in the range [0, 1]")
    return _quantile_unchecked(a, q, axis, out, overwrite_input, method, keepdims)
