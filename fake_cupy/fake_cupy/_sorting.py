"""CuPy's sorting and repeating functions whose arguments are narrower than
NumPy's (cupy/_sorting/sort.py, cupy/_sorting/search.py,
cupy/_manipulation/tiling.py).

cupy.lexsort reads `keys.ndim` first: its keys are one cupy.ndarray of rank
one or two, so a tuple or list of key arrays, which NumPy takes, raises
AttributeError, and keys of rank three or more raise NotImplementedError.
cupy.repeat is `a.repeat(repeats, axis)`: a list or a number has no such
method, a NumPy array answers with its own, and a cupy array refuses a
cupy.ndarray of repeats (ndarray.repeat in _ndarray.py). cupy.searchsorted
and ndarray.searchsorted take `a` and `v` only as cupy arrays (a Python
number or a list for `v` raises NotImplementedError), `a` of rank one.
cupy.argpartition and ndarray.argpartition check `kth` and then argsort the
whole axis, stably ("kth is ignored" in the CuPy source read; CuPy 11.1 and
later select with kth in a kernel whose arrangement was not checked), where
NumPy leaves the other elements in no order. cupy.partition copies the
array (`a.copy()`, or `a.flatten()` for axis=None) and partitions the copy
in place as ndarray.partition does (_routines_sorting.pyx): only a
C-contiguous array, with CuPy's errors; the axis is sorted whole when it
is shorter than 32, when max(kth) rounds up to 1024 or more, or when the
selection kernel would split the array into 32 subarrays or fewer;
otherwise CuPy's kernel leaves the smallest max(32, next power of two
above max(kth)) values sorted at the head of each row and the others in an
order of its own, for which the fake gives NumPy's partition order. cupy.nanargmax and nanargmin answer -1 for a slice of NaN only, where NumPy
raises ValueError ("For all-NaN slice -1 is returned": CuPy's reduction maps
each NaN to index -1).
cupy.sort, cupy.argsort and ndarray.sort/argsort sort stably (thrust), where
NumPy's default quicksort leaves equal keys in an order of its own, and take
`kind` only as None or 'stable' (ValueError "kind can only be None or
'stable'" otherwise, core.pyx `_check_kind_sort`). ndarray.sort sorts the
array's own memory: a view that is not C-contiguous raises
NotImplementedError and a 0-d array AxisError (_routines_sorting.pyx);
cupy.sort sorts a copy (`a.copy()`, or `a.flatten()` for axis=None).
ndarray.nonzero of a 0-d array warns ("calling nonzero on 0d arrays is
deprecated", DeprecationWarning) and answers one int64 array holding a 0 per
nonzero value, where NumPy 2.4 raises ValueError; cupy.nonzero is
`a.nonzero()` and cupy.where(condition) is cupy.nonzero(condition)
(_routines_indexing.pyx, search.py)."""
import warnings

import numpy

from fake_cupy import _functions
from fake_cupy._ndarray import ndarray, _call_numpy, _new_from

_numpy_lexsort = _functions.delegate(numpy.lexsort)
_numpy_searchsorted = _functions.delegate(numpy.searchsorted)


def lexsort(keys):
    """cupy.lexsort: indices sorting the rows of `keys`, the last row first."""
    if not isinstance(keys, (ndarray, numpy.ndarray)):
        raise AttributeError(f"'{type(keys).__name__}' object has no attribute 'ndim'")
    if keys.ndim > 2:
        raise NotImplementedError("Keys with the rank of three or more is not "
                                  "supported in lexsort")
    return _numpy_lexsort(keys)


def repeat(a, repeats, axis=None):
    """cupy.repeat: the elements of `a` repeated, through `a.repeat`."""
    return a.repeat(repeats, axis)


def searchsorted(a, v, side="left", sorter=None):
    """cupy.searchsorted: int64 insertion points of `v` into the sorted `a`."""
    if not isinstance(a, ndarray):
        raise NotImplementedError("Only int or ndarray are supported for a")
    if not isinstance(v, ndarray):
        raise NotImplementedError("Only int or ndarray are supported for v")
    if a.ndim > 1:
        raise ValueError("object too deep for desired array")
    if a.ndim < 1:
        raise ValueError("object of too small depth for desired array")
    found = _numpy_searchsorted(a, v, side=side, sorter=sorter)
    return found.astype(numpy.int64, copy=False)


ndarray.searchsorted = searchsorted


def _nanarg(numpy_function, name):
    def nanarg(a, axis=None, dtype=None, out=None, keepdims=False):
        if a.dtype.kind in "biu":
            # As CuPy's: the plain argmax/argmin, with the axis only.
            return getattr(a, name[3:])(axis=axis)
        host = a._host()
        all_nan = numpy.isnan(host).all(axis=axis, keepdims=True)
        found = numpy_function(numpy.where(all_nan, 0, host), axis=axis,
                               keepdims=keepdims)
        if not keepdims:
            all_nan = numpy.isnan(host).all(axis=axis)
        result = numpy.where(all_nan, -1, found).astype(dtype or numpy.int64)
        if out is not None:
            out[...] = _new_from(numpy.asarray(result))
            return out
        return _new_from(numpy.asarray(result))
    nanarg.__name__ = name
    nanarg.__doc__ = (f"cupy.{name}: int64 indices of the {name[6:]}imum ignoring "
                      "NaN, -1 for a slice of NaN only.")
    return nanarg


nanargmax = _nanarg(numpy.nanargmax, "nanargmax")
nanargmin = _nanarg(numpy.nanargmin, "nanargmin")


