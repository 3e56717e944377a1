"""cupy.arange of the fake CuPy, with CuPy's rules rather than NumPy's.

CuPy 13's arange (cupy/_creation/ranges.py) picks float64 when the type of
start, stop or step is a floating Python or NumPy scalar type, else int64:
a 0-d array bound (`cupy.arange(1, mask.sum() + 1)`, common when relabelling
connected components) is of type ndarray, so it gives int64 even when it
holds a float. The length is int(ceil((stop - start) / step)), and element i
is start + i * step in the result's type. NumPy's arange refuses such a
bound here (the fake's arrays do not convert to NumPy implicitly)."""
import math

import numpy

from fake_cupy._ndarray import _new_from, ndarray


def _value(bound):
    """A bound as a host number for the length: a 0-d array's value."""
    return bound.item() if isinstance(bound, ndarray) else bound


def arange(start, stop=None, step=1, dtype=None):
    if dtype is None:
        floating = any(numpy.dtype(type(v)).kind == "f"
                       for v in (start, stop, step))
        dtype = float if floating else int
    if stop is None:
        stop, start = start, 0
    if step is None:
        step = 1
    size = int(math.ceil((_value(stop) - _value(start)) / _value(step)))
    dtype = numpy.dtype(dtype)
    if size <= 0:
        return _new_from(numpy.empty((0,), dtype=dtype))
    if dtype.type == numpy.bool_:
        if size > 2:
            raise ValueError("no fill-function for data-type.")
        return _new_from(numpy.array([start, start - step][:size], dtype=dtype))
    # CuPy converts start and step with the result's scalar type, as here
    # (a 0-d array start would be refused there, as NumPy conversion is).
    first, delta = dtype.type(start), dtype.type(step)
    with numpy.errstate(all="ignore"):
        values = first + numpy.arange(size, dtype=dtype) * delta
    return _new_from(values.astype(dtype, copy=False))
