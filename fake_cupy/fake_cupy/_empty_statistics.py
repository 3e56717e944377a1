"""mean, var, std and the nan-ignoring forms on slices without elements or
without degrees of freedom, as CuPy 13's kernels give them
(cupy/_core/_routines_statistics.pyx).

CuPy's mean of an empty slice is the sum over the count in its reduction
kernel, 0 / 0: nan, without the RuntimeWarning "Mean of empty slice" that
NumPy's Python code raises; nanmean of an all-NaN slice is nan the same way,
and so are average, median and the nan forms of var, std and median (only
nanmin and nanmax warn of an all-NaN slice in CuPy, as in NumPy: not here).
Its variance multiplies the sum of squares by alpha = 1 / (N - ddof), and by
nan when N - ddof is 0 or less: every element of such a result is nan (NumPy
divides by zero, giving inf for a non-zero spread, and warns "Degrees of
freedom <= 0 for slice"); std is its square root.
"""
import warnings

import numpy


def _quiet(func):
    """`func` without NumPy's warnings about empty slices and degrees of
    freedom (CuPy's kernels emit none)."""
    def run(*args, **kwargs):
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", "Mean of empty slice", RuntimeWarning)
            warnings.filterwarnings("ignore", "Degrees of freedom <= 0", RuntimeWarning)
            warnings.filterwarnings("ignore", "All-NaN slice encountered", RuntimeWarning)
            return func(*args, **kwargs)
    return run


def _items(a, axis):
    """How many elements of `a` each result element reduces."""
    shape = numpy.shape(a)
    if axis is None:
        return int(numpy.prod(shape))
    axes = axis if isinstance(axis, tuple) else (axis,)
    return int(numpy.prod([shape[ax] for ax in axes]))


def _spread(func):
    """var or std as CuPy's: nan wherever N - ddof <= 0."""
    quiet = _quiet(func)

    def run(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, **kwargs):
        result = quiet(a, axis=axis, dtype=dtype, out=out, ddof=ddof,
                       keepdims=keepdims, **kwargs)
        if _items(a, axis) - ddof > 0:
            return result
        if isinstance(result, numpy.ndarray):
            result[...] = numpy.nan
            return result
        return type(result)(numpy.nan)
    return run


# NumPy's callables the fake runs for these reductions, and CuPy's forms.
FORMS = {
    numpy.mean: _quiet(numpy.mean),
    numpy.ndarray.mean: _quiet(numpy.ndarray.mean),
    numpy.nanmean: _quiet(numpy.nanmean),
    numpy.nanvar: _quiet(numpy.nanvar),
    numpy.nanstd: _quiet(numpy.nanstd),
    numpy.nanmedian: _quiet(numpy.nanmedian),
    numpy.average: _quiet(numpy.average),
    numpy.median: _quiet(numpy.median),
    numpy.var: _spread(numpy.var),
    numpy.ndarray.var: _spread(numpy.ndarray.var),
    numpy.std: _spread(numpy.std),
    numpy.ndarray.std: _spread(numpy.ndarray.std),
}