def _kth_bound(kth, length):
    """The largest of `kth` (an int or a sequence) after CuPy's check of
    each against the axis's `length`."""
    largest = 0
    for k in (kth,) if isinstance(kth, int) else kth:
        if k < 0:
            k += length
        if not 0 <= k < length:
            raise ValueError(f"kth(={k}) out of bounds {length}")
        largest = max(largest, k)
    return largest


def _argpartition(self, kth, axis=-1):
    """ndarray.argpartition: as CuPy's, the stable argsort of the axis once
    every kth is within it."""
    data = self.ravel() if axis is None else self
    axis = -1 if axis is None else axis
    _kth_bound(kth, data.shape[axis])
    return _new_from(numpy.argsort(data._host(), axis=axis, kind="stable"))


def argpartition(a, kth, axis=-1):
    """cupy.argpartition: `a.argpartition(kth, axis)`, a full stable argsort."""
    return a.argpartition(kth, axis=axis)


ndarray.argpartition = _argpartition


def _sorted_head(length, rows, largest):
    """How many values CuPy's partition leaves sorted at the head of each
    of `rows` rows of `length` values for kth up to `largest`: all of them
    where it sorts the rows, else its kernel's max_k."""
    head = max(32, 1 << int(largest).bit_length())
    # The kernel's subarrays: halved from 512 until each holds head + 128
    # values (32 threads of 4 candidates), then counted over all rows.
    parts = 512
    while parts > 0 and length // parts < head + 32 * 4:
        parts //= 2
    if length < 32 or parts * rows <= 32 or head >= 1024:
        return length
    return head


def _partition(self, kth, axis=-1):
    """ndarray.partition: in place, as CuPy's."""
    if self.ndim == 0:
        raise numpy.exceptions.AxisError(
            "Sorting arrays with the rank of zero is not supported")
    if not self.flags.c_contiguous:
        raise NotImplementedError("Sorting non-contiguous array is not "
                                  "supported.")
    if not -self.ndim <= axis < self.ndim:
        raise numpy.exceptions.AxisError(axis, self.ndim)
    axis %= self.ndim
    length = self.shape[axis]
    largest = _kth_bound(kth, length)
    data = numpy.moveaxis(self._host(), axis, -1)
    head = _sorted_head(length, self.size // max(length, 1), largest)
    if head >= length:
        data[...] = numpy.sort(data, axis=-1)
    else:
        data[...] = numpy.partition(data, numpy.arange(head), axis=-1)


def partition(a, kth, axis=-1):
    """cupy.partition: a partitioned copy of `a` (flattened for None)."""
    if axis is None:
        ret = a.flatten()
        axis = -1
    else:
        ret = a.copy()
    ret.partition(kth, axis=axis)
    return ret


ndarray.partition = _partition


def _check_kind_sort(kind):
    if kind is not None and kind != "stable":
        raise ValueError("kind can only be None or 'stable'")


def _sort(self, axis=-1, kind=None):
    """ndarray.sort: in place and stable, as CuPy's."""
    _check_kind_sort(kind)
    if self.ndim == 0:
        raise numpy.exceptions.AxisError("Sorting arrays with the rank of zero "
                                         "is not supported")
    if not self.flags.c_contiguous:
        raise NotImplementedError("Sorting non-contiguous array is not "
                                  "supported.")
    _call_numpy(numpy.ndarray.sort, (self,), {"axis": axis, "kind": "stable"})


def _argsort(self, axis=-1, kind=None):
    """ndarray.argsort: the indices of a stable sort, as CuPy's."""
    _check_kind_sort(kind)
    return _call_numpy(numpy.ndarray.argsort, (self,),
                       {"axis": axis, "kind": "stable"})


def sort(a, axis=-1, kind=None):
    """cupy.sort: a sorted copy of `a` (flattened for axis=None)."""
    if axis is None:
        ret = a.flatten()
        axis = -1
    else:
        ret = a.copy()
    ret.sort(axis=axis, kind=kind)
    return ret


def argsort(a, axis=-1, kind=None):
    """cupy.argsort: `a.argsort(axis, kind)`."""
    return a.argsort(axis=axis, kind=kind)


ndarray.sort = _sort
ndarray.argsort = _argsort


_numpy_nonzero = _functions.delegate(numpy.nonzero)
_numpy_where = _functions.delegate(numpy.where)


def _nonzero(self):
    """ndarray.nonzero: a tuple of index arrays, one per dimension."""
    if self.ndim >= 1:
        return _call_numpy(numpy.ndarray.nonzero, (self,), {})
    warnings.warn("calling nonzero on 0d arrays is deprecated", DeprecationWarning,
                  stacklevel=2)
    return (_new_from(numpy.zeros(int(bool(self._host())), numpy.int64)),)


def nonzero(a):
    """cupy.nonzero: `a.nonzero()` of a cupy array (anything else as before:
    check_array's TypeError, or a fused function's refusal)."""
    if isinstance(a, ndarray):
        return a.nonzero()
    return _numpy_nonzero(a)


def where(condition, x=None, y=None):
    """cupy.where: `x` where `condition`, else `y`; nonzero(condition) alone."""
    missing = (x is None, y is None).count(True)
    if missing == 1:
        raise ValueError("Must provide both 'x' and 'y' or neither.")
    if missing == 2:
        return nonzero(condition)
    # CuPy's is _where_ufunc(condition.astype('?'), x, y): a Python bool or
    # number, or a list, has no astype (AttributeError); a NumPy array is
    # then refused by the ufunc, a NumPy scalar taken.
    if not hasattr(condition, "astype"):
        raise AttributeError(f"'{type(condition).__name__}' object has no "
                             f"attribute 'astype'")
    return _numpy_where(condition.astype("?"), x, y)


ndarray.nonzero = _nonzero
