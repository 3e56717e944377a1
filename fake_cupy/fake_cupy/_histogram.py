"""CuPy's histogram functions, whose arguments are narrower than NumPy's
(cupy/_statistics/histogram.py); the counting itself is NumPy's.

- histogram: a string `bins` ('auto', 'fd') raises NotImplementedError
  ("only integer and array bins are implemented"), complex data raises
  NotImplementedError, data that is not a cupy.ndarray ValueError (a list
  has no `dtype`: AttributeError) and so do weights that are not one.
- histogramdd, histogram2d: bin edges are taken only as cupy arrays
  ("array-like bins not supported"); counts per dimension are ints.
- bincount: reads `x.ndim` (a list raises AttributeError), refuses a float
  `x` with "x must be int array" and compares `x.shape` with `weights.shape`.
- digitize: reads `x.dtype` and `bins.ndim` (a list raises AttributeError)
  and, to avoid a synchronization, does not check that the edges are
  monotonic: NumPy's ValueError for such edges is not raised, and the
  result is a binary search over them."""
import numpy

from fake_cupy import _functions
from fake_cupy._ndarray import ndarray, _new_from

_histogram = _functions.delegate(numpy.histogram)
_histogramdd = _functions.delegate(numpy.histogramdd)
_searchsorted = _functions.delegate(numpy.searchsorted)
_digitize = _functions.delegate(numpy.digitize)
_bincount = _functions.delegate(numpy.bincount)


def histogram(x, bins=10, range=None, weights=None, density=False):
    """cupy.histogram: counts (int64, or the weights' sum) and bin edges."""
    if x.dtype.kind == "c":
        raise NotImplementedError("complex number is not supported")
    if not isinstance(x, ndarray):
        raise ValueError("x must be a cupy.ndarray")
    if weights is not None and not isinstance(weights, ndarray):
        raise ValueError("weights must be a cupy.ndarray")
    if isinstance(bins, str):
        raise NotImplementedError("only integer and array bins are implemented")
    return _histogram(x, bins, range=range, weights=weights, density=density)


def _check_dd_bins(bins, ndim):
    """CuPy's histogramdd's reading of `bins`: an int for every dimension, or
    one entry per dimension, each an int or a 1-d cupy array of edges."""
    try:
        entries = list(bins)
    except TypeError:
        return
    if len(entries) != ndim:
        raise ValueError("The dimension of bins must be equal to the dimension "
                         "of the  sample x.")
    for i, entry in enumerate(entries):
        if numpy.ndim(entry) == 1 and not isinstance(entry, ndarray):
            raise ValueError("array-like bins not supported")
        if numpy.ndim(entry) > 1:
            raise ValueError(f"`bins[{i}]` must be a scalar or 1d array")


def histogramdd(sample, bins=10, range=None, weights=None, density=False):
    """cupy.histogramdd: the D-dimensional histogram and its edges."""
    if isinstance(sample, ndarray):
        ndim = 1 if sample.ndim == 1 else sample.shape[1]
    else:
        ndim = len(sample)
    _check_dd_bins(bins, ndim)
    _check_points(sample)
    return _histogramdd(sample, bins, range=range, weights=weights, density=density)


def _check_points(sample):
    """CuPy's histogramdd (and histogram2d, which calls it) counts the bins
    with cupy.bincount: its ValueError for a sample of no points (CuPy's
    issue 9362), where NumPy gives zeros."""
    points = sample.shape[0] if isinstance(sample, ndarray) else len(sample[0])
    if points == 0:
        bincount(ndarray((0,), numpy.intp))


def histogram2d(x, y, bins=10, range=None, weights=None, density=None):
    """cupy.histogram2d: histogramdd of (x, y); one cupy array of edges may
    serve both dimensions."""
    try:
        n = len(bins)
    except TypeError:
        n = 1
    if n not in (1, 2):
        if not isinstance(bins, ndarray):
            raise ValueError("array-like bins not supported in CuPy")
        bins = [bins, bins]
    elif n == 1 and not isinstance(bins, ndarray):
        bins = [bins, bins]
    _check_dd_bins(bins, 2)
    _check_points((x, y))
    hist, edges = _histogramdd((x, y), bins, range=range, weights=weights,
                               density=density)
    return hist, edges[0], edges[1]


def bincount(x, weights=None, minlength=None):
    """cupy.bincount: occurrences (intp), or weight sums (float64), per value."""
    if x.ndim > 1:
        raise ValueError("object too deep for desired array")
    if x.ndim < 1:
        raise ValueError("object of too small depth for desired array")
    if x.dtype.kind == "f":
        raise TypeError("x must be int array")
    if (x._host() < 0).any():
        raise ValueError("The first argument of bincount must be non-negative")
    if weights is not None and x.shape != weights.shape:
        raise ValueError("The weights and list don't have the same length.")
    if minlength is not None and int(minlength) < 0:
        raise ValueError("minlength must be non-negative")
    # CuPy 13 sizes the result with int(cupy.max(x)) + 1 before minlength,
    # so an empty x is the (CUB) maximum's ValueError, CuPy's issue 8116
    # (NumPy gives minlength zeros; CuPy's fix came after 13).
    if x.size == 0:
        raise ValueError("zero-size array to reduction operation CUPY_CUB_MAX "
                         "which has no identity")
    return _bincount(x, weights=weights, minlength=int(minlength or 0))


def digitize(x, bins, right=False):
    """cupy.digitize: for each value of `x`, the index of its bin."""
    if x.dtype.kind == "c":
        raise TypeError("x may not be complex")
    if bins.ndim > 1:
        raise ValueError("object too deep for desired array")
    if bins.ndim < 1:
        raise ValueError("object of too small depth for desired array")
    host = bins._host() if isinstance(bins, ndarray) else bins
    steps = numpy.diff(host)
    if (steps >= 0).all() or (steps <= 0).all():
        return _digitize(x, bins, right=right)
    # Edges neither increasing nor decreasing: CuPy's binary search, in the
    # direction of the first and last edge, without NumPy's ValueError.
    side = "left" if right else "right"
    if host[0] > host[-1]:
        reversed_bins = _new_from(numpy.ascontiguousarray(host[::-1]))
        return (host.size - _searchsorted(reversed_bins, x, side=side)).astype(numpy.int64)
    return _searchsorted(bins, x, side=side).astype(numpy.int64)
