"""cupy.flatiter, the iterator ``x.flat`` returns, as CuPy's
(cupy/_indexing/iterate.py), which supports less than NumPy's:

- an integer index gives a 0-d copy of that element (C order, a negative
  index counted from the end); a slice gives a new 1-d array; ``...`` is ``:``;
- assigning to a slice takes whatever ``cupy.asarray`` takes (a list, a
  NumPy array, a scalar), cast to the array's dtype, and repeats it over the
  slice as CuPy's kernel does (``a[start + i * step] = val[i % val.size()]``);
- any other index (a list, an array, a tuple, a bool) raises
  ``IndexError('unsupported iterator index')``, where NumPy takes it;
- iterating gives 0-d arrays; ``len``, ``copy()`` (a flattened copy) and
  ``base``; no ``coords`` or ``index``.
"""
import operator

import numpy


_UNSUPPORTED = "unsupported iterator index"


def _bound(value):
    """A slice bound or step as CuPy reads it (__index__, else int)."""
    try:
        return operator.index(value)
    except TypeError:
        return int(value)


def _slice_positions(slc, dim):
    """The flat positions a slice selects in an array of dim elements, after
    CuPy's complete_slice (a stop before the start selects nothing)."""
    step = 1 if slc.step is None else _bound(slc.step)
    if step == 0:
        raise ValueError("Slice step must be nonzero.")
    start = None if slc.start is None else _bound(slc.start)
    stop = None if slc.stop is None else _bound(slc.stop)
    if start is not None and start < 0:
        start += dim
    if stop is not None and stop < 0:
        stop += dim
    if step > 0:
        start = 0 if start is None else max(0, min(dim, start))
        stop = dim if stop is None else max(start, min(dim, stop))
    else:
        start = dim - 1 if start is None else max(-1, min(dim - 1, start))
        stop = -1 if stop is None else max(-1, min(start, stop))
    return numpy.arange(start, stop, step)


def _check_index(ind):
    if isinstance(ind, (tuple, bool)):
        raise IndexError(_UNSUPPORTED)


class flatiter:
    """A flat iterator over a cupy array (``x.flat``), in C order."""

    def __init__(self, a):
        self._base = a
        self._index = 0

    def _element(self, ind):
        """The index of element ind (CuPy's unravelling loop)."""
        ind = int(ind)
        size = self._base.size
        indices = []
        for extent in self._base.shape:
            size = size // extent
            indices.append(ind // size)
            ind %= size
        return tuple(indices)

    def __getitem__(self, ind):
        from fake_cupy import _functions
        if ind is Ellipsis:
            return self[:]
        _check_index(ind)
        if numpy.isscalar(ind):
            return self._base[self._element(ind)].copy()
        if isinstance(ind, slice):
            positions = _slice_positions(ind, self._base.size)
            return self._base.reshape(-1)[_functions.asarray(positions)]
        raise IndexError(_UNSUPPORTED)

    def __setitem__(self, ind, value):
        from fake_cupy import _functions
        if ind is Ellipsis:
            self[:] = value
            return
        _check_index(ind)
        base = self._base
        if numpy.isscalar(ind):
            base[self._element(ind)] = value
            return
        if not isinstance(ind, slice):
            raise IndexError(_UNSUPPORTED)
        positions = _slice_positions(ind, base.size)
        value = _functions.asarray(value, dtype=base.dtype)
        if positions.size == 0:
            return
        if value.size == 0:
            # CuPy's kernel would read val[i % 0]: undefined on a GPU.
            raise ValueError(f"cannot assign an empty array to {positions.size} "
                             f"elements of a flat iterator")
        repeated = value.ravel()[_functions.asarray(numpy.arange(positions.size)
                                                    % value.size)]
        if base.ndim == 0:
            base[...] = repeated[0]
            return
        where = numpy.unravel_index(positions, base.shape)
        base[tuple(_functions.asarray(axis) for axis in where)] = repeated

    def __iter__(self):
        return self

    def __next__(self):
        index = self._index
        if index == len(self):
            raise StopIteration()
        self._index += 1
        return self[index]

    def __len__(self):
        return self._base.size

    def copy(self):
        """A copy of the iterated array, flattened."""
        return self._base.flatten()

    @property
    def base(self):
        """The array iterated over."""
        return self._base


# Shown under CuPy's module name, as cupy.flatiter is.
flatiter.__module__ = "cupy"


def fill_diagonal(a, val, wrap=False):
    """cupy.fill_diagonal (cupy/_indexing/insert.py): ``a.flat[:end:step] =
    val``, so val is anything a flat slice assignment takes (a scalar, a list,
    a NumPy or cupy array, repeated along the diagonal), where the fake had
    refused a NumPy array."""
    if a.ndim < 2:
        raise ValueError("array must be at least 2-d")
    end = None
    if a.ndim == 2:
        step = a.shape[1] + 1
        if not wrap:
            end = a.shape[1] * a.shape[1]
    else:
        if not numpy.all(numpy.diff(a.shape) == 0):
            raise ValueError("All dimensions of input must be of equal length")
        step = 1 + numpy.cumprod(a.shape[:-1]).sum()
    a.flat[:end:step] = val
